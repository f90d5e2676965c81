/**
 * The product end to end, through the CLI as an implementer runs it: a certification run of the
 * reference harness, its result checked by rules written from the upstream verifier's contract
 * (conformance.md 5.4 and the official result schema, applied here independently of our own
 * verify code), then a mutant run, `diff` naming exactly the mutant's IDs, and `verify` catching a
 * result with one ID moved from failed to passed. Level 1 without fuzzing keeps it to seconds.
 * The commands run through main(argv), the function the launcher calls, in this process
 * (tests/support/cli.ts); the launcher itself is proved in tests/cli/robustness.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromRoot } from '../../spec/package-root.js';
import { requiredIdsUpTo } from '../../spec/requirements.js';
import { runCli } from '../support/cli.js';
import { REFERENCE_SEED, referenceLevel1 } from '../support/reference-run.js';

const dir = mkdtempSync(join(tmpdir(), 'oap-e2e-'));
const mutOut = join(dir, 'mutant');
const MUTANT = 'trust-from-file'; // documented to break exactly L1-I4

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const r = await runCli(args, { env: { CI: 'true' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

// --allow-dirty: the test must not depend on whether this checkout has uncommitted fixture edits.
const runArgs = (adapter: string, out: string): string[] => [
  '--adapter',
  adapter,
  '--level',
  '1',
  '--fuzz',
  '0',
  '--seed',
  REFERENCE_SEED,
  '--out',
  out,
  '--allow-dirty',
  '--quiet',
];

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('certification run, end to end', () => {
  // The reference's run is the one several files share (tests/support/reference-run.ts): it exits 0 or throws.
  let refOut: string;
  beforeAll(async () => {
    refOut = await referenceLevel1();
  }, 120_000);

  it('the reference harness certifies at level 1 and its result satisfies the upstream verifier rules', () => {
    const result = JSON.parse(readFileSync(join(refOut, 'result.json'), 'utf8')) as Record<string, unknown> & {
      passed: string[];
      failed: string[];
    };
    const addFormats = (addFormatsModule as unknown as { default: (a: Ajv2020) => Ajv2020 }).default ?? addFormatsModule;
    const ajv = addFormats(new Ajv2020({ allErrors: true }));
    const validate = ajv.compile(
      JSON.parse(readFileSync(fromRoot('spec', 'schemas', 'oap-1.0.1', 'result.schema.json'), 'utf8')) as object,
    );
    expect(validate(result), JSON.stringify(validate.errors)).toBe(true);
    expect(result.failed).toEqual([]);
    expect(result.fixture_revision).toMatch(/^[0-9a-f]{40}$/);
    expect(result.level).toBe(1);
    expect(requiredIdsUpTo(1).filter((id) => !result.passed.includes(id))).toEqual([]);
  }, 120_000);

  it(`a mutant run fails, and diff names exactly the mutant's requirement IDs`, async () => {
    const run = await cli(runArgs(`builtin:mutant/${MUTANT}`, mutOut));
    expect(run.code, run.stderr).toBe(1);
    const result = JSON.parse(readFileSync(join(mutOut, 'result.json'), 'utf8')) as { failed: string[] };
    expect(result.failed).toEqual(['L1-I4']);
    const diff = await cli(['diff', refOut, mutOut, '--json']);
    expect(diff.code).toBe(1);
    const report = JSON.parse(diff.stdout) as { newFailures: Array<{ requirements: string[] }>; fixes: unknown[] };
    expect([...new Set(report.newFailures.flatMap((f) => f.requirements))]).toEqual(['L1-I4']);
    expect(report.fixes).toEqual([]);
  }, 120_000);

  it('verify accepts the genuine result and rejects a copy with one ID moved from failed to passed', async () => {
    expect((await cli(['verify', join(refOut, 'result.json'), '--allow-dirty'])).code).toBe(0);
    const tampered = JSON.parse(readFileSync(join(mutOut, 'result.json'), 'utf8')) as { passed: string[]; failed: string[] };
    tampered.failed = tampered.failed.filter((id) => id !== 'L1-I4');
    tampered.passed.push('L1-I4');
    const path = join(mutOut, 'tampered.json');
    writeFileSync(path, JSON.stringify(tampered, null, 2));
    const verify = await cli(['verify', path, '--report', join(mutOut, 'report.json'), '--allow-dirty']);
    expect(verify.code).toBe(1);
    expect(verify.stdout + verify.stderr).toContain('L1-I4');
  }, 60_000);
});

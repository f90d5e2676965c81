import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import * as keygenCommand from '../../runner/cli/commands/keygen.js';
import * as verifyCommand from '../../runner/cli/commands/verify.js';
import { finalizeRun } from '../../runner/finalize.js';
import { generateSigningKeys } from '../../results/signature.js';
import { makeCase, makeReport, sink } from './make-report.js';
import { runCommand } from './run-command.js';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'oap-verify-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const quiet = { stdout: sink(), stderr: sink() };
const readJson = (p: string) => JSON.parse(readFileSync(p, 'utf8'));
const writeJson = (p: string, v: unknown) => writeFileSync(p, `${JSON.stringify(v, null, 2)}\n`);

describe('oap-conform verify', () => {
  it('verifies an all-pass result with its report', async () => {
    const out = tmp();
    await finalizeRun(makeReport({ level: 2 }), out, quiet);
    const r = await runCommand(verifyCommand, ['verify', join(out, 'result.json')]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('verified');
  });

  it('verifies a report whose cases carry undefined members, NaN and lone surrogates from the adapter', async () => {
    const out = tmp();
    const odd = makeCase('L1-P2/odd', ['L1-P2'], 'pass', {
      message: undefined,
      notes: { ratio: Number.NaN, text: 'half \ud800 pair', gone: undefined },
    });
    await finalizeRun(makeReport({ level: 1, extraCases: [odd] }), out, quiet);
    const r = await runCommand(verifyCommand, ['verify', join(out, 'result.json')]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const written = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(written.cases.at(-1).notes).toEqual({ ratio: null, text: 'half \ufffd pair' });
  });

  it('rejects a copy with one ID moved from failed to passed, naming it', async () => {
    const out = tmp();
    await finalizeRun(makeReport({ level: 2, statuses: { 'L2-A7': 'fail' } }), out, quiet);
    const forged = readJson(join(out, 'result.json'));
    expect(forged.failed).toEqual(['L2-A7']);
    forged.failed = [];
    forged.passed = [...forged.passed, 'L2-A7'];
    const copy = tmp();
    writeJson(join(copy, 'result.json'), forged);
    writeFileSync(join(copy, 'report.json'), readFileSync(join(out, 'report.json')));
    const r = await runCommand(verifyCommand, ['verify', join(copy, 'result.json')]);
    expect(r.code).toBe(1);
    const problems = r.stderr.trim().split('\n');
    expect(problems).toEqual(["oap-conform: verdict-mismatch: L2-A7 is passed in result.json but the report's cases make it fail"]);
  });

  it('rejects a result whose report was altered after the run (digest binding)', async () => {
    const out = tmp();
    await finalizeRun(makeReport({ level: 1 }), out, quiet);
    const report = readJson(join(out, 'report.json'));
    report.cases[0].durationMs += 1;
    writeJson(join(out, 'report.json'), report);
    const r = await runCommand(verifyCommand, ['verify', join(out, 'result.json')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('digest-mismatch');
  });

  it('applies the upstream rules without a report: failed, revision, missing required IDs', async () => {
    const out = tmp();
    await finalizeRun(makeReport({ level: 1 }), out, quiet);
    const result = readJson(join(out, 'result.json'));
    result.fixture_revision = 'abc1234';
    result.passed = result.passed.filter((id: string) => id !== 'L1-R2');
    result.failed = ['L1-R2'];
    const lone = join(tmp(), 'result.json');
    writeJson(lone, result);
    const r = await runCommand(verifyCommand, ['verify', lone]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('oap-conform: revision: fixture_revision "abc1234" is not a full 40-hex Git commit');
    expect(r.stderr).toContain('oap-conform: failed-not-empty: failed is not empty: L1-R2');
    expect(r.stderr).toContain('oap-conform: missing-required: level 1 requires these IDs in passed: L1-R2');
    expect(r.stdout).not.toContain('verified');
  });

  it('a result without its report is structurally valid with its evidence not checked (exit 0), never "verified"', async () => {
    const out = tmp();
    await finalizeRun(makeReport({ level: 1 }), out, quiet);
    const lone = join(tmp(), 'result.json');
    writeFileSync(lone, readFileSync(join(out, 'result.json')));
    const r = await runCommand(verifyCommand, ['verify', lone]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^structurally valid; evidence not checked: .*result\.json \(no report\.json: .*--reproduce --adapter SPEC\)\n$/,
    );
    expect(r.stdout).not.toMatch(/verified/);
    // With its report beside it, the same result is verified.
    const whole = await runCommand(verifyCommand, ['verify', join(out, 'result.json')]);
    expect(whole.stdout).toMatch(/^verified: /);
  });

  it('rejects a schema-invalid result with one line', async () => {
    const lone = join(tmp(), 'result.json');
    writeJson(lone, { schema: 'oap.conformance-result.v1' });
    const r = await runCommand(verifyCommand, ['verify', lone]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^oap-conform: schema: /);
  });

  it('reports unreadable input as a usage error (exit 2)', async () => {
    const bad = join(tmp(), 'result.json');
    writeFileSync(bad, '{not json');
    const r = await runCommand(verifyCommand, ['verify', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^oap-conform: bad-json: .*result\.json is not valid JSON/);
    const missing = await runCommand(verifyCommand, ['verify', join(tmp(), 'nope.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^oap-conform: unreadable-file: /);
  });

  it('rejects a dirty result unless --allow-dirty', async () => {
    const out = tmp();
    await finalizeRun(makeReport({ level: 1, dirty: true }), out, { ...quiet, allowDirty: true });
    const r = await runCommand(verifyCommand, ['verify', join(out, 'result.json')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('dirty-fixtures');
    expect((await runCommand(verifyCommand, ['verify', join(out, 'result.json'), '--allow-dirty'])).code).toBe(0);
  });
});

describe('verify: what it got and what it wants', () => {
  it('takes a result directory for its result.json, and refuses a report.json naming the result.json to give instead', async () => {
    const out = tmp();
    await finalizeRun(makeReport({ level: 1 }), out, quiet);
    const dir = await runCommand(verifyCommand, ['verify', out]);
    expect(dir.code, dir.stderr).toBe(0);
    expect(dir.stdout).toContain(`verified: ${join(out, 'result.json')}`);
    const report = await runCommand(verifyCommand, ['verify', join(out, 'report.json')]);
    expect(report.code).toBe(2);
    expect(report.stderr).toMatch(
      /^oap-conform: not-a-result: .*report\.json is a report\.json .*verify wants the result\.json .*oap-conform verify .*result\.json/,
    );
    const empty = await runCommand(verifyCommand, ['verify', tmp()]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/is a directory without a result\.json; verify wants/);
  });
});

describe('advisories', () => {
  const ADV = 'ADV-vars-undefined';
  it('are reported in report.json with the sentence they rest on, never in failed, and verify ignores them for claims', async () => {
    const out = tmp();
    const report = makeReport({
      level: 1,
      extraCases: [makeCase(`${ADV}/empty-string`, [ADV], 'fail', { message: 'an undefined variable became ""' })],
    });
    const fin = await finalizeRun(report, out, quiet);
    expect(fin.exitCode).toBe(0);
    const written = readJson(join(out, 'report.json'));
    const adv = written.advisories.find((a: { id: string }) => a.id === ADV);
    expect(adv).toMatchObject({ id: ADV, verdict: 'fail', cases: [`${ADV}/empty-string`] });
    expect(adv.rests_on).toContain('Undefined variables are an error');
    const result = readJson(join(out, 'result.json'));
    expect(result.failed).toEqual([]);
    expect(result.passed).not.toContain(ADV);
    expect(result.notes).toContainEqual(expect.stringMatching(new RegExp(`^advisory:${ADV}: fail`)));
    const v = await runCommand(verifyCommand, ['verify', join(out, 'result.json')]);
    expect(v.stderr).toBe('');
    expect(v.code).toBe(0);
  });
});

describe('signatures', () => {
  it('round-trips a signature made with --sign and detects tampering', async () => {
    const keys = tmp();
    const made = await runCommand(keygenCommand, ['keygen', '--out', join(keys, 'k')]);
    expect(made.code).toBe(0);
    const out = tmp();
    await finalizeRun(makeReport({ level: 1 }), out, { ...quiet, sign: join(keys, 'k.key') });
    const resultPath = join(out, 'result.json');
    expect((await runCommand(verifyCommand, ['verify', resultPath, '--key', join(keys, 'k.pub')])).code).toBe(0);

    // Re-indenting does not matter (the signature is over the JCS form) ...
    writeFileSync(resultPath, JSON.stringify(readJson(resultPath)));
    expect((await runCommand(verifyCommand, ['verify', resultPath, '--key', join(keys, 'k.pub')])).code).toBe(0);

    // ... changing a value does.
    const tampered = readJson(resultPath);
    tampered.generated_at = '2030-01-01T00:00:00.000Z';
    writeJson(resultPath, tampered);
    const r = await runCommand(verifyCommand, ['verify', resultPath, '--key', join(keys, 'k.pub')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('signature-invalid: signature does not match result.json');
  });

  it('names a wrong key and a missing signature', async () => {
    const keys = tmp();
    const a = generateSigningKeys();
    const b = generateSigningKeys();
    writeFileSync(join(keys, 'a.key'), a.privatePem);
    writeFileSync(join(keys, 'b.pub'), b.publicPem);
    const out = tmp();
    await finalizeRun(makeReport({ level: 1 }), out, { ...quiet, sign: join(keys, 'a.key') });
    const wrong = await runCommand(verifyCommand, ['verify', join(out, 'result.json'), '--key', join(keys, 'b.pub')]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('signature was made with another key');

    const unsigned = tmp();
    await finalizeRun(makeReport({ level: 1 }), unsigned, quiet);
    const missing = await runCommand(verifyCommand, ['verify', join(unsigned, 'result.json'), '--key', join(keys, 'b.pub')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('signature-missing');
  });

  it('refuses a non-ed25519 or non-PEM signing key with one line', async () => {
    const keys = tmp();
    writeFileSync(join(keys, 'junk.key'), 'not a key');
    await expect(finalizeRun(makeReport(), tmp(), { ...quiet, sign: join(keys, 'junk.key') })).rejects.toMatchObject({ code: 'bad-key' });
  });
});

describe('verify --reproduce: a published claim checked by anyone who has the harness', () => {
  /** A claim that every Level 1 ID passed, for whatever harness: result.json alone, as it is published. */
  async function allPassedClaim(): Promise<string> {
    const out = tmp();
    await finalizeRun(makeReport({ level: 1 }), out, quiet);
    const lone = join(tmp(), 'result.json');
    writeFileSync(lone, readFileSync(join(out, 'result.json')));
    return lone;
  }

  it('a forged all-passed claim for a builtin mutant exits 1 naming the IDs the mutant breaks, each with its case', async () => {
    const claim = await allPassedClaim();
    const out = tmp();
    const r = await runCommand(verifyCommand, [
      'verify',
      claim,
      '--reproduce',
      '--adapter',
      'builtin:mutant/denylist-ignored',
      '--quiet',
      '--out',
      out,
    ]);
    expect(r.code).toBe(1);
    // MUTANTS.md: denylist-ignored breaks exactly L1-I2 (the L1-I3 case that meets the same extra
    // tool is left inconclusive, so L1-I3 is not reproduced either, and is named with its case).
    expect(r.stdout).toMatch(/^not reproduced: \d+ of \d+ claimed-passed IDs of .* do not pass \(level 1, seed 42; run in /);
    // The first failing case may be a hand-written denylist case or one the catalogue generates (suites/catalogue).
    expect(r.stdout).toMatch(/^ {2}L1-I2 fail \(case L1-I2\/(denylist|catalogue-tools)-[a-z-]+\): .*\/tools/m);
    expect(r.stderr).toMatch(/^oap-conform: not-reproduced: L1-I2(, L1-I3)?$/m);
    expect(r.stdout).not.toMatch(/^ {2}L1-I3 fail/m);
    expect(r.stderr).toContain('warning: the claim is for testharness 1.2.3; the adapter given is');
    expect(readJson(join(out, 'report.json')).header.seed).toBe(42);
  }, 120_000);

  it('a true claim reproduces (exit 0); --reproduce without --adapter is a usage error', async () => {
    const claim = await allPassedClaim();
    const r = await runCommand(verifyCommand, [
      'verify',
      claim,
      '--reproduce',
      '--adapter',
      'builtin:reference',
      '--quiet',
      '--out',
      tmp(),
    ]);
    expect(r.stdout).toMatch(/^reproduced: all \d+ claimed-passed IDs of .* pass again \(level 1, seed 42; /);
    expect(r.code).toBe(0);
    const usage = await runCommand(verifyCommand, ['verify', claim, '--reproduce']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/^oap-conform: usage: --reproduce needs --adapter SPEC/);
  }, 120_000);
});

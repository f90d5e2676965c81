/**
 * A certification is reproducible: with no --seed, the seed comes from the fixture revision and the
 * judged level, so two runs of the same harness give the same cases, fuzz inputs and verdicts, and
 * result.json differs only in its timestamp and the digest of the (timestamped) report.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runEngine } from '../../runner/engine/run.js';
import { finalizeRun } from '../../runner/finalize.js';

const quiet = { quiet: true, allowDirty: true, stdout: { write: () => true }, stderr: { write: () => true } };

async function certify(): Promise<{ result: Record<string, unknown>; seed: number; statuses: string[] }> {
  const out = mkdtempSync(join(tmpdir(), 'oap-reproducible-'));
  const run = await runEngine({
    adapter: 'builtin:reference',
    level: 1,
    out,
    jobs: 2,
    timeoutMs: 10_000,
    keepWorkspaces: false,
    resume: false,
    process: false,
    checkProtocol: false,
    fuzz: 120,
  });
  await finalizeRun(run.report, out, quiet);
  const result = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')) as Record<string, unknown>;
  const { generated_at: _at, notes, ...rest } = result;
  return {
    result: { ...rest, notes: (notes as string[]).filter((n) => !n.startsWith('report_jcs_sha256:')) },
    seed: run.report.header.seed,
    statuses: run.report.cases.map((c) => `${c.id}:${c.status}`),
  };
}

it('two default-seed runs give the same seed, the same case verdicts and the same result.json', async () => {
  const first = await certify();
  const second = await certify();
  expect(second.seed).toBe(first.seed);
  expect(second.statuses).toEqual(first.statuses);
  expect(first.statuses.some((s) => s.startsWith('fuzz/'))).toBe(true);
  expect(second.result).toEqual(first.result);
  expect((first.result.notes as string[]).some((n) => n === `seed:${first.seed}`)).toBe(true);
}, 120_000);

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import * as baselineCommand from '../../runner/cli/commands/baseline.js';
import * as diffCommand from '../../runner/cli/commands/diff.js';
import { finalizeRun } from '../../runner/finalize.js';
import { diffReports, formatDiff, hasRegressions } from '../../results/diff.js';
import type { Baseline } from '../../results/baseline.js';
import type { CaseRecord } from '../../results/model.js';
import { makeCase, makeReport, sink } from './make-report.js';
import { runCommand } from './run-command.js';
import { runCli } from '../support/cli.js';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'oap-gate-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const io = () => ({ stdout: sink(), stderr: sink() });
function baselineFile(entries: Baseline['expected_failures']): string {
  const file = join(tmp(), 'baseline.json');
  writeFileSync(file, JSON.stringify({ schema: 'oap-conform.baseline.v1', expected_failures: entries }));
  return file;
}

describe('--baseline gating', () => {
  const failing = () => makeReport({ level: 1, statuses: { 'L1-I3': 'fail', 'L1-P6': 'error' } });

  it('exits 0 when the failures match the baseline (by case ID and by requirement ID)', async () => {
    const file = baselineFile([{ case: 'L1-I3/basic', reason: 'narrowing not done yet' }, { requirement: 'L1-P6' }]);
    const s = io();
    const { exitCode } = await finalizeRun(failing(), tmp(), { ...s, baseline: file });
    expect(s.stderr.text()).toBe('');
    expect(exitCode).toBe(0);
  });

  it('exits 1 on a failure the baseline does not list, naming it', async () => {
    const file = baselineFile([{ case: 'L1-I3/basic' }]);
    const s = io();
    const { exitCode } = await finalizeRun(failing(), tmp(), { ...s, baseline: file });
    expect(exitCode).toBe(1);
    expect(s.stderr.text()).toBe('oap-conform: unexpected-failures: 1 failure(s) not in the baseline: L1-P6/basic [L1-P6]\n');
  });

  it('exits 1 on a stale entry that now passes', async () => {
    const file = baselineFile([{ case: 'L1-I3/basic' }, { requirement: 'L1-P6' }, { requirement: 'L1-D2' }]);
    const s = io();
    const { exitCode } = await finalizeRun(failing(), tmp(), { ...s, baseline: file });
    expect(exitCode).toBe(1);
    expect(s.stderr.text()).toBe('oap-conform: stale-baseline: 1 baseline entry is stale (now passing), remove: requirement L1-D2\n');
  });

  it('a requirement entry does not excuse a case it does not prove', async () => {
    const report = makeReport({ level: 1, extraCases: [makeCase('L1-I3/extra', ['L1-I3', 'L1-I9'], 'fail')] });
    const file = baselineFile([{ requirement: 'L1-I9' }]);
    expect((await finalizeRun(report, tmp(), { ...io(), baseline: file })).exitCode).toBe(0);
    const other = baselineFile([{ requirement: 'L1-I2' }]);
    expect((await finalizeRun(report, tmp(), { ...io(), baseline: other })).exitCode).toBe(1);
  });

  it('an advisory that fails is never an unexpected failure, and baseline update lists it not', async () => {
    const report = makeReport({
      level: 1,
      extraCases: [makeCase('ADV-duplicate-keys/json-duplicate-key-refused', ['ADV-duplicate-keys'], 'fail', { level: 1 })],
    });
    const s = io();
    const out = tmp();
    expect((await finalizeRun(report, out, { ...s, baseline: baselineFile([]) })).exitCode).toBe(0);
    expect(s.stderr.text()).toBe('');
    const file = join(tmp(), 'baseline.json');
    expect((await runCommand(baselineCommand, ['baseline', 'update', '--out', out, '--baseline', file])).code).toBe(0);
    expect((JSON.parse(readFileSync(file, 'utf8')) as Baseline).expected_failures).toEqual([]);
  });

  it('refuses a malformed baseline with a code', async () => {
    const file = join(tmp(), 'b.json');
    writeFileSync(file, JSON.stringify({ schema: 'oap-conform.baseline.v1', expected_failures: [{ id: 'L1-I3' }] }));
    await expect(finalizeRun(failing(), tmp(), { ...io(), baseline: file })).rejects.toMatchObject({ code: 'bad-baseline' });
  });

  it('baseline update writes the current failures, and check then passes', async () => {
    const out = tmp();
    await finalizeRun(failing(), out, io());
    const file = join(tmp(), 'baseline.json');
    const update = await runCommand(baselineCommand, ['baseline', 'update', '--out', out, '--baseline', file]);
    expect(update.code).toBe(0);
    const written = JSON.parse(readFileSync(file, 'utf8')) as Baseline;
    expect(written.expected_failures).toEqual([{ case: 'L1-I3/basic' }, { case: 'L1-P6/basic' }]);
    expect((await runCommand(baselineCommand, ['baseline', 'check', '--out', out, '--baseline', file])).code).toBe(0);

    // After fixing L1-I3 the entry is stale.
    const fixed = tmp();
    await finalizeRun(makeReport({ level: 1, statuses: { 'L1-P6': 'error' } }), fixed, io());
    const check = await runCommand(baselineCommand, ['baseline', 'check', '--out', fixed, '--baseline', file]);
    expect(check.code).toBe(1);
    expect(check.stderr).toContain('stale-baseline: case L1-I3/basic: case L1-I3/basic now passes');
  });

  it('baseline update on a directory without a report is a one-line usage error', async () => {
    const r = await runCommand(baselineCommand, ['baseline', 'update', '--out', tmp(), '--baseline', join(tmp(), 'b.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^oap-conform: no-report: .* has no report\.json\n$/);
  });
});

describe('--baseline: fuzz failures by property and difference', () => {
  /** A fuzz case of the narrowing property in slot `n`, failing at `pointer` (or passing). */
  const fuzzCase = (n: number, pointer?: string) => {
    const c = makeCase(`fuzz/L1-I3/narrowing#${n}`, ['L1-I3'], pointer ? 'fail' : 'pass', {
      origin: 'fuzz',
      expectation: { property: 'narrowing', seed: 42, case_seed: n, runs: 25 },
    });
    return (pointer ? { ...c, differences: [{ pointer, expected: 'deny', observed: 'allow' }] } : c) as CaseRecord;
  };
  const run = (...fuzz: CaseRecord[]) => makeReport({ level: 1, seed: 42, extraCases: fuzz });

  it('baseline update lists a fuzz failure once by property, first difference and seed, however many slots it fills', async () => {
    const out = tmp();
    await finalizeRun(run(fuzzCase(0, '/permissions/shell'), fuzzCase(1, '/permissions/shell'), fuzzCase(2)), out, io());
    const file = join(tmp(), 'baseline.json');
    expect((await runCommand(baselineCommand, ['baseline', 'update', '--out', out, '--baseline', file])).code).toBe(0);
    expect((JSON.parse(readFileSync(file, 'utf8')) as Baseline).expected_failures).toEqual([
      { fuzz: 'narrowing', difference: '/permissions/shell', seed: 42 },
    ]);
  });

  it('the same slot failing on another defect after a fix is unexpected, and the fixed entry is stale', async () => {
    const file = baselineFile([{ fuzz: 'narrowing', difference: '/permissions/shell', seed: 42, reason: 'shell not narrowed yet' }]);
    const same = io();
    expect(
      (await finalizeRun(run(fuzzCase(0, '/permissions/shell'), fuzzCase(3, '/permissions/shell')), tmp(), { ...same, baseline: file }))
        .exitCode,
    ).toBe(0);
    expect(same.stderr.text()).toBe('');
    const other = io();
    expect((await finalizeRun(run(fuzzCase(0, '/budgets/max_turns')), tmp(), { ...other, baseline: file })).exitCode).toBe(1);
    expect(other.stderr.text()).toContain('unexpected-failures: 1 failure(s) not in the baseline: fuzz/L1-I3/narrowing#0 [L1-I3]');
    expect(other.stderr.text()).toContain(
      'stale-baseline: 1 baseline entry is stale (now passing), remove: fuzz narrowing at /permissions/shell (seed 42)',
    );
  });

  it('an entry found at another seed is a warning: it neither excuses nor goes stale', async () => {
    const file = baselineFile([{ fuzz: 'narrowing', difference: '/permissions/shell', seed: 7 }]);
    const s = io();
    expect((await finalizeRun(run(fuzzCase(0)), tmp(), { ...s, baseline: file })).exitCode).toBe(0);
    expect(s.stderr.text()).toMatch(
      /^oap-conform: warning: baseline fuzz narrowing at \/permissions\/shell \(seed 7\) was found at seed 7 and this run used seed 42: .*--seed 7/,
    );
    const failing = io();
    expect((await finalizeRun(run(fuzzCase(0, '/permissions/shell')), tmp(), { ...failing, baseline: file })).exitCode).toBe(1);
  });

  it('a real fuzz failure is baselined at its contract path: the denylist mutant’s tool-policy finding at /tools', async () => {
    const out = tmp();
    const r = await runCli([
      'run',
      '--adapter',
      'builtin:mutant/denylist-ignored',
      '--level',
      '1',
      '--filter',
      'fuzz/L1-I2/*',
      '--quiet',
      '--allow-dirty',
      '--out',
      out,
    ]);
    expect(r.status).toBe(1);
    const file = join(tmp(), 'baseline.json');
    expect((await runCommand(baselineCommand, ['baseline', 'update', '--out', out, '--baseline', file])).code).toBe(0);
    const { expected_failures } = JSON.parse(readFileSync(file, 'utf8')) as Baseline;
    const seed = (JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { header: { seed: number } }).header.seed;
    expect(expected_failures).toEqual([{ fuzz: 'tool-policy', difference: '/tools', seed }]);
    expect((await runCommand(baselineCommand, ['baseline', 'check', '--out', out, '--baseline', file])).code).toBe(0);
  }, 60_000);

  it('an entry naming a fuzz slot by case ID is refused, saying how to write it', async () => {
    const file = baselineFile([{ case: 'fuzz/L1-I3/narrowing#0' }]);
    await expect(finalizeRun(run(), tmp(), { ...io(), baseline: file })).rejects.toMatchObject({
      code: 'bad-baseline',
      message: expect.stringMatching(/names a fuzz slot.*"fuzz": "<property>", "difference": "<pointer>"/),
    });
  });
});

describe('diff', () => {
  it('a case of a SHOULD ID or an advisory that newly fails is listed, never a regression', () => {
    const a = makeReport({ level: 2, extraCases: [makeCase('ADV-delta-redaction/titles', ['ADV-delta-redaction'])] });
    const b = makeReport({
      level: 2,
      statuses: { 'L2-A14': 'fail' },
      extraCases: [makeCase('ADV-delta-redaction/titles', ['ADV-delta-redaction'], 'fail')],
    });
    const d = diffReports(a, b);
    expect(d.newFailures).toEqual([]);
    expect(d.newNonGatingFailures.map((f) => f.id)).toEqual(['ADV-delta-redaction/titles', 'L2-A14/basic']);
    expect(hasRegressions(d)).toBe(false);
    expect(formatDiff(d)).toContain('New SHOULD and advisory failures (never gating) (2)');
  });

  it('names exactly the differing cases and requirement IDs', () => {
    const a = makeReport({ level: 1, statuses: { 'L1-I3': 'fail', 'L1-D2': 'skipped' }, extraCases: [makeCase('L1-P1/old', ['L1-P1'])] });
    const b = makeReport({ level: 1, statuses: { 'L1-I5': 'fail' }, extraCases: [makeCase('L1-P1/new', ['L1-P1'])] });
    const d = diffReports(a, b);
    expect(d.newFailures.map((f) => f.id)).toEqual(['L1-I5/basic']);
    // A skip counts as not passing everywhere, so skipped -> pass is a fix too.
    expect(d.fixes.map((f) => f.id)).toEqual(['L1-D2/basic', 'L1-I3/basic']);
    expect(d.addedCases).toEqual(['L1-P1/new']);
    expect(d.removedCases).toEqual(['L1-P1/old']);
    expect(d.requirementChanges).toEqual([
      { id: 'L1-D2', before: 'skipped', after: 'pass' },
      { id: 'L1-I3', before: 'fail', after: 'pass' },
      { id: 'L1-I5', before: 'pass', after: 'fail' },
    ]);
  });

  it('exits 1 on regressions and 0 on fixes only', async () => {
    const before = tmp();
    const after = tmp();
    await finalizeRun(makeReport({ level: 1, statuses: { 'L1-I3': 'fail' } }), before, io());
    await finalizeRun(makeReport({ level: 1, statuses: { 'L1-R1': 'timeout' } }), after, io());
    const worse = await runCommand(diffCommand, ['diff', before, join(after, 'report.json')]);
    expect(worse.code).toBe(1);
    expect(worse.stdout).toContain('New failures (1)\n  L1-R1/basic: pass -> timeout [L1-R1]');
    expect(worse.stdout).toContain('Fixes (1)\n  L1-I3/basic: fail -> pass [L1-I3]');

    const better = tmp();
    await finalizeRun(makeReport({ level: 1 }), better, io());
    expect((await runCommand(diffCommand, ['diff', before, better])).code).toBe(0);
  });

  it('reports a missing run directory as a usage error', async () => {
    const r = await runCommand(diffCommand, ['diff', join(tmp(), 'absent'), tmp()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^oap-conform: not-found: /);
  });
});

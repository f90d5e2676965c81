import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { messageOf } from '../../results/predicates.js';
import { readRunStream } from '../../results/run-stream.js';
import { resumedConfig } from '../../runner/engine/config.js';
import { runCli } from '../support/cli.js';
import { EngineError } from '../../runner/engine/errors.js';
import { exitCodeForEngineError } from '../../runner/exit-codes.js';
import { fromRoot } from '../../spec/package-root.js';
import { ensureBuilt, isAlive, journalLines, readPidFile, runSynthetic, statuses, synthCases, tempDir, waitDead } from './helpers.js';

/**
 * Every chaos fault against the real engine, with the chaos adapter as a real process: the right
 * status for the faulting case, every case before it in the journal, the other cases unaffected
 * (the adapter is restarted), and no process left behind.
 */
beforeAll(() => ensureBuilt(), 120_000);

let pidFile: string;
afterEach(async () => {
  const left = await waitDead(readPidFile(pidFile));
  expect(left, 'adapter processes (and grandchildren) still alive after the run').toEqual([]);
  delete process.env.OAP_CHAOS_PIDFILE;
});

function trackPids(): void {
  pidFile = join(tempDir('oap-chaos-pids-'), 'pids');
  writeFileSync(pidFile, '');
  process.env.OAP_CHAOS_PIDFILE = pidFile; // OAP_* is on the adapter env allowlist
}

async function expectNoOrphans(pids: number[]): Promise<void> {
  expect(await waitDead(pids)).toEqual([]);
}

describe('chaos faults', () => {
  test('none: a working adapter process passes everything, one process, no restarts', async () => {
    trackPids();
    const run = await runSynthetic('builtin:chaos/none', synthCases(4));
    expect(Object.values(statuses(run))).toEqual(['pass', 'pass', 'pass', 'pass']);
    expect(run.pids).toHaveLength(1);
    await expectNoOrphans(run.pids);
  });

  test('crash-mid-case: that case is an adapter error (crash), earlier ones are journaled, the adapter restarts', async () => {
    trackPids();
    const run = await runSynthetic('builtin:chaos/crash-mid-case?n=3&grandchild=1', synthCases(5));
    expect(statuses(run)).toEqual({ 'T-001': 'pass', 'T-002': 'pass', 'T-003': 'error', 'T-004': 'pass', 'T-005': 'pass' });
    expect(run.report.cases[2]).toMatchObject({ fault: 'adapter', error: { kind: 'crash', exit_code: 1 }, ran: true });
    const crash = run.report.cases.find((c) => c.id === 'T-003')!;
    expect(messageOf(crash)).toMatch(/exited with status 1 while validate was pending/);
    expect(crash.stderr).toMatch(/chaos: crashing during request 3/);
    expect(run.pids).toHaveLength(2); // one restart
    const journal = journalLines(run.journalPath);
    expect(journal.records.map((r) => `${r.id}:${r.status}`)).toEqual([
      'T-001:pass',
      'T-002:pass',
      'T-003:error',
      'T-004:pass',
      'T-005:pass',
    ]);
    // grandchild=1: each adapter started a `sleep` in its group; the pid file holds 4 pids.
    expect(readPidFile(pidFile)).toHaveLength(4);
    await expectNoOrphans(run.pids);
  });

  test('crash budget: after maxRestarts the remaining cases are errors that never ran, with the reason', async () => {
    trackPids();
    const run = await runSynthetic('builtin:chaos/crash-mid-case?n=1', synthCases(6), { maxRestarts: 2 });
    expect(Object.values(statuses(run))).toEqual(['error', 'error', 'error', 'error', 'error', 'error']);
    expect(run.report.cases[5]).toMatchObject({ fault: 'adapter', error: { kind: 'crash' }, ran: false });
    expect(messageOf(run.report.cases[5]!)).toMatch(/restart budget exhausted after 2 restarts/);
    expect(run.report.footer?.adapter_error).toMatch(/restart budget exhausted/);
    expect(run.pids).toHaveLength(3);
  });

  test('--max-restarts N sets the budget from the command line, is recorded in the header and taken back by --resume', async () => {
    trackPids();
    const out = tempDir('oap-chaos-max-restarts-');
    const r = await runCli(
      [
        'run',
        '--adapter',
        'builtin:chaos/crash-mid-case?n=1',
        '--max-restarts',
        '1',
        '--jobs',
        '1',
        '--quiet',
        '--allow-dirty',
        '--out',
        out,
      ],
      { embed: { cases: synthCases(4) } },
    );
    expect(r.status).toBe(3);
    const report = readRunStream(join(out, 'journal.ndjson'));
    expect(report.header.options.max_restarts).toBe(1);
    expect(report.cases.map((c) => c.status)).toEqual(['error', 'error', 'error', 'error']);
    expect(report.cases[3]).toMatchObject({ ran: false });
    expect(messageOf(report.cases[3]!)).toMatch(/exhausted after 1 restarts \(raise it with --max-restarts\)/);
    expect(
      resumedConfig(
        { adapter: 'x', out, jobs: 1, timeoutMs: 1, fuzz: 0, process: false, checkProtocol: false, keepWorkspaces: false, resume: true },
        report.header,
        out,
      ).maxRestarts,
    ).toBe(1);
    const bad = await runCli(['run', '--adapter', 'builtin:chaos/none', '--max-restarts', '-1', '--out', out]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--max-restarts must be an integer from 0/);
  });

  test('hang: that request times out, the adapter is killed and replaced', async () => {
    trackPids();
    const run = await runSynthetic('builtin:chaos/hang?n=2', synthCases(3), { timeoutMs: 800 });
    expect(statuses(run)).toEqual({ 'T-001': 'pass', 'T-002': 'timeout', 'T-003': 'pass' });
    expect(messageOf(run.report.cases[1]!)).toMatch(/no answer within 800 ms/);
    expect(run.pids).toHaveLength(2);
  });

  test('slow-start within the timeout is not a fault', async () => {
    trackPids();
    const run = await runSynthetic('builtin:chaos/slow-start?ms=600', synthCases(2), { timeoutMs: 2000 });
    expect(Object.values(statuses(run))).toEqual(['pass', 'pass']);
  });

  test.each([
    ['garbage', /protocol\.not-json/],
    ['wrong-id', /protocol\.unknown-id/],
    ['invalid-utf8', /protocol\.invalid-utf8/],
  ])('%s: a protocol error attributed to its case, then a fresh adapter', async (fault, pattern) => {
    trackPids();
    const run = await runSynthetic(`builtin:chaos/${fault}?n=2`, synthCases(3));
    expect(statuses(run)).toEqual({ 'T-001': 'pass', 'T-002': 'error', 'T-003': 'pass' });
    expect(messageOf(run.report.cases[1]!)).toMatch(pattern);
    expect(run.pids).toHaveLength(2);
  });

  test('schema-invalid result: error for that case; the framing is intact so no restart', async () => {
    trackPids();
    const run = await runSynthetic('builtin:chaos/schema-invalid?n=2', synthCases(3));
    expect(statuses(run)).toEqual({ 'T-001': 'pass', 'T-002': 'error', 'T-003': 'pass' });
    expect(messageOf(run.report.cases[1]!)).toMatch(/protocol\.invalid-result/);
    expect(run.pids).toHaveLength(1);
  });

  test('huge-line: a 100 MB line is refused without buffering it', async () => {
    trackPids();
    const before = process.memoryUsage().rss;
    const run = await runSynthetic('builtin:chaos/huge-line?n=2', synthCases(3));
    expect(statuses(run)).toEqual({ 'T-001': 'pass', 'T-002': 'error', 'T-003': 'pass' });
    expect(messageOf(run.report.cases[1]!)).toMatch(/protocol\.line-too-long/);
    // The limit is 16 MiB; holding the line would cost at least 100 MB.
    expect(process.memoryUsage().rss - before).toBeLessThan(80 * 1024 * 1024);
  });

  test('stderr-flood: cases pass, each excerpt is at most 4 KiB', async () => {
    trackPids();
    const run = await runSynthetic('builtin:chaos/stderr-flood?bytes=2000000', synthCases(3));
    expect(Object.values(statuses(run))).toEqual(['pass', 'pass', 'pass']);
    for (const c of run.report.cases) {
      expect(c.stderr).toBeDefined();
      expect(Buffer.byteLength(c.stderr!, 'utf8')).toBeLessThanOrEqual(4096);
    }
  });

  test('early-exit with status 0 mid-request is a crash (error)', async () => {
    trackPids();
    const run = await runSynthetic('builtin:chaos/early-exit?n=2', synthCases(3));
    expect(statuses(run)).toEqual({ 'T-001': 'pass', 'T-002': 'error', 'T-003': 'pass' });
    expect(run.report.cases[1]).toMatchObject({ error: { kind: 'crash' } });
    expect(messageOf(run.report.cases[1]!)).toMatch(/exited with status 0/);
  });

  test.each([
    ['version-mismatch', 'unsupported-protocol-version'],
    ['crash-on-start', 'adapter-crashed'],
  ])('%s: the adapter cannot be run (exit 3, one line, no process left)', async (fault, code) => {
    trackPids();
    const err = await runSynthetic(`builtin:chaos/${fault}`, synthCases(2)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineError);
    expect(exitCodeForEngineError((err as EngineError).kind)).toBe(3);
    expect((err as EngineError).code).toBe(code);
    expect((err as EngineError).message).not.toContain('\n');
  });

  test('a command that does not exist cannot be run (exit 3)', async () => {
    trackPids();
    const err = await runSynthetic('no-such-adapter-binary --flag', synthCases(1)).catch((e: unknown) => e);
    expect(exitCodeForEngineError((err as EngineError).kind)).toBe(3);
    expect((err as EngineError).message).toMatch(/ENOENT/);
  });
});

describe('interrupt', () => {
  test('SIGINT to the CLI: exit 130, finished cases kept, footer interrupted, no orphans', async () => {
    trackPids();
    const out = tempDir('oap-sigint-out-');
    const launcher = join(tempDir('oap-sigint-'), 'launch.mjs');
    const dist = (p: string): string => pathToFileURL(fromRoot('dist', p)).href;
    // The real CLI (main + the run command with its signal handling), plus one registered case
    // embedding that gives it synthetic cases.
    writeFileSync(
      launcher,
      `import { main } from ${JSON.stringify(dist('runner/cli/main.js'))};
const profile = (n) => JSON.stringify({ oap: '1.0', kind: 'AgentProfile', metadata: { name: 'p' + n, description: 'd' }, spec: { role: { instructions: 'x' } } });
const cases = Array.from({ length: 6 }, (_, i) => ({
  id: 'S-' + (i + 1), requirements: ['L1-P2'], clauses: ['L1-P2.validate'], title: 'synthetic',
  async run(ctx) { await ctx.adapter.call('validate', { document: { content: profile(i), encoding: 'json' } }); },
}));
process.exitCode = await main(process.argv.slice(2), { cases });
`,
    );
    const child = spawn(
      process.execPath,
      [
        launcher,
        'run',
        '--adapter',
        'builtin:chaos/hang?n=3&grandchild=1',
        '--filter',
        'S-*',
        '--out',
        out,
        '--timeout',
        '60000',
        '--seed',
        '1',
        '--jobs',
        '1',
        '--allow-dirty',
        '--quiet',
        '--no-calibrate',
      ],
      { cwd: fromRoot(), env: { ...process.env, OAP_CHAOS_PIDFILE: pidFile }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.resume();
    const journal = join(out, 'journal.ndjson');
    // Wait until two cases are journaled (the third hangs for up to 60 s).
    const until = Date.now() + 20_000;
    while (Date.now() < until && !(existsSync(journal) && readFileSync(journal, 'utf8').trim().split('\n').length >= 3)) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const adapterPids = readPidFile(pidFile);
    expect(adapterPids.length).toBe(2); // adapter + its grandchild
    expect(adapterPids.every(isAlive)).toBe(true);
    child.kill('SIGINT');
    const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    expect(code, stderr).toBe(130);
    const lines = journalLines(journal);
    expect(lines.records.map((r) => `${r.id}:${r.status}`)).toEqual(['S-1:pass', 'S-2:pass']);
    expect(lines.footer).toMatchObject({ complete: false, interrupted: true });
    const report = JSON.parse(readFileSync(join(out, 'report.interrupted.json'), 'utf8')) as {
      footer: { complete: boolean; interrupted: boolean };
    };
    expect(report.footer).toMatchObject({ complete: false, interrupted: true });
    expect(await waitDead(adapterPids)).toEqual([]);
  }, 40_000);
});

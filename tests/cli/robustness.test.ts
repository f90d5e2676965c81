import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromRoot, packageRoot } from '../../spec/package-root.js';
import { runCli } from '../support/cli.js';
import { REFERENCE_SEED, referenceLevel1 } from '../support/reference-run.js';
import { readRunStream } from '../../results/run-stream.js';

/**
 * The CLI used adversarially: every bad input is ONE stderr line `oap-conform: <code>: <message>`
 * with the documented exit code (2 usage or input, 3 adapter), never `internal-error`, never a
 * stack trace, never a lost result. The commands run in this process through main(argv), the
 * function the launcher calls (tests/support/cli.ts); the real launcher (bin/oap-conform.js ->
 * dist/) is spawned where the process is the point: a bad flag's exit status and its one line, and
 * SIGINT.
 */
const BIN = fromRoot('bin', 'oap-conform.js');
const BUILT = fromRoot('dist', 'runner', 'cli', 'main.js');
const SOURCES = ['runner/cli', 'runner/engine', 'results', 'reports'].map((p) => fromRoot(p));

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

function ensureBuilt(): void {
  if (
    existsSync(BUILT) &&
    existsSync(fromRoot('dist', 'harnesses', 'host.js')) &&
    statSync(BUILT).mtimeMs >= Math.max(...SOURCES.map(newestMtime))
  )
    return;
  spawnSync(process.execPath, [fromRoot('node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], {
    cwd: packageRoot,
    stdio: 'ignore',
  });
  if (!existsSync(BUILT)) throw new Error('build did not produce dist/runner/cli/main.js');
}

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

let work: string;
beforeAll(() => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'oap-cli-robust-'));
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The launcher as a user runs it: only for what the process proves. */
function spawnCli(...args: string[]): Run {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: work, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The command line in this process; every path in `args` is absolute. */
const cli = (...args: string[]): Promise<Run> => runCli(args);

/** Exactly one stderr line with this code, the exit code, and nothing that looks like a crash. */
function expectOneLineError(r: Run, code: string, status: number): void {
  expect(r.stderr, r.stderr).not.toMatch(/internal-error|\n\s+at /);
  expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(1);
  expect(r.stderr).toMatch(new RegExp(`^oap-conform: ${code.replace(/[.]/g, '\\.')}: \\S`));
  expect(r.status).toBe(status);
}

const path = (...p: string[]) => join(work, ...p);
const file = (name: string, content: string): string => {
  writeFileSync(path(name), content);
  return path(name);
};
// --allow-dirty: these tests must not depend on whether the checkout has uncommitted fixture edits.
const QUICK = ['--adapter', 'builtin:reference', '--fuzz', '0', '--quiet', '--allow-dirty'];

describe('run: bad flags are usage errors before anything runs', () => {
  it('through the real launcher: a bad flag is exit 2 and one line, nothing written', () => {
    const out = path('launcher-bad-flag');
    expectOneLineError(spawnCli('run', '--adapter', 'builtin:reference', '--level', '4', '--out', out), 'usage', 2);
    expect(existsSync(out)).toBe(false);
  });

  it.each([
    [['--level', '4'], 'usage'],
    [['--timeout', 'abc'], 'usage'],
    [['--shard', '0/3'], 'usage'],
    [['--shard', '4/3'], 'usage'],
    [['--shard', '1/99999999999999999999'], 'usage'],
    [['--jobs', '0'], 'usage'],
    [['--bogus'], 'usage'],
    [['--adapter', 'builtin:nope'], 'adapter-spec'],
  ])('%j -> exit 2', async (args, code) => {
    expectOneLineError(await cli('run', '--adapter', 'builtin:reference', '--out', path('bad-flags'), ...args), code, 2);
  });

  it('--format unknown (and an inherited property name) is exit 2 with its code, before any case runs', async () => {
    for (const name of ['unknown', 'toString']) {
      const out = path(`fmt-${name}`);
      const r = await cli('run', ...QUICK, '--format', name, '--out', out);
      expectOneLineError(r, 'unknown-format', 2);
      expect(existsSync(join(out, 'journal.ndjson'))).toBe(false);
    }
  });

  it('an unreadable --baseline or a bad --sign key is exit 2 with its code, before any case runs', async () => {
    const garbage = file('garbage.json', '{');
    const b = await cli('run', ...QUICK, '--baseline', path('no-such-baseline.json'), '--out', path('bl'));
    expectOneLineError(b, 'unreadable-file', 2);
    expect(existsSync(path('bl', 'journal.ndjson'))).toBe(false);
    expectOneLineError(await cli('run', ...QUICK, '--baseline', garbage, '--out', path('bl2')), 'bad-json', 2);
    expectOneLineError(await cli('run', ...QUICK, '--sign', garbage, '--out', path('sg')), 'bad-key', 2);
    expect(existsSync(path('sg', 'journal.ndjson'))).toBe(false);
  });

  it('--out that is a file, or under a file, is exit 2 (out-dir), also when the adapter cannot start', async () => {
    const f = file('plain-file', 'x');
    expectOneLineError(await cli('run', ...QUICK, '--out', f), 'out-dir', 2);
    expectOneLineError(await cli('run', ...QUICK, '--out', join(f, 'sub')), 'out-dir', 2);
    expectOneLineError(await cli('run', '--adapter', 'no-such-command-xyz', '--out', f), 'out-dir', 2);
    expect(readFileSync(f, 'utf8')).toBe('x');
  });

  // Node's recursive mkdir loops forever (100% CPU, deaf to SIGTERM) where the parent exists but
  // takes no new entries: a regression would hang, so the launcher is spawned with a deadline.
  it.runIf(existsSync('/proc/self'))('--out under /proc is exit 2 (out-dir) at once, and for init --dir', () => {
    const deadline = (...args: string[]): Run => {
      const r = spawnSync(process.execPath, [BIN, ...args], { cwd: work, encoding: 'utf8', timeout: 30_000, killSignal: 'SIGKILL' });
      return { status: r.status, stdout: r.stdout, stderr: r.stderr };
    };
    expectOneLineError(deadline('run', ...QUICK, '--level', '1', '--out', '/proc/oap-conform-out'), 'out-dir', 2);
    expectOneLineError(deadline('run', ...QUICK, '--level', '1', '--out', '/proc/oap-conform-out/a/b'), 'out-dir', 2);
    expectOneLineError(deadline('init', '--lang', 'ts', '--dir', '/proc/oap-conform-out'), 'io', 2);
  });
});

describe('adapters that cannot be run: exit 3', () => {
  it('a module whose factory throws is adapter-factory (run and smoke), not an internal error', async () => {
    const mod = file('throws.mjs', 'export default () => { throw new Error("factory exploded"); };\n');
    const r = await cli('run', ...QUICK, '--adapter', mod, '--out', path('fac'));
    expectOneLineError(r, 'adapter-factory', 3);
    expect(r.stderr).toMatch(/factory exploded/);
    expectOneLineError(await cli('smoke', '--adapter', mod), 'adapter-factory', 3);
  });

  it('a command that cannot be started is spawn-failed, exit 3, in smoke as in run', async () => {
    expectOneLineError(await cli('run', '--adapter', 'no-such-command-xyz', '--out', path('nospawn')), 'spawn-failed', 3);
    const smoke = await cli('smoke', '--adapter', 'no-such-command-xyz');
    expect(smoke.stderr).toMatch(/^oap-conform: spawn-failed: cannot start adapter no-such-command-xyz/);
    expect(smoke.stderr).not.toMatch(/internal-error/);
    expect(smoke.status).toBe(3);
  });

  it('adapter text is shown on one line without terminal control sequences', async () => {
    const script = file(
      'evil.mjs',
      `import readline from 'node:readline';
const rl = readline.createInterface({ input: process.stdin });
rl.on('line', (l) => {
  const m = JSON.parse(l);
  const send = (o) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, ...o }) + '\\n');
  if (m.method === 'initialize') return send({ result: { protocol_version: '1.0', implementation: { name: 'evil\\u001b[31m\\nname', version: '1', language: 'js' }, level: 1, encodings: ['json', 'yaml'], discovery_roots: ['project'], unimplemented: [] } });
  if (m.method === 'shutdown') { send({ result: {} }); process.exit(0); }
  send({ error: { code: -32603, message: 'line1\\nline2 \\u001b[31mRED\\u001b[0m \\u0007bell' } });
});
`,
    );
    const r = await cli('run', '--adapter', `node ${script}`, '--fuzz', '0', '--filter', 'L1-P1', '--out', path('evil'));
    expect(r.status).toBe(1);
    expect(r.stderr).not.toMatch(/[\u0007\u001b]/);
    const lines = r.stderr.split('\n').filter(Boolean);
    expect(lines[0]).toMatch(/^adapter evil/);
    expect(lines.find((l) => /^\[\d+\/\d+\] ERROR /.test(l))).toMatch(/line1 line2 RED bell$/);
    expect(lines.filter((l) => !/^(adapter |\[\d+\/\d+\] |oap-conform: |done: )/.test(l))).toEqual([]);
  });
});

describe('--resume', () => {
  const seed = ['--seed', '5'];
  const journalOf = (dir: string) => join(dir, 'journal.ndjson');

  it('refuses a journal judged at another level', async () => {
    const out = path('lvl');
    expect((await cli('run', ...QUICK, ...seed, '--level', '3', '--filter', 'L1-D1,L3-*', '--out', out)).status).not.toBe(2);
    const before = readFileSync(journalOf(out), 'utf8');
    const r = await cli('run', ...QUICK, ...seed, '--level', '2', '--filter', 'L1-D1,L3-*', '--out', out, '--resume');
    expectOneLineError(r, 'resume-mismatch', 2);
    expect(r.stderr).toMatch(/level/);
    expect(readFileSync(journalOf(out), 'utf8')).toBe(before);
  });

  it('refuses (and keeps) a journal whose header it cannot read instead of starting over on top of it', async () => {
    const out = path('garbled');
    mkdirSync(out, { recursive: true });
    const text = 'not a header\n{"id":"L1-D1/x","status":"pass"}\n';
    writeFileSync(journalOf(out), text);
    expectOneLineError(await cli('run', ...QUICK, ...seed, '--out', out, '--resume'), 'resume-unreadable', 2);
    expect(readFileSync(journalOf(out), 'utf8')).toBe(text);
  });

  it('a killed run (no footer, a torn last line) is refused by readers and resumed into one whole stream', async () => {
    const out = path('torn');
    const filter = ['--level', '1', '--filter', 'L1-D*'];
    const first = (await cli('run', ...QUICK, ...seed, ...filter, '--out', out)).status;
    expect(first === 0 || first === 1).toBe(true); // a partial (filtered) run: the claim may not hold
    const lines = readFileSync(journalOf(out), 'utf8').split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(5);
    expect(JSON.parse(lines.at(-1)!)).toHaveProperty('footer');
    // The runner was killed while writing its last record: no footer, a fragment of the record unterminated.
    const records = lines.slice(0, -1);
    const lost = JSON.parse(records.at(-1)!) as { id: string };
    writeFileSync(journalOf(out), `${records.slice(0, -1).join('\n')}\n${records.at(-1)!.slice(0, 25)}`);
    expectOneLineError(await cli('diff', journalOf(out), journalOf(out)), 'bad-run-stream', 2);
    writeFileSync(journalOf(out), `${records.slice(0, -1).join('\n')}\n`);
    expectOneLineError(await cli('diff', journalOf(out), journalOf(out)), 'missing-footer', 2);
    writeFileSync(journalOf(out), `${records.slice(0, -1).join('\n')}\n${records.at(-1)!.slice(0, 25)}`);
    const r = await cli('run', ...QUICK, ...seed, ...filter, '--out', out, '--resume');
    expect(r.status).toBe(first);
    const run = readRunStream(journalOf(out));
    expect(run.footer.complete).toBe(true);
    expect(run.cases.filter((c) => c.id === lost.id)).toHaveLength(1);
    expect(run.cases).toHaveLength(records.length - 1);
  });

  it('SIGINT mid-run of an in-process adapter exits 130 with partial results; --resume completes with no duplicate case records', async () => {
    const out = path('sigint');
    // builtin:reference in-process: its answers never wait on I/O, so the run must yield for the signal.
    const select = ['--level', '1', '--filter', 'L1-*', '--jobs', '1'];
    const args = [BIN, 'run', ...QUICK, ...seed, ...select, '--out', out];
    const child = spawn(process.execPath, args, { cwd: work, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    for (let i = 0; i < 400; i++) {
      await new Promise((r) => setTimeout(r, 25));
      if (existsSync(journalOf(out)) && readFileSync(journalOf(out), 'utf8').split('\n').length > 10) break;
    }
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).not.toMatch(/internal-error|\n\s+at /);
    const partial = JSON.parse(readFileSync(join(out, 'report.interrupted.json'), 'utf8')) as {
      footer: { interrupted: boolean };
      cases: unknown[];
    };
    expect(partial.footer.interrupted).toBe(true);
    // The partial outputs go beside a finished run's, never over them.
    expect(existsSync(join(out, 'result.interrupted.json'))).toBe(true);
    expect(existsSync(join(out, 'badge.interrupted.json'))).toBe(true);
    expect(existsSync(join(out, 'result.json'))).toBe(false);
    const r = await cli('run', ...QUICK, ...select, '--out', out, '--resume');
    expect(r.status).toBe(0);
    const full = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { footer: { complete: boolean }; cases: { id: string }[] };
    expect(full.footer.complete).toBe(true);
    expect(full.cases.length).toBeGreaterThan(partial.cases.length);
    // One stream: the interrupted footer gave way to the resumed records and the final footer.
    const stream = readRunStream(journalOf(out));
    expect(stream.footer.complete).toBe(true);
    expect(stream.cases.length).toBe(full.cases.length);
  });
});

describe('command-line edges', () => {
  it('an unknown command says so, with the nearest command (not "too many arguments for \'run\'")', async () => {
    const r = await cli('verfy', 'result.json');
    expectOneLineError(r, 'unknown-command', 2);
    expect(r.stderr).toContain('unknown command "verfy" (did you mean verify?)');
  });

  it('list chaos names every chaos fault as the adapter spec that runs it', async () => {
    const r = await cli('list', 'chaos');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^builtin:chaos\/none\s+behave/m);
    expect(r.stdout).toMatch(/^builtin:chaos\/crash-mid-case\s+/m);
  });

  it('--jobs help prints its default once', async () => {
    const help = (await cli('run', '--help')).stdout;
    const jobs = help.slice(help.indexOf('--jobs'), help.indexOf('--filter'));
    expect(jobs.match(/default/g)).toHaveLength(1);
  });

  it('diff takes result.json files, and warns when the implementation or the level differ', async () => {
    const a = path('diff-a');
    const b = path('diff-b');
    await cli('run', ...QUICK, '--level', '1', '--filter', 'L1-I4', '--out', a);
    await cli(
      'run',
      '--adapter',
      'builtin:mutant/trust-from-file',
      '--level',
      '1',
      '--fuzz',
      '0',
      '--filter',
      'L1-I4',
      '--out',
      b,
      '--quiet',
    );
    const r = await cli('diff', join(a, 'result.json'), join(b, 'result.json'));
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/New failures \([1-9]\d*\)\n {2}L1-I4\//);
    expect(r.stderr).toMatch(
      /^oap-conform: warning: the runs are of different implementations \(oap-conform-reference .* vs oap-conform-reference\+mutant:trust-from-file /m,
    );
    const bad = await cli('diff', join(a, 'summary.md'), b);
    expectOneLineError(bad, 'bad-json', 2);
  });
});

describe('shards and merge', () => {
  it('merge of --shard 1/2 and 2/2 gives the verdicts of the unsharded run', async () => {
    // The unsharded run is the reference's Level 1 certification several files share (it exits 0 or throws).
    const whole = await referenceLevel1();
    const common = [...QUICK, '--level', '1', '--seed', REFERENCE_SEED];
    await cli('run', ...common, '--shard', '1/2', '--out', path('s1'));
    await cli('run', ...common, '--shard', '2/2', '--out', path('s2'));
    const m = await cli('merge', path('s1'), path('s2'), '--out', path('merged'), '--quiet', '--allow-dirty');
    expect(m.status).toBe(0);
    const read = (d: string) =>
      JSON.parse(readFileSync(join(d, 'result.json'), 'utf8')) as { passed: string[]; failed: string[]; level: number };
    const statuses = (d: string) =>
      Object.fromEntries(
        (JSON.parse(readFileSync(join(d, 'report.json'), 'utf8')) as { cases: { id: string; status: string }[] }).cases.map((c) => [
          c.id,
          c.status,
        ]),
      );
    const unsharded = read(whole);
    const merged = read(path('merged'));
    expect({ passed: merged.passed, failed: merged.failed, level: merged.level }).toEqual({
      passed: unsharded.passed,
      failed: unsharded.failed,
      level: unsharded.level,
    });
    expect(statuses(path('merged'))).toEqual(statuses(whole));
  });
});

describe('reading artefacts back: garbage in is exit 2 (input) or 1 (verify mismatch), one line each', () => {
  it.each([
    ['verify', ['verify', 'missing.json'], 'unreadable-file', 2],
    ['verify garbage', ['verify', 'garbage.json'], 'bad-json', 2],
    ['diff garbage', ['diff', 'garbage.json', 'garbage.json'], 'bad-json', 2],
    ['diff non-report', ['diff', 'null.json', 'null.json'], 'not-a-run', 2],
    ['merge garbage', ['merge', 'garbage.json', '--out', 'm'], 'bad-json', 2],
    ['baseline check garbage', ['baseline', 'check', '--out', 'garbage.json', '--baseline', 'null.json'], 'bad-json', 2],
    ['verify --key garbage', ['verify', 'null.json', '--key', 'garbage.json'], 'bad-key', 2],
  ])('%s', async (_name, args, code, status) => {
    file('garbage.json', '{');
    file('null.json', 'null');
    // The file arguments, made absolute (the command runs in this process, not in `work`).
    const absolute = args.map((a, i) => (i === 0 || a === 'check' || a.startsWith('-') ? a : path(a)));
    expectOneLineError(await cli(...absolute), code, status);
  });

  it('keygen into a directory that does not exist is exit 2 (io), not an internal error', async () => {
    expectOneLineError(await cli('keygen', '--out', path('no-such-dir', 'k')), 'io', 2);
  });

  it('verify prints each problem on one line even when the result carries control characters', async () => {
    const result = {
      schema: 'oap.conformance-result.v1',
      oap: '1.0',
      maintenance_release: '1.0.1',
      implementation: 'x',
      implementation_version: '1',
      level: 1,
      fixture_revision: 'abcdef0\nforged: line',
      passed: [],
      failed: [],
      generated_at: '2026-01-01T00:00:00Z',
    };
    const r = await cli('verify', file('ctl-result.json', JSON.stringify(result)));
    expect(r.status).toBe(1);
    const lines = r.stderr.split('\n').filter(Boolean);
    for (const l of lines) expect(l).toMatch(/^oap-conform: [a-z-]+: /);
    expect(lines.some((l) => l.startsWith('oap-conform: revision: '))).toBe(true);
  });
});

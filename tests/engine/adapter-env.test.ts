/**
 * Only an allowlist of the runner's environment reaches an adapter process (PATH, LANG, LC_ALL, TZ,
 * SYSTEMROOT and OAP_*); `--adapter-env NAME[=VALUE]` (repeatable, on run, smoke and replay) adds
 * what an adapter needs beyond that, and never the private HOME/XDG/TMPDIR directories.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AdapterEnvError, adapterEnv, parseAdapterEnv } from '../../runner/engine/env.js';
import { rerunCommand } from '../../results/rerun.js';
import { readRunStream } from '../../results/run-stream.js';
import { runCli } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'oap-adapter-env-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('parseAdapterEnv', () => {
  const runner = { PYTHONPATH: '/opt/harness/src', EMPTY: '' };

  it.each([
    [['PYTHONPATH'], { PYTHONPATH: '/opt/harness/src' }],
    [['HARNESS_SRC=/src/harness'], { HARNESS_SRC: '/src/harness' }],
    [['A=x=y'], { A: 'x=y' }],
    [['A='], { A: '' }],
    [['EMPTY'], { EMPTY: '' }],
    [['A=1', 'A=2'], { A: '2' }],
  ])('%j -> %j', (specs, want) => expect(parseAdapterEnv(specs, runner)).toEqual(want));

  it.each([
    ['NOT_SET', /NOT_SET is not set in the runner's environment/],
    ['1BAD=x', /expected NAME or NAME=VALUE/],
    ['=x', /expected NAME or NAME=VALUE/],
    ['HOME=/home/me', /private per-worker directories/],
    ['TMPDIR', /private per-worker directories/],
    ['XDG_CONFIG_HOME=/x', /private per-worker directories/],
  ])('%s is refused', (spec, message) => {
    expect(() => parseAdapterEnv([spec], runner)).toThrow(AdapterEnvError);
    expect(() => parseAdapterEnv([spec], runner)).toThrow(message);
  });

  it('adds to the allowlist without letting anything else through', () => {
    const env = adapterEnv(join(dir, 'w'), { PATH: '/bin', SECRET_TOKEN: 't', OAP_MODE: 'x' }, { PYTHONPATH: '/src' });
    expect(env['PYTHONPATH']).toBe('/src');
    expect(env['OAP_MODE']).toBe('x');
    expect(env['SECRET_TOKEN']).toBeUndefined();
    expect(env['HOME']?.startsWith(join(dir, 'w'))).toBe(true);
  });
});

describe('--adapter-env on the CLI', () => {
  // A stdio adapter that reports HARNESS_SRC in its handshake and declines everything else.
  const script = join(dir, 'env-adapter.mjs');
  writeFileSync(
    script,
    `import { createInterface } from 'node:readline';
for await (const line of createInterface({ input: process.stdin })) {
  const m = JSON.parse(line);
  const reply = m.method === 'initialize'
    ? { result: { protocol_version: '1.0', implementation: { name: 'env-' + (process.env.HARNESS_SRC ?? 'unset'), version: '0', language: 'js' },
        level: 1, encodings: ['yaml'], discovery_roots: ['project'], unimplemented: [] } }
    : m.method === 'shutdown' ? { result: {} } : { error: { code: -32001, message: 'not implemented', data: { reason: 'test' } } };
  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, ...reply }) + '\\n');
  if (m.method === 'shutdown') break;
}
`,
  );
  // The CLI in this process (tests/support/cli.ts), with HARNESS_SRC in the runner's environment or not.
  const cli = (args: string[], env: Record<string, string> = {}) => runCli(args, { env: { HARNESS_SRC: undefined, ...env } });
  const adapter = `${JSON.stringify(process.execPath)} ${JSON.stringify(script)}`;

  it('a variable the runner has does not reach the adapter unless --adapter-env names it', async () => {
    expect((await cli(['smoke', '--adapter', adapter], { HARNESS_SRC: '/src/a' })).stdout).toMatch(/✓ initialize: env-unset /);
    expect((await cli(['smoke', '--adapter', adapter, '--adapter-env', 'HARNESS_SRC'], { HARNESS_SRC: '/src/a' })).stdout).toMatch(
      /✓ initialize: env-\/src\/a /,
    );
    expect((await cli(['smoke', '--adapter', adapter, '--adapter-env', 'OTHER=1', '--adapter-env', 'HARNESS_SRC=/src/b'])).stdout).toMatch(
      /✓ initialize: env-\/src\/b /,
    );
  }, 30_000);

  it('run records --adapter-env as given; the rerun line and --resume repeat it', async () => {
    const out = join(dir, 'recorded');
    const stream = join(out, 'journal.ndjson');
    const run = ['run', '--adapter', adapter, '--level', '1', '--filter', 'L1-P2', '--fuzz', '0', '--seed', '5', '--out', out];
    const first = await cli([...run, '--quiet', '--allow-dirty', '--adapter-env', 'HARNESS_SRC', '--adapter-env', 'MODE=fast'], {
      HARNESS_SRC: '/src/a',
    });
    expect([0, 1]).toContain(first.status);
    const whole = readRunStream(stream);
    expect(whole.header.options.adapter_env).toEqual(['HARNESS_SRC', 'MODE=fast']);
    expect(whole.header.adapter.handshake.implementation.name).toBe('env-/src/a');
    expect(rerunCommand(whole.header, whole.cases[0]!)).toMatch(
      /^oap-conform run --adapter .* --adapter-env HARNESS_SRC --adapter-env MODE=fast --level 1 /,
    );
    expect(whole.cases.length).toBeGreaterThan(1);

    // The runner killed before its last case: no footer. --resume without --adapter-env gives the
    // adapter the same variables (the pass-through read again), so its handshake is the same run's.
    const killed = () => writeFileSync(stream, `${readFileSync(stream, 'utf8').trim().split('\n').slice(0, -2).join('\n')}\n`);
    killed();
    const resumed = await cli([...run, '--quiet', '--allow-dirty', '--resume'], { HARNESS_SRC: '/src/a' });
    expect(resumed.status, resumed.stderr).toBe(first.status);
    expect(
      readRunStream(stream)
        .cases.map((c) => c.id)
        .sort(),
    ).toEqual(whole.cases.map((c) => c.id).sort());

    killed();
    const unset = await cli([...run, '--quiet', '--resume']);
    expect(unset.status).toBe(2);
    expect(unset.stderr).toMatch(
      /^oap-conform: resume-adapter-env: cannot resume .*: its run passed HARNESS_SRC through to the adapter \(--adapter-env HARNESS_SRC\) and HARNESS_SRC is not set now/,
    );
    const other = await cli([...run, '--quiet', '--resume', '--adapter-env', 'HARNESS_SRC=/src/a']);
    expect(other.status).toBe(2);
    expect(other.stderr).toMatch(
      /^oap-conform: resume-mismatch: cannot resume .*: its run differs in options\.adapter_env \(\["HARNESS_SRC","MODE=fast"\] there, \["HARNESS_SRC=\/src\/a"\] now\)\n$/,
    );
  }, 60_000);

  it.each([['run', '--out', join(dir, 'out')], ['smoke'], ['replay', join(dir, 'no-finding.json')]])(
    '%s refuses a bad --adapter-env with one line and exit 2',
    async (...args) => {
      const r = await cli([...args, '--adapter', adapter, '--adapter-env', 'HOME=/tmp']);
      expect(r.status).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/^oap-conform: adapter-env: --adapter-env HOME: /);
    },
    30_000,
  );
});

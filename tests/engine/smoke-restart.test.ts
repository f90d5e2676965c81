/**
 * smoke after a protocol error restarts the adapter, so one broken answer is reported once, on the
 * step that caused it; and the Python SDK keeps stray print()s (and child processes' output) off the
 * protocol's stdout while serving.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fromRoot } from '../../spec/package-root.js';
import { runCli } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'oap-smoke-restart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** smoke in this process (tests/support/cli.ts), in `dir`: the adapter commands are relative to it. */
const smoke = (adapter: string) => runCli(['smoke', '--adapter', adapter], { cwd: dir });

/** Answers initialize, writes a line that is not JSON for the first validate of all its runs (a marker file), declines the rest. */
const GARBLING = `
const readline = require('node:readline');
const rl = readline.createInterface({ input: process.stdin });
const fs = require('node:fs');
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
rl.on('line', (line) => {
  const req = JSON.parse(line);
  if (req.method === 'initialize')
    return send({ jsonrpc: '2.0', id: req.id, result: { protocol_version: '1.0', implementation: { name: 'garbler', version: '1', language: 'javascript' },
      level: 1, encodings: ['yaml'], discovery_roots: ['project'], unimplemented: [] } });
  if (req.method === 'validate' && !fs.existsSync('garbled')) {
    fs.writeFileSync('garbled', '');
    return process.stdout.write('debug: validating\\n');
  }
  if (req.method === 'shutdown') { send({ jsonrpc: '2.0', id: req.id, result: {} }); return process.exit(0); }
  send({ jsonrpc: '2.0', id: req.id, error: { code: -32001, message: 'not-implemented', data: { reason: 'not yet' } } });
});
`;

describe('smoke', () => {
  it('restarts the adapter after a protocol error instead of repeating it on every later step', async () => {
    writeFileSync(join(dir, 'garbler.cjs'), GARBLING);
    const r = await smoke('node garbler.cjs');
    expect(r.status).toBe(1);
    const lines = r.stdout.split('\n');
    expect(lines[1]).toMatch(/^✗ validate accepted profile \(yaml\): .*not JSON/i);
    expect(lines[2]).toMatch(/^↻ restarted the adapter after: /);
    // The fresh adapter answers the later steps itself: each is judged on its own answer.
    expect(lines.slice(3, 6)).toEqual([
      '✗ validate rejected profile (oap: "9.0"): declined: not implemented (not yet)',
      '✗ instantiate accepted profile by name: declined: not implemented (not yet)',
      '✗ instantiate rejected profile by path: declined: not implemented (not yet)',
    ]);
    expect(lines.filter((l) => l.startsWith('✗') && /not JSON/i.test(l))).toHaveLength(1);
  });
});

describe('the Python SDK while serving', () => {
  it('sends print() and child-process output to stderr, never into the protocol', async () => {
    copyFileSync(fromRoot('sdk', 'python', 'oap_adapter.py'), join(dir, 'oap_adapter.py'));
    const starter = await runCli(['init', '--lang', 'python', '--dir', join(dir, 'py')], { cwd: dir });
    expect(starter.status, starter.stderr).toBe(0);
    const path = join(dir, 'py', 'my_adapter.py');
    const noisy = readFileSync(path, 'utf8').replace(
      'def validate(params):\n',
      'def validate(params):\n    print("debugging validate")\n    import subprocess; subprocess.run(["echo", "child output"])\n',
    );
    writeFileSync(path, noisy);
    const r = await smoke(`python3 ${path}`);
    expect(r.stdout).not.toMatch(/not JSON|protocol error/i);
    expect(r.stdout).toContain('✗ validate accepted profile (yaml): declined: not implemented (TODO: call the harness loader)');
    expect(r.stdout).toMatch(/adapter stderr \(last lines\):\n(.*\n)*debugging validate\nchild output/);
  });
});

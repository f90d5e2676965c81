import { execFileSync, spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { beforeAll, describe, expect, test } from 'vitest';
import { AdapterDecline, PromptBuilder, RPC_ERROR, defineAdapter, sectionText, serveStdio } from '../../adapters/sdk/ts/index.js';
import { fromRoot } from '../../runner/util/package-root.js';
import { ensureBuilt } from './helpers.js';

beforeAll(() => ensureBuilt(), 120_000);

describe('PromptBuilder', () => {
  test('section offsets are UTF-8 bytes; separators belong to no section; state has delimiter lines', () => {
    const p = new PromptBuilder()
      .section('preamble', 'Härness rules 🛡', true)
      .section('instructions', 'Review Python. Ünïcödé.', true)
      .state('fact: prefers tabs', { open: '<untrusted-state>', close: '</untrusted-state>' })
      .build({ included: ['f1'], elided: [], notice: null });
    const bytes = Buffer.from(p.text, 'utf8');
    expect(p.sections.map((s) => s.kind)).toEqual(['preamble', 'instructions', 'state']);
    expect(sectionText(p, p.sections[0]!)).toBe('Härness rules 🛡');
    expect(sectionText(p, p.sections[1]!)).toBe('Review Python. Ünïcödé.');
    const state = sectionText(p, p.sections[2]!).split('\n');
    expect(state[0]).toBe('<untrusted-state>');
    expect(state[state.length - 1]).toBe('</untrusted-state>');
    expect(p.sections[2]!.end).toBe(bytes.length);
    expect(p.sections[2]!.trusted).toBe(false);
    // UTF-16 indices would differ: the preamble has 2 non-ASCII characters (ä: 2 bytes, 🛡: 4 bytes / 2 units).
    expect(p.sections[0]!.end).toBe('Härness rules 🛡'.length + 1 + 2);
  });
});

function serve(handlers: Parameters<typeof defineAdapter>[0]) {
  const input = new PassThrough();
  const output = new PassThrough();
  const lines: Record<string, unknown>[] = [];
  let buf = '';
  output.on('data', (d: Buffer) => {
    buf += d.toString();
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      lines.push(JSON.parse(buf.slice(0, nl)) as Record<string, unknown>);
      buf = buf.slice(nl + 1);
    }
  });
  const done = serveStdio(defineAdapter(handlers), { input, output });
  return { input, lines, done };
}

describe('serveStdio', () => {
  test('declines, unknown methods, bad params, bad JSON, adapter exceptions and pipelined requests', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { input, lines, done } = serve({
      validate: async (p) => {
        if ('content' in p.document && p.document.content === 'slow') await gate;
        if ('content' in p.document && p.document.content === 'skip') throw new AdapterDecline('skipped', 'no yaml here');
        if ('content' in p.document && p.document.content === 'boom') throw new Error('kaboom\nsecond line');
        return { valid: true, errors: [], warnings: [] };
      },
    });
    const send = (m: unknown): boolean => input.write(`${JSON.stringify(m)}\n`);
    send({ jsonrpc: '2.0', id: 1, method: 'validate', params: { document: { content: 'slow', encoding: 'json' } } });
    send({ jsonrpc: '2.0', id: 2, method: 'validate', params: { document: { content: 'skip', encoding: 'json' } } });
    send({ jsonrpc: '2.0', id: 3, method: 'digest', params: { document: { path: '/x' } } });
    send({ jsonrpc: '2.0', id: 4, method: 'frobnicate', params: {} });
    send({ jsonrpc: '2.0', id: 5, method: 'validate', params: { document: {} } });
    send({ jsonrpc: '2.0', id: 6, method: 'validate', params: { document: { content: 'boom', encoding: 'json' } } });
    input.write('not json\n');
    await new Promise((r) => setTimeout(r, 20));
    release();
    send({ jsonrpc: '2.0', id: 7, method: 'shutdown', params: {} });
    await done;
    await new Promise((r) => setImmediate(r));
    const byId = new Map(lines.map((l) => [l.id, l]));
    // id 1 was held back: pipelined answers come as they finish, matched by id.
    expect(lines[lines.length - 2]!.id === 1 || lines[lines.length - 1]!.id === 1).toBe(true);
    expect(byId.get(1)).toEqual({ jsonrpc: '2.0', id: 1, result: { valid: true, errors: [], warnings: [] } });
    expect(byId.get(2)).toMatchObject({ error: { code: RPC_ERROR.SKIPPED, data: { reason: 'no yaml here' } } });
    expect(byId.get(3)).toMatchObject({ error: { code: RPC_ERROR.NOT_IMPLEMENTED } });
    expect(byId.get(4)).toMatchObject({ error: { code: RPC_ERROR.METHOD_NOT_FOUND } });
    expect(byId.get(5)).toMatchObject({ error: { code: RPC_ERROR.INVALID_PARAMS } });
    expect(byId.get(6)).toMatchObject({ error: { code: RPC_ERROR.INTERNAL_ERROR, message: 'kaboom' } });
    expect(byId.get(null)).toMatchObject({ error: { code: RPC_ERROR.PARSE_ERROR } });
    expect(byId.get(7)).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
  });
});

describe('Python SDK', () => {
  test('PromptBuilder offsets are UTF-8 bytes and match the TypeScript builder', () => {
    const script = `
import json, sys
sys.path.insert(0, ${JSON.stringify(fromRoot('adapters', 'sdk', 'python'))})
from oap_adapter import PromptBuilder
p = PromptBuilder().section("preamble", "Härness rules 🛡", True).section("instructions", "Ünïcödé", True).state("x", "<s>", "</s>").build(["a"])
print(json.dumps(p))`;
    const py = JSON.parse(execFileSync('python3', ['-c', script], { encoding: 'utf8' })) as unknown;
    const ts = new PromptBuilder().section('preamble', 'Härness rules 🛡', true).section('instructions', 'Ünïcödé', true).state('x', { open: '<s>', close: '</s>' }).build({ included: ['a'], elided: [], notice: null });
    expect(py).toEqual(ts);
  });

  test('serve(): decline codes, unknown method, parse error, shutdown ends the loop', async () => {
    const child = spawn('python3', [fromRoot('adapters', 'examples', 'python', 'example_adapter.py')], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'validate', params: { document: { content: 'a: 1', encoding: 'yaml' } } },
      { jsonrpc: '2.0', id: 2, method: 'apply_delta', params: {} },
      { jsonrpc: '2.0', id: 3, method: 'frobnicate', params: {} },
      { jsonrpc: '2.0', id: 4, method: 'shutdown', params: {} },
    ];
    child.stdin.write(`${JSON.stringify(lines[0])}\n${JSON.stringify(lines[1])}\nnot json\n${JSON.stringify(lines[2])}\n${JSON.stringify(lines[3])}\n`);
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    expect(code).toBe(0);
    const got = out.trim().split('\n').map((l) => JSON.parse(l) as { id: unknown; error?: { code: number } });
    expect(got.map((g) => [g.id, g.error?.code ?? 'ok'])).toEqual([
      [1, RPC_ERROR.SKIPPED],
      [2, RPC_ERROR.NOT_IMPLEMENTED],
      [null, RPC_ERROR.PARSE_ERROR],
      [3, RPC_ERROR.METHOD_NOT_FOUND],
      [4, 'ok'],
    ]);
  });
});

describe('examples pass smoke end to end (the CLI, spawned)', () => {
  const cli = fromRoot('bin', 'oap-conform.js');
  test.each([
    ['python', 'python3 adapters/examples/python/example_adapter.py'],
    ['ts over stdio', 'node dist/adapters/examples/ts/example-adapter.js'],
    ['ts module (compiled .js)', 'adapters/examples/ts/example-adapter.ts'],
    ['ts builtin', 'builtin:example/ts'],
  ])('%s', (_, spec) => {
    const out = execFileSync(process.execPath, [cli, 'smoke', '--adapter', spec, '--check-protocol'], { cwd: fromRoot(), encoding: 'utf8' });
    expect(out).toMatch(/smoke: all 5 steps passed/);
    expect(out).toMatch(/✓ instantiate rejected profile by path: rejected: version-major at "\/oap"/);
  });

  test('a declining starter fails smoke with exit 1 and says why', () => {
    let status = 0;
    let out = '';
    try {
      execFileSync(process.execPath, [cli, 'smoke', '--adapter', 'python3 -c "import sys; sys.path.insert(0, \'adapters/sdk/python\'); from oap_adapter import Adapter; a = Adapter(); a.method(\'initialize\')(lambda p: {\'protocol_version\': \'1.0\', \'implementation\': {\'name\': \'x\', \'version\': \'1\', \'language\': \'python\'}, \'level\': 1, \'encodings\': [\'json\'], \'discovery_roots\': [\'project\'], \'unimplemented\': []}); a.serve()"'], { cwd: fromRoot(), encoding: 'utf8' });
    } catch (err) {
      status = (err as { status: number }).status;
      out = (err as { stdout: string }).stdout;
    }
    expect(status).toBe(1);
    expect(out).toMatch(/✗ validate accepted profile \(json\): declined: not implemented/);
  });
});

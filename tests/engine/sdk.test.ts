import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { beforeAll, describe, expect, test } from 'vitest';
import type { ErrorObject } from 'ajv';
import { IssueCategory, RPC_ERROR as PROTOCOL_RPC_ERROR, SectionKind } from '../../protocol/messages.js';
import { specDigest as tsExampleSpecDigest } from '../../harnesses/examples/ts/example-adapter.js';
import {
  AdapterDecline,
  PromptBuilder,
  RPC_ERROR,
  RpcError,
  defineAdapter,
  errorFor,
  sectionText,
  serveStdio,
} from '../../sdk/ts/index.js';
import { canonicalJson as oracleCanonicalJson } from '../../spec/document/jcs.js';
import { specDigest as oracleSpecDigest } from '../../spec/document/digest.js';
import { createAjv } from '../../spec/document/ajv.js';
import { parentPointer, valueAt } from '../../spec/semantics/index.js';
import { fromRoot } from '../../spec/package-root.js';
import { runCli } from '../support/cli.js';
import { ensureBuilt, tempDir } from './helpers.js';

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
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
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
sys.path.insert(0, ${JSON.stringify(fromRoot('sdk', 'python'))})
from oap_adapter import PromptBuilder
p = PromptBuilder().section("preamble", "Härness rules 🛡", True).section("instructions", "Ünïcödé", True).state("x", "<s>", "</s>").build(["a"])
print(json.dumps(p))`;
    const py = JSON.parse(execFileSync('python3', ['-c', script], { encoding: 'utf8' })) as unknown;
    const ts = new PromptBuilder()
      .section('preamble', 'Härness rules 🛡', true)
      .section('instructions', 'Ünïcödé', true)
      .state('x', { open: '<s>', close: '</s>' })
      .build({ included: ['a'], elided: [], notice: null });
    expect(py).toEqual(ts);
  });

  test('serve(): decline codes, unknown method, parse error, shutdown ends the loop', async () => {
    const child = spawn('python3', [fromRoot('harnesses', 'examples', 'python', 'example_adapter.py')], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'validate', params: { document: { content: 'a: 1', encoding: 'yaml' } } },
      { jsonrpc: '2.0', id: 2, method: 'apply_delta', params: {} },
      { jsonrpc: '2.0', id: 3, method: 'frobnicate', params: {} },
      { jsonrpc: '2.0', id: 4, method: 'shutdown', params: {} },
    ];
    child.stdin.write(
      `${JSON.stringify(lines[0])}\n${JSON.stringify(lines[1])}\nnot json\n${JSON.stringify(lines[2])}\n${JSON.stringify(lines[3])}\n`,
    );
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    expect(code).toBe(0);
    const got = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: unknown; error?: { code: number } });
    expect(got.map((g) => [g.id, g.error?.code ?? 'ok'])).toEqual([
      [1, RPC_ERROR.SKIPPED],
      [2, RPC_ERROR.NOT_IMPLEMENTED],
      [null, RPC_ERROR.PARSE_ERROR],
      [3, RPC_ERROR.METHOD_NOT_FOUND],
      [4, 'ok'],
    ]);
  });
});

describe('examples pass smoke end to end (through the CLI)', () => {
  // smoke in this process (tests/support/cli.ts), in the package root as the adapter commands are
  // relative to it; the stdio adapters are their own processes.
  const smoke = (spec: string) => runCli(['smoke', '--adapter', spec, '--check-protocol'], { cwd: fromRoot() });
  test.each([
    ['python', 'python3 harnesses/examples/python/example_adapter.py'],
    ['ts over stdio', 'node dist/harnesses/examples/ts/example-adapter.js'],
    ['ts module (compiled .js)', 'harnesses/examples/ts/example-adapter.ts'],
    ['ts builtin', 'builtin:example/ts'],
  ])('%s', async (_, spec) => {
    const { status, stdout } = await smoke(spec);
    expect(stdout).toMatch(/smoke: all 5 steps passed/);
    expect(stdout).toMatch(/✓ instantiate rejected profile by path: rejected: version-major at "\/oap"/);
    expect(status).toBe(0);
  });

  test('a declining starter fails smoke with exit 1 and says why', async () => {
    const { status, stdout } = await runCli(
      [
        'smoke',
        '--adapter',
        "python3 -c \"import sys; sys.path.insert(0, 'sdk/python'); from oap_adapter import Adapter; a = Adapter(); a.method('initialize')(lambda p: {'protocol_version': '1.0', 'implementation': {'name': 'x', 'version': '1', 'language': 'python'}, 'level': 1, 'encodings': ['json'], 'discovery_roots': ['project'], 'unimplemented': []}); a.serve()\"",
      ],
      { cwd: fromRoot() },
    );
    expect(status).toBe(1);
    expect(stdout).toMatch(/✗ validate accepted profile \(json\): declined: not implemented/);
  });
});

describe('RpcError', () => {
  test('answers with its own code over stdio (e.g. UNSUPPORTED_PROTOCOL_VERSION from initialize)', async () => {
    expect(errorFor(new RpcError(RPC_ERROR.UNKNOWN_SESSION, 'no session s-9', { session_id: 's-9' }))).toEqual({
      code: RPC_ERROR.UNKNOWN_SESSION,
      message: 'no session s-9',
      data: { session_id: 's-9' },
    });
    const { input, lines, done } = serve({
      initialize: () => {
        throw new RpcError(RPC_ERROR.UNSUPPORTED_PROTOCOL_VERSION, 'protocol 0.9 only');
      },
    });
    input.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocol_versions: ['1.0'], runner: { name: 'r', version: '1' } } })}\n`,
    );
    input.end();
    await done;
    await new Promise((r) => setImmediate(r));
    expect(lines).toEqual([{ jsonrpc: '2.0', id: 1, error: { code: -32003, message: 'protocol 0.9 only' } }]);
  });
});

/** JSON values with every kind of double and any Unicode text (no lone surrogates: JCS refuses them). */
const jsonValues = fc.jsonValue({ stringUnit: 'grapheme', maxDepth: 3 });

/**
 * The SDKs offer no digests: a harness computes its own, and the runner judges them (L1-I8, L3-G2).
 * The examples are harnesses, so they carry theirs, and adapter authors may copy them: these tests
 * keep them right.
 */
describe("the examples' own canonical JSON and spec digests match the runner's (SPEC 2.2)", () => {
  test('Python example canonical_json = the oracle, including fractional numbers, big integers and non-BMP keys', () => {
    const edge: unknown[] = [
      { temperature: 0.2, max_cost_usd: 2.5, tiny: 1e-7, big: 1e21, exp: 1.5e300, neg: -0.000001, zero: -0 },
      [123456789012345680000, 9007199254740992, 5e-324, 1.7976931348623157e308, 333333333.3333333],
      { '\u{1F600}': 1, '\uFFFF': 2, é: 3, a: [true, false, null, '\u0000\u001f\u007f"\\\u2028'] },
    ];
    const values = [...edge, ...fc.sample(jsonValues, { numRuns: 300, seed: 7 })];
    const script = `
import json, sys
sys.path.insert(0, ${JSON.stringify(fromRoot('harnesses', 'examples', 'python'))})
from example_adapter import canonical_json
for v in json.loads(sys.stdin.read()):
    sys.stdout.write(json.dumps(canonical_json(v)) + "\\n")`;
    const out = execFileSync('python3', ['-B', '-c', script], { input: JSON.stringify(values), encoding: 'utf8' });
    const py = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as string);
    // Compare with the oracle on the value as JSON text carries it (JSON.stringify(-0) is "0").
    const expected = values.map((v) => oracleCanonicalJson(JSON.parse(JSON.stringify(v))));
    expect(py).toEqual(expected);
  });

  test("both examples' spec digests equal the runner's, metadata.revision/updated_at/trust excluded", () => {
    const doc = {
      oap: '1.0',
      kind: 'AgentProfile',
      metadata: { name: 'reviewer', description: 'Reviews code.', revision: 7, updated_at: '2026-01-01T00:00:00Z', trust: 'user' },
      spec: {
        role: { instructions: 'Review Python. Ünïcödé 🛡' },
        model: { temperature: 0.2 },
        runtime: { budgets: { max_cost_usd: 2.5 } },
      },
    };
    const script = `
import json, sys
sys.path.insert(0, ${JSON.stringify(fromRoot('harnesses', 'examples', 'python'))})
from example_adapter import spec_digest
d = json.loads(sys.stdin.read())
print(json.dumps(spec_digest(d)))`;
    const py = JSON.parse(execFileSync('python3', ['-B', '-c', script], { input: JSON.stringify(doc), encoding: 'utf8' })) as string;
    expect(py).toBe(oracleSpecDigest(doc));
    expect(tsExampleSpecDigest(doc)).toBe(oracleSpecDigest(doc));
    expect(tsExampleSpecDigest({ ...doc, metadata: { ...doc.metadata, revision: 8, trust: 'project' } })).toBe(oracleSpecDigest(doc));
    expect(tsExampleSpecDigest({ ...doc, metadata: { ...doc.metadata, description: 'Changed.' } })).not.toBe(oracleSpecDigest(doc));
  });
});

describe('isMain', () => {
  // A script that serves nothing and prints whether the SDK thinks it is the entry point.
  function probe(dir: string, file: string): string {
    mkdirSync(dir, { recursive: true });
    const path = join(dir, file);
    writeFileSync(
      path,
      `import { isMain } from ${JSON.stringify(pathToFileURL(fromRoot('dist', 'sdk', 'ts', 'index.js')).href)};\nconsole.log(isMain(import.meta.url));\n`,
    );
    return path;
  }

  test('true for the entry point through spaces, URL-escaped characters, symlinks and a missing extension; false when imported', () => {
    const root = tempDir('oap-ismain-');
    try {
      const plain = probe(join(root, 'plain'), 'a.mjs');
      const spaced = probe(join(root, 'my adapters %20 #1'), 'adapter.mjs');
      symlinkSync(join(root, 'plain'), join(root, 'link'));
      const run = (args: string[], cwd = root): string => execFileSync(process.execPath, args, { cwd, encoding: 'utf8' }).trim();
      expect(run([plain])).toBe('true');
      expect(run([spaced])).toBe('true');
      expect(run([join(root, 'link', 'a.mjs')])).toBe('true');
      expect(run(['a.mjs'], join(root, 'link'))).toBe('true');
      const importer = join(root, 'plain', 'importer.mjs');
      writeFileSync(importer, `await import(${JSON.stringify(pathToFileURL(plain).href)});\n`);
      expect(run([importer])).toBe('false');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

// ---------------------------------------------------------------- PROTOCOL.md

const PROTOCOL_MD = readFileSync(fromRoot('protocol', 'PROTOCOL.md'), 'utf8');
const ELIDED = '__elided__';

/**
 * An example line as JSON. `…` outside a string abbreviates members or elements (PROTOCOL.md §6:
 * "Examples are abbreviated with …"); it becomes a marker member `"__elided__": true` in an object
 * and a marker element `{"__elided__": true}` in an array. `"sha256:…"` stays a string.
 */
function deElide(text: string): unknown {
  let out = '';
  const stack: string[] = [];
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') stack.push(c);
    else if (c === '}' || c === ']') stack.pop();
    if (c === '…') {
      out += stack[stack.length - 1] === '[' ? `{"${ELIDED}":true}` : `"${ELIDED}":true`;
      continue;
    }
    out += c;
  }
  return JSON.parse(out);
}

/**
 * Schema errors an abbreviation explains: members missing from an object that was abbreviated, the
 * marker itself, and the marker element of an array. A union (anyOf/oneOf) is satisfied when one
 * branch has only such errors. What remains is a real mistake in the example.
 */
function unexplained(errors: ErrorObject[], value: unknown): ErrorObject[] {
  const elided = (pointer: string): boolean => {
    const v = valueAt(value, pointer);
    return v !== null && typeof v === 'object' && ELIDED in v;
  };
  // The marker element of an abbreviated array stands for elements that are not shown.
  const markerElement = (pointer: string): boolean => {
    const parent = parentPointer(pointer);
    return parent !== undefined && Array.isArray(valueAt(value, parent)) && elided(pointer);
  };
  const excused = new Set<ErrorObject>(
    errors.filter(
      (e) =>
        (e.keyword === 'required' && elided(e.instancePath)) ||
        (e.keyword === 'additionalProperties' && (e.params as { additionalProperty?: string }).additionalProperty === ELIDED) ||
        markerElement(e.instancePath),
    ),
  );
  const unions = errors
    .filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf')
    .sort((a, b) => b.schemaPath.length - a.schemaPath.length);
  for (const u of unions) {
    const prefix = `${u.schemaPath}/`;
    const inside = errors.filter((e) => e.schemaPath.startsWith(prefix));
    const branches = new Map<string, ErrorObject[]>();
    for (const e of inside) {
      const branch = e.schemaPath.slice(prefix.length).split('/')[0]!;
      branches.set(branch, [...(branches.get(branch) ?? []), e]);
    }
    if ([...branches.values()].some((es) => es.every((e) => excused.has(e)))) {
      excused.add(u);
      for (const e of inside) excused.add(e);
    }
  }
  return errors.filter((e) => !excused.has(e));
}

describe('PROTOCOL.md', () => {
  const lines = PROTOCOL_MD.split('\n')
    .map((text, i) => ({ line: i + 1, m: /^([→←]) (.*)$/.exec(text) }))
    .filter((l): l is { line: number; m: RegExpExecArray } => l.m !== null);

  test('every example request and response validates against the protocol schemas (allowing for the … abbreviations)', () => {
    expect(lines.length).toBeGreaterThanOrEqual(25);
    const ajv = createAjv({ allErrors: true, strict: false });
    const schemas = new Map<string, ReturnType<typeof ajv.compile>>();
    const validator = (name: string) => {
      if (!schemas.has(name))
        schemas.set(name, ajv.compile(JSON.parse(readFileSync(fromRoot('protocol', 'schema', `${name}.schema.json`), 'utf8')) as object));
      return schemas.get(name)!;
    };
    const problems: string[] = [];
    const methodOf = new Map<unknown, string>();
    for (const { line, m } of lines) {
      let msg: Record<string, unknown>;
      try {
        msg = deElide(m[2]!) as Record<string, unknown>;
      } catch (err) {
        problems.push(`line ${line}: not JSON: ${(err as Error).message}`);
        continue;
      }
      const check = (name: string, value: unknown): void => {
        const v = validator(name);
        if (v(value)) return;
        for (const e of unexplained(v.errors ?? [], value))
          problems.push(`line ${line}: ${name} ${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
      };
      if (m[1] === '→') {
        check('rpc-request', msg);
        methodOf.set(msg.id, msg.method as string);
        check(`${msg.method as string}.params`, msg.params);
      } else {
        check('rpc-response', msg);
        if ('result' in msg) {
          const method = methodOf.get(msg.id);
          if (!method) problems.push(`line ${line}: a result for id ${String(msg.id)} with no request before it`);
          else check(`${method}.result`, msg.result);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  test('the abbreviation check itself catches a wrong example', () => {
    const v = createAjv({ allErrors: true, strict: false }).compile(
      JSON.parse(readFileSync(fromRoot('protocol', 'schema', 'instantiate.result.schema.json'), 'utf8')) as object,
    );
    const good = deElide(
      '{"status":"instantiated","session_id":"s","session":{"name":"a","revision":1,"spec_digest":"sha256:…","trust":"project"},…}',
    );
    const bad = deElide(
      '{"status":"instantiated","session_id":"s","session":{"name":"a","revision":"1","spec_digest":"sha256:…","trust":"home"},…}',
    );
    expect(v(good) || unexplained(v.errors ?? [], good)).toSatisfy((r: unknown) => r === true || (Array.isArray(r) && r.length === 0));
    expect(v(bad)).toBe(false);
    expect(unexplained(v.errors ?? [], bad).length).toBeGreaterThan(0);
  });

  test("the issue categories, section kinds and error codes it lists are the protocol's", () => {
    const categories = /\*\*AdapterIssue\*\*[\s\S]*?`category` is from the shared vocabulary\s*\(([\s\S]*?)\);/.exec(PROTOCOL_MD)?.[1];
    expect([...(categories ?? '').matchAll(/`([a-z-]+)`/g)].map((x) => x[1])).toEqual(IssueCategory.options);
    const kinds = /Kinds: ([\s\S]*?)\(harness material/.exec(PROTOCOL_MD)?.[1];
    expect([...(kinds ?? '').matchAll(/`([a-z]+)`/g)].map((x) => x[1])).toEqual(SectionKind.options);
    const codes = Object.fromEntries([...PROTOCOL_MD.matchAll(/^\| (-32\d{3}) \| ([A-Z_]+) \|/gm)].map((x) => [x[2], Number(x[1])]));
    expect(codes).toEqual({ ...PROTOCOL_RPC_ERROR });
  });
});

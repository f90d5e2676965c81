/**
 * The protocol lets a harness say no: `digest` and `write_back` answer a refusal of the document
 * (`{status: "rejected", errors, warnings}`), distinct from a protocol error; adapters that only
 * answer the old success shapes keep working. A refusal of a valid document is a finding of the ID
 * the case checks (a `fail`, never an `error`); the SDKs of both languages produce it.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { isRefused, methods, PROTOCOL_VERSION, RPC_ERROR } from '../../protocol/messages.js';
import { createReferenceAdapter } from '../../harnesses/reference/index.js';
import { defineAdapter, refused } from '../../sdk/ts/index.js';
import type { InProcessAdapter } from '../../sdk/ts/types.js';
import { InProcessRpc } from '../../runner/engine/in-process-rpc.js';
import { fromRoot } from '../../spec/package-root.js';
import { allCases } from '../../suites/index.js';
import { runSuiteInProcess } from '../support/run-suite.js';

const ISSUE = { category: 'parse', pointer: '', message: 'the harness cannot read this document' } as const;

/** The reference, except that `method` refuses every document (valid ones included). */
function refusing(method: 'digest' | 'write_back'): InProcessAdapter {
  const ref = createReferenceAdapter();
  return {
    handle: (m, params) => (m === method ? Promise.resolve(refused([ISSUE])) : ref.handle(m, params)),
    dispose: () => ref.dispose?.(),
  };
}

describe('refusal outcome of digest and write_back', () => {
  it('is part of the result schema, beside the unchanged success shapes', () => {
    for (const m of ['digest', 'write_back'] as const) {
      const refusal = { status: 'rejected', errors: [ISSUE], warnings: [] };
      expect(methods[m].result.safeParse(refusal).success).toBe(true);
      // At least one error says why; a refusal is not a success shape with extra members.
      expect(methods[m].result.safeParse({ ...refusal, errors: [] }).success).toBe(false);
    }
    expect(methods.digest.result.safeParse({ profile_digest: 'sha256:a', spec_digest: 'sha256:b' }).success).toBe(true);
    expect(methods.write_back.result.safeParse({ path: '/p.agent.yaml' }).success).toBe(true);
    expect(isRefused({ path: '/p' })).toBe(false);
    expect(isRefused(refused([ISSUE]))).toBe(true);
    expect(() => refused([])).toThrow(/at least one error/);
  });

  it('reaches a case as a result, not as a protocol error', async () => {
    const rpc = new InProcessRpc(defineAdapter({ digest: () => refused([ISSUE]), write_back: (p) => ({ path: p.path }) }));
    const d = await rpc.call('digest', { document: { content: 'x', encoding: 'yaml' } });
    expect(isRefused(d) && d.errors).toEqual([ISSUE]);
    // An adapter answering the old success shape is unaffected.
    expect(await rpc.call('write_back', { path: '/w/a.agent.yaml' })).toEqual({ path: '/w/a.agent.yaml' });
  });

  it('the reference refuses a document it cannot read instead of failing the request', async () => {
    const rpc = new InProcessRpc(createReferenceAdapter());
    await rpc.call('initialize', { protocol_versions: [PROTOCOL_VERSION], runner: { name: 't', version: '0' } });
    const d = await rpc.call('digest', { document: { content: '{"oap": "1.0", "x": 1e400}', encoding: 'json' } });
    expect(isRefused(d)).toBe(true);
    const w = await rpc.call('write_back', { path: '/nonexistent/oap-conform/a.agent.yaml' });
    expect(isRefused(w)).toBe(true);
  });

  it.each([
    ['write_back', ['L1-R1', 'L1-R2']],
    ['digest', ['L3-G2']],
  ] as const)('a %s refusal of a valid document fails the case that checks it (%j), never as an error', async (method, ids) => {
    const cases = allCases().filter((c) => c.requirements.some((id) => (ids as readonly string[]).includes(id)));
    const out = await runSuiteInProcess(() => refusing(method), { level: 3, cases });
    expect(out.filter((o) => o.status === 'error' || o.status === 'skipped')).toEqual([]);
    const failed = out.filter((o) => o.status === 'fail');
    expect(failed.length).toBeGreaterThan(0);
    expect([...new Set(failed.flatMap((o) => o.requirements))].sort()).toEqual([...ids].sort());
  });

  it('the Python SDK answers Refuse from digest with the refusal, and from validate with an internal error', async () => {
    const script = `
import sys
sys.path.insert(0, ${JSON.stringify(fromRoot('sdk', 'python'))})
from oap_adapter import Adapter, Refuse, issue
a = Adapter()
@a.method("digest")
def digest(params):
    raise Refuse([issue("parse", "", "the harness cannot read this document")])
@a.method("validate")
def validate(params):
    raise Refuse([issue("parse", "", "wrong method for a refusal")])
a.serve()`;
    const child = spawn('python3', ['-c', script], { stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const send = (id: number, method: string, params: unknown): void =>
      void child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    send(1, 'digest', { document: { content: 'x', encoding: 'yaml' } });
    send(2, 'validate', { document: { content: 'x', encoding: 'yaml' } });
    send(3, 'shutdown', {});
    expect(await new Promise<number | null>((r) => child.once('exit', r))).toBe(0);
    const [digest, validate] = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { result?: unknown; error?: { code: number } });
    expect(methods.digest.result.safeParse(digest?.result).success).toBe(true);
    expect(isRefused(digest?.result as object)).toBe(true);
    expect(validate?.error?.code).toBe(RPC_ERROR.INTERNAL_ERROR);
  });
});

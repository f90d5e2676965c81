import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HandshakeT } from '../../protocol/messages.js';
import { AdapterCrashed, AdapterNotImplemented, AdapterProtocolError, AdapterSkipped, AdapterTimeout } from '../../protocol/errors.js';
import type { Connected } from './connect.js';
import { minimalProfile, permissivePolicy } from '../../suites/support/index.js';
import { Workspace } from '../../suites/kit/workspace.js';
import type { AdapterRpc } from '../../suites/kit/types.js';

/**
 * `oap-conform smoke`: the first thing an adapter author runs. The handshake, then a minimal
 * accepted and a minimal rejected profile through validate and instantiate, each step printed.
 * It judges only the gross shape (accepted is valid and instantiates, rejected is invalid and is
 * refused); the suite judges the rest.
 */
export interface SmokeStep {
  name: string;
  ok: boolean;
  detail: string;
}

const SMOKE_OK_NAME = 'smoke-ok';
const SMOKE_BAD_NAME = 'smoke-bad';

function pickEncoding(hs: HandshakeT): 'json' | 'yaml' | 'md' {
  for (const e of ['json', 'yaml', 'md'] as const) if (hs.encodings.includes(e)) return e;
  return 'yaml';
}

function describeError(err: unknown): string {
  if (err instanceof AdapterNotImplemented) return `declined: not implemented (${err.reason})`;
  if (err instanceof AdapterSkipped) return `declined: skipped (${err.reason})`;
  return err instanceof Error ? err.message : String(err);
}

export async function smokeSteps(rpc: AdapterRpc, hs: HandshakeT, emit: (s: SmokeStep) => void): Promise<SmokeStep[]> {
  const steps: SmokeStep[] = [];
  const push = (s: SmokeStep): void => {
    steps.push(s);
    emit(s);
  };
  const parent = mkdtempSync(join(tmpdir(), 'oap-smoke-'));
  const ws = new Workspace(parent);
  try {
    const encoding = pickEncoding(hs);
    const ext = { json: 'json', yaml: 'yaml', md: 'md' }[encoding];
    const good = ws.writeDocument(ws.projectAgents, `${SMOKE_OK_NAME}.agent.${ext}`, minimalProfile(SMOKE_OK_NAME), encoding);
    // Major version 9 does not exist: every conforming adapter must refuse it (L1-P3).
    const bad = ws.writeDocument(
      join(ws.root, 'elsewhere'),
      `${SMOKE_BAD_NAME}.agent.${ext}`,
      { ...minimalProfile(SMOKE_BAD_NAME), oap: '9.0' },
      encoding,
    );
    const roots = { project: ws.dir };

    const step = async (name: string, run: () => Promise<{ ok: boolean; detail: string }>): Promise<void> => {
      try {
        push({ name, ...(await run()) });
      } catch (err) {
        push({ name, ok: false, detail: describeError(err) });
      }
    };
    await step(`validate accepted profile (${encoding})`, async () => {
      const r = await rpc.call('validate', { document: { path: good } });
      return r.valid && r.errors.length === 0
        ? { ok: true, detail: `valid${r.kind ? `, kind ${r.kind}` : ''}` }
        : {
            ok: false,
            detail: `expected valid, got invalid: ${r.errors.map((e) => `${e.category} at ${JSON.stringify(e.pointer)}`).join('; ')}`,
          };
    });
    await step('validate rejected profile (oap: "9.0")', async () => {
      const r = await rpc.call('validate', { document: { path: bad } });
      if (r.valid) return { ok: false, detail: 'expected invalid, got valid' };
      if (r.errors.length === 0) return { ok: false, detail: 'invalid but no errors reported' };
      return { ok: true, detail: `invalid: ${r.errors.map((e) => `${e.category} at ${JSON.stringify(e.pointer)}`).join('; ')}` };
    });
    await step(`instantiate accepted profile by name`, async () => {
      const r = await rpc.call('instantiate', { workspace: ws.dir, roots, profile: { name: SMOKE_OK_NAME }, policy: permissivePolicy() });
      if (r.status !== 'instantiated')
        return { ok: false, detail: `expected instantiated, got rejected: ${r.errors.map((e) => e.message).join('; ')}` };
      return {
        ok: true,
        detail: `session ${r.session.name} rev ${r.session.revision} trust ${r.session.trust} ${r.session.spec_digest.slice(0, 19)}…, ${r.prompt.sections.length} prompt sections, ${r.effective.tools.length} tools`,
      };
    });
    await step('instantiate rejected profile by path', async () => {
      const r = await rpc.call('instantiate', { workspace: ws.dir, roots, profile: { path: bad }, policy: permissivePolicy() });
      if (r.status !== 'rejected') return { ok: false, detail: 'expected rejected, got instantiated' };
      return { ok: true, detail: `rejected: ${r.errors.map((e) => `${e.category} at ${JSON.stringify(e.pointer)}`).join('; ')}` };
    });
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
  return steps;
}

/**
 * An AdapterRpc over a connection that is replaced after a protocol error, a crash or a hang, so
 * one broken answer is reported once, on the step that caused it, not again as "not JSON" or
 * "crashed" on every later step. `onRestart` hears why, before the next step runs.
 */
export function restartingRpc(
  first: Connected,
  reconnect: () => Promise<Connected>,
  onRestart: (why: string) => void,
): AdapterRpc & { current(): Connected } {
  let conn = first;
  let broken: string | undefined;
  return {
    current: () => conn,
    async call(method, params) {
      if (broken !== undefined) {
        const why = broken;
        broken = undefined;
        await conn.close().catch(() => {});
        conn = await reconnect();
        onRestart(why);
      }
      try {
        return await conn.rpc.call(method, params);
      } catch (err) {
        if (err instanceof AdapterProtocolError || err instanceof AdapterCrashed || err instanceof AdapterTimeout) broken = err.message;
        throw err;
      }
    },
  };
}

import { createHash } from 'node:crypto';
import type { HandshakeT } from '../../adapters/protocol/messages.js';
import {
  AdapterCrashed,
  AdapterNotImplemented,
  AdapterProtocolError,
  AdapterSkipped,
  AdapterTimeout,
} from '../../adapters/protocol/errors.js';
import { CaseNotApplicable, CheckFailure } from './errors.js';
import type { AdapterRpc, CaseContext, CaseDef, CaseOutcome, CaseStatus, KillableAdapter } from './types.js';
import { Workspace } from './workspace.js';

export interface RunCaseOptions {
  adapter: AdapterRpc;
  handshake: HandshakeT;
  runSeed: number;
  keepWorkspace?: boolean;
  workspaceParent?: string;
  spawnAdapter?: () => Promise<KillableAdapter>;
  /** Called with the workspace before the case runs (the engine binds the adapter's env to it). */
  onWorkspace?: (ws: Workspace) => void | Promise<void>;
}

/** Deterministic per-case seed: the same run seed and case ID give the same seed on any machine. */
export function caseSeed(runSeed: number, caseId: string): number {
  return createHash('sha256').update(`${runSeed}:${caseId}`).digest().readUInt32BE(0);
}

/** Is the case applicable to what the adapter says it supports? Returns the reason when not. */
export function unmetNeed(def: CaseDef, handshake: HandshakeT): string | undefined {
  const enc = def.needs?.encodings?.find((e) => !handshake.encodings.includes(e));
  if (enc) return `adapter does not accept the ${enc} encoding`;
  const root = def.needs?.roots?.find((r) => !handshake.discovery_roots.includes(r));
  if (root) return `adapter does not support the ${root} discovery root`;
  return undefined;
}

export function statusOf(err: unknown): { status: CaseStatus; message: string; expected?: unknown; observed?: unknown } {
  if (err instanceof CheckFailure) return { status: 'fail', message: err.message, expected: err.expected, observed: err.observed };
  if (err instanceof AdapterNotImplemented) return { status: 'skipped', message: `adapter: not implemented: ${err.method}: ${err.reason}` };
  if (err instanceof AdapterSkipped) return { status: 'skipped', message: `adapter skipped ${err.method}: ${err.reason}` };
  if (err instanceof AdapterTimeout) return { status: 'timeout', message: err.message };
  if (err instanceof AdapterCrashed) return { status: 'crash', message: err.message };
  if (err instanceof AdapterProtocolError) return { status: 'error', message: `protocol error (${err.code}): ${err.message}` };
  if (err instanceof CaseNotApplicable) return { status: 'not-applicable', message: err.message };
  const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return { status: 'error', message: `check error: ${message}` };
}

export async function runCase(def: CaseDef, opts: RunCaseOptions): Promise<CaseOutcome> {
  const started = performance.now();
  const base = { id: def.id, requirements: def.requirements };
  const unmet = unmetNeed(def, opts.handshake);
  if (unmet) return { ...base, status: 'not-applicable', message: unmet, durationMs: 0 };
  if (def.needs?.process && !opts.spawnAdapter) {
    return { ...base, status: 'not-applicable', message: 'case needs a killable adapter process', durationMs: 0 };
  }
  const workspace = new Workspace(opts.workspaceParent);
  const notes: Record<string, unknown> = {};
  const ctx: CaseContext = {
    adapter: opts.adapter,
    handshake: opts.handshake,
    workspace,
    seed: caseSeed(opts.runSeed, def.id),
    note: (k, v) => {
      notes[k] = v;
    },
    ...(opts.spawnAdapter ? { spawnAdapter: opts.spawnAdapter } : {}),
  };
  try {
    await opts.onWorkspace?.(workspace);
    await def.run(ctx);
    return { ...base, status: 'pass', durationMs: performance.now() - started, ...(Object.keys(notes).length ? { notes } : {}) };
  } catch (err) {
    const s = statusOf(err);
    return {
      ...base,
      ...s,
      durationMs: performance.now() - started,
      ...(def.expectation !== undefined && s.expected === undefined ? { expected: def.expectation } : {}),
      ...(Object.keys(notes).length ? { notes } : {}),
    };
  } finally {
    if (!opts.keepWorkspace) workspace.remove();
  }
}

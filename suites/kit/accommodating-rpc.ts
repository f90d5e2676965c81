/**
 * The adapter as a case sees it: every `apply_delta` a case sends (through the Level 2 helpers, a
 * crash case's spawned process or a fuzz property alike) passes `accommodateDelta` here, so a delta
 * takes the case's accommodations at one place, computed from the profile file it is applied to.
 */
import type { MethodName, Params } from '../../protocol/messages.js';
import { loadDocumentFile, profileDigest, specDigest } from '../../spec/document/index.js';
import { accommodateDelta, type DeltaTarget } from './forms.js';
import type { AdapterRpc, KillableAdapter } from './types.js';

function targetAt(path: string): DeltaTarget {
  const loaded = loadDocumentFile(path);
  const doc = typeof loaded.value === 'object' && loaded.value !== null && !Array.isArray(loaded.value) ? loaded.value : undefined;
  return { doc: doc as Record<string, unknown> | undefined, profileDigest: () => profileDigest(doc), specDigest: () => specDigest(doc) };
}

function accommodated<M extends MethodName>(method: M, params: Params<M>): Params<M> {
  if (method !== 'apply_delta') return params;
  const p = params as Params<'apply_delta'>;
  const delta = accommodateDelta(p.delta, () => targetAt(p.profile_path));
  return (delta === p.delta ? params : { ...p, delta }) as Params<M>;
}

export function accommodatingRpc(rpc: AdapterRpc): AdapterRpc {
  return { call: (method, params) => rpc.call(method, accommodated(method, params)) };
}

export function accommodatingKillable(adapter: KillableAdapter): KillableAdapter {
  return {
    get pid() {
      return adapter.pid;
    },
    call: (method, params) => adapter.call(method, accommodated(method, params)),
    send: (method, params) => adapter.send(method, accommodated(method, params)),
    kill: (signal) => adapter.kill(signal),
    close: () => adapter.close(),
  };
}

/**
 * Memory stores (SPEC §3.7; conformance.md L1-I7, L3-Y1, L3-B1).
 *
 * Reading (INTERPRETATIONS.md#skills-and-stores): `stores` name concrete backends. A store is available when
 * it is the profile's own state (`kind: oap-state`, always there), or when its kind is one the
 * harness implements (the protocol's `memory.store_kinds`) and the harness reports a reachable
 * store of that name and kind (`memory.stores`). Under a parent session a store is available only
 * if the parent has it ("a subagent's effective profile is intersected with the parent's effective
 * profile", §3.8). A store's mode is its own (schema default `read_only`), capped by the effective
 * section mode ("`mode` is the ceiling for the whole section") and, under a parent, by the parent's
 * mode for that store.
 */
import type { EffectiveContractT, HarnessPolicyT } from '../../protocol/messages.js';
import { DEFAULT_MEMORY_MODE, type MemoryMode, minMemoryMode } from './memory.js';

/** A store a profile asks for. */
export interface StoreRequest {
  index: number;
  name: string;
  kind: string;
  mode: MemoryMode;
  required: boolean;
}

const record = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const MODES: readonly unknown[] = ['off', 'read_only', 'read_write'];

/** `spec.memory.stores` of a profile's `spec`. */
export function storesOf(spec: unknown): StoreRequest[] {
  const stores = record(record(spec)['memory'])['stores'];
  if (!Array.isArray(stores)) return [];
  return stores.map((raw, index) => {
    const s = record(raw);
    const mode = MODES.includes(s['mode']) ? (s['mode'] as MemoryMode) : DEFAULT_MEMORY_MODE;
    return { index, name: String(s['name']), kind: String(s['kind']), mode, required: s['required'] === true };
  });
}

/**
 * Why the harness cannot give the session this store, or undefined when it can. `implemented` says
 * whether the harness implements the store's kind (by default: the policy lists it).
 */
export function storeUnavailable(
  store: Pick<StoreRequest, 'name' | 'kind'>,
  policy: Pick<HarnessPolicyT, 'memory'>,
  implemented: boolean = policy.memory.store_kinds.includes(store.kind),
): string | undefined {
  if (store.kind === 'oap-state') return undefined;
  if (!implemented) return `store kind "${store.kind}" is not implemented by this harness`;
  const known = policy.memory.stores.find((s) => s.name === store.name && s.kind === store.kind);
  if (!known?.reachable) return `store "${store.name}" (${store.kind}) cannot be reached`;
  return undefined;
}

/** The most a store may get: its own mode, capped by the section's and, under a parent, the parent's store. */
export function storeModeBound(
  store: Pick<StoreRequest, 'name' | 'mode'>,
  sectionMode: MemoryMode,
  parent?: EffectiveContractT['memory'] | undefined,
): MemoryMode | undefined {
  if (parent === undefined) return minMemoryMode(store.mode, sectionMode);
  const inParent = parent.stores.find((s) => s.name === store.name);
  return inParent ? minMemoryMode(store.mode, sectionMode, inParent.mode) : undefined;
}

/**
 * The `extends` merge (SPEC §4; conformance.md L3-E1, L3-E2).
 *
 * Reading (INTERPRETATIONS.md, L3-E1): bases are merged left to right, then the child: objects
 * deep-merge with the later layer's keys winning (rule 1), arrays and scalars replace wholesale
 * (rule 2), an explicit `null` deletes the key (rule 3). Identity (`metadata.name`, `id`,
 * `revision`, `trust`) and learned material (`state`, `history`) never come from a base: the child's
 * own are set afterwards, so a base cannot supply them even when the child omits them. A `null`
 * that reaches a place with no base value has nothing to delete and is dropped. The narrowing rule
 * then applies to the merged result (rule 7), which `composeProfile` gives for a whole chain.
 */
import { withoutNullMembers } from '../document/validate.js';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * One value of the merge: `child` over `base`. `member` merges one member of two objects (this
 * function by default), so a caller that wants its own step at every depth passes it.
 */
export function mergeValue(base: unknown, child: unknown, member: (base: unknown, child: unknown) => unknown = mergeValue): unknown {
  if (child === undefined) return structuredClone(base);
  if (!isObject(base) || !isObject(child)) return structuredClone(child);
  const out: Json = structuredClone(base);
  for (const [k, v] of Object.entries(child)) {
    if (v === null) delete out[k];
    else out[k] = member(out[k], v);
  }
  return out;
}

/** What a base contributes to a merge: everything but its identity, its learned material and its own `extends`. */
export function inheritedPart(base: Json): Json {
  const out = structuredClone(base);
  delete out['state'];
  delete out['history'];
  delete out['extends'];
  const meta = out['metadata'];
  if (isObject(meta)) {
    delete meta['name'];
    delete meta['id'];
    delete meta['revision'];
    delete meta['trust'];
  }
  return out;
}

/** The two steps of a merge, for a caller that makes them its own decisions. */
export interface MergeSteps {
  mergeValue(base: unknown, child: unknown): unknown;
  inheritedPart(base: Json): Json;
}

const SPEC_STEPS: MergeSteps = { mergeValue: (b, c) => mergeValue(b, c), inheritedPart };

/** The bases (each already merged with its own bases), then the child: the merged document. */
export function mergeLayers(bases: readonly Json[], child: Json, steps: MergeSteps = SPEC_STEPS): Json {
  let acc: unknown = {};
  for (const b of bases) acc = steps.mergeValue(acc, steps.inheritedPart(b));
  const childBody = structuredClone(child);
  delete childBody['extends'];
  const merged = withoutNullMembers(steps.mergeValue(acc, childBody)) as Json;
  if (!isObject(merged['metadata'])) merged['metadata'] = {};
  const meta = merged['metadata'] as Json;
  const childMeta = isObject(child['metadata']) ? child['metadata'] : {};
  for (const k of ['name', 'id', 'revision'] as const) {
    if (childMeta[k] !== undefined && childMeta[k] !== null) meta[k] = structuredClone(childMeta[k]);
    else delete meta[k];
  }
  for (const k of ['state', 'history'] as const) {
    if (child[k] !== undefined && child[k] !== null) merged[k] = structuredClone(child[k]);
  }
  return merged;
}

/**
 * A profile with its whole `extends` chain merged, the bases found by name in `byName`. The chain
 * must be one the spec accepts (no cycle, no missing base, at most 8 links): L3-E1 judges those
 * refusals, and this function throws on them.
 */
export function composeProfile(doc: Json, byName: (name: string) => Json | undefined, seen: readonly string[] = []): Json {
  const refs = Array.isArray(doc['extends']) ? (doc['extends'] as unknown[]) : [];
  if (refs.length === 0) return structuredClone(doc);
  if (seen.length >= 8) throw new Error('extends chain deeper than 8');
  const bases = refs.map((ref) => {
    const name = String(isObject(ref) ? ref['name'] : ref);
    const base = byName(name);
    if (base === undefined || seen.includes(name)) throw new Error(`extends base ${name} is missing or on a cycle`);
    return composeProfile(base, byName, [...seen, name]);
  });
  return mergeLayers(bases, doc);
}

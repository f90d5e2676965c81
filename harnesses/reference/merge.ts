/**
 * The `extends` merge (SPEC §4): objects deep-merge with the child's keys winning, arrays replace
 * wholesale, an explicit null deletes the key. Identity (`metadata.name`, `id`, `revision`) and
 * learned material (`state`, `history`) never come from a base.
 */
import { isObject, type JsonObject } from './document.js';
import { withoutNullMembers } from '../../spec/document/index.js';
import type { Quirks } from './quirks.js';

/** Nesting level below which the `extends-nested-objects-replaced` mutant stops merging (document = 0, spec = 1, spec.role = 2). */
const MUTANT_MERGE_DEPTH = 3;

function deepMerge(base: unknown, child: unknown, quirks: Quirks, depth = 0): unknown {
  if (child === undefined) return structuredClone(base);
  if (isObject(base) && isObject(child) && !(quirks.has('extends-nested-objects-replaced') && depth >= MUTANT_MERGE_DEPTH)) {
    const out: JsonObject = structuredClone(base);
    for (const [k, v] of Object.entries(child)) {
      if (v === null) {
        // The L3-E1 mutant reads null as "no value here" and keeps the inherited one.
        if (!quirks.has('null-not-deleting')) delete out[k];
        continue;
      }
      out[k] = deepMerge(out[k], v, quirks, depth + 1);
    }
    return out;
  }
  if (Array.isArray(base) && Array.isArray(child) && quirks.has('array-concat-extends')) {
    return [...structuredClone(base), ...structuredClone(child)];
  }
  return structuredClone(child);
}

/** What a base contributes: everything except identity and learned material. */
function inheritablePart(base: JsonObject, quirks?: Quirks): JsonObject {
  const out = structuredClone(base);
  // The L3-E1 mutant lets a base's learned material (state, history) flow into its children.
  if (!quirks?.has('extends-inherits-state')) {
    delete out['state'];
    delete out['history'];
  }
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

/**
 * Merge the bases (already merged with their own bases, left to right) and then the child. The
 * child's identity and learned material are set from the child alone afterwards, so a base can
 * never supply them even when the child omits them.
 */
export function mergeLayers(bases: JsonObject[], child: JsonObject, quirks: Quirks): JsonObject {
  let acc: unknown = {};
  for (const b of bases) acc = deepMerge(acc, inheritablePart(b, quirks), quirks);
  const childBody = structuredClone(child);
  delete childBody['extends'];
  let merged = deepMerge(acc, childBody, quirks) as JsonObject;
  // A null that reached a position with no base value has nothing to delete; it is dropped too.
  merged = withoutNullMembers(merged) as JsonObject;
  if (!isObject(merged['metadata'])) merged['metadata'] = {};
  const meta = merged['metadata'] as JsonObject;
  const childMeta = isObject(child['metadata']) ? child['metadata'] : {};
  for (const k of ['name', 'id', 'revision'] as const) {
    if (childMeta[k] !== undefined && childMeta[k] !== null) meta[k] = structuredClone(childMeta[k]);
    else delete meta[k];
  }
  for (const k of ['state', 'history'] as const) {
    if (child[k] !== undefined && child[k] !== null) merged[k] = structuredClone(child[k]);
    else if (!quirks.has('extends-inherits-state')) delete merged[k];
  }
  return merged;
}

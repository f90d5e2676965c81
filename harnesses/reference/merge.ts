/**
 * The `extends` merge (SPEC §4): objects deep-merge with the child's keys winning, arrays replace
 * wholesale, an explicit null deletes the key (the mergeValue rule). Identity (`metadata.name`,
 * `id`, `revision`) and learned material (`state`, `history`) never come from a base (the
 * inheritedPart rule).
 */
import { withoutNullMembers } from '../../spec/document/index.js';
import { isObject, type JsonObject } from './json.js';
import type { Rules } from './rules.js';

/**
 * Merge the bases (already merged with their own bases, left to right) and then the child. The
 * child's identity and learned material are set from the child alone afterwards, so a base can
 * never supply them even when the child omits them.
 */
export function mergeLayers(bases: JsonObject[], child: JsonObject, rules: Rules): JsonObject {
  let acc: unknown = {};
  for (const b of bases) acc = rules.mergeValue(acc, rules.inheritedPart(b), 0, rules);
  const childBody = structuredClone(child);
  delete childBody['extends'];
  let merged = rules.mergeValue(acc, childBody, 0, rules) as JsonObject;
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
  }
  return merged;
}

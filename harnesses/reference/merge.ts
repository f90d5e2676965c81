/**
 * The `extends` merge (SPEC §4): objects deep-merge with the child's keys winning, arrays replace
 * wholesale, an explicit null deletes the key (the mergeValue rule). Identity (`metadata.name`,
 * `id`, `revision`) and learned material (`state`, `history`) never come from a base (the
 * inheritedPart rule).
 */
import { mergeLayers as specMergeLayers } from '../../spec/semantics/index.js';
import type { JsonObject } from './json.js';
import type { Rules } from './rules.js';

/**
 * Merge the bases (already merged with their own bases, left to right) and then the child, by the
 * spec model's merge (spec/semantics/merge.ts) with the table's mergeValue and inheritedPart as its
 * steps. The child's identity and learned material are set from the child alone afterwards, so a
 * base can never supply them even when the child omits them.
 */
export function mergeLayers(bases: JsonObject[], child: JsonObject, rules: Rules): JsonObject {
  return specMergeLayers(bases, child, {
    mergeValue: (base, value) => rules.mergeValue(base, value, 0, rules),
    inheritedPart: (base) => rules.inheritedPart(base),
  });
}

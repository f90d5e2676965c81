/**
 * A rule's answer together with why it came out that way. Reasons are one short sentence each, in
 * the order the rule applied them, so a case (L1-I9 in particular) can report them and a reference
 * harness can turn them into adjustments without deciding anything itself.
 */
export interface Reasoned<T> {
  value: T;
  reasons: string[];
}

/**
 * System prompt assembly order (SPEC §3.2; conformance.md L1-I1, L2-S1).
 *
 * Reading (INTERPRETATIONS.md#prompt-order): "A conforming harness MUST
 * assemble the system prompt in this order": preamble 1, instructions 2, objectives 3, persona 4,
 * constraints 5, examples 6, state 7, postamble 8. "A harness MAY insert its own material between
 * these steps but MUST NOT reorder them", so `harness` sections may appear anywhere and steps may
 * be absent (the optional ones, and a harness without preamble or postamble); what may never
 * happen is a section of a later step before a section of an earlier one.
 */

export const PROMPT_ORDER = {
  preamble: 1,
  instructions: 2,
  objectives: 3,
  persona: 4,
  constraints: 5,
  examples: 6,
  state: 7,
  postamble: 8,
} as const;

export type OrderedSectionKind = keyof typeof PROMPT_ORDER;

/** The step of a section kind, or undefined for `harness` (and anything unknown). */
export function promptStep(kind: string): number | undefined {
  return Object.hasOwn(PROMPT_ORDER, kind) ? PROMPT_ORDER[kind as OrderedSectionKind] : undefined;
}

export interface OrderViolation {
  /** Index (in the given list) of the earlier section, whose step is later. */
  before: number;
  /** Index of the later section, whose step is earlier. */
  after: number;
  /** Their kinds: `kinds[before]` must not precede `kinds[after]`. */
  kinds: [string, string];
}

/** Every pair of sections (by text order) in reverse step order; harness sections are ignored. */
export function orderViolations(sectionKinds: readonly string[]): OrderViolation[] {
  const out: OrderViolation[] = [];
  sectionKinds.forEach((kind, after) => {
    const step = promptStep(kind);
    if (step === undefined) return;
    for (let before = 0; before < after; before++) {
      const earlier = promptStep(sectionKinds[before]!);
      if (earlier !== undefined && earlier > step) out.push({ before, after, kinds: [sectionKinds[before]!, kind] });
    }
  });
  return out;
}

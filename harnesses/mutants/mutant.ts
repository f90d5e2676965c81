/**
 * A mutant is the reference harness's table of rules with exactly one rule replaced by the bug an
 * implementer would write there, usually by wrapping the reference's rule. `mutant()` is the only
 * way to make one, so a mutant cannot replace two rules; tests/reference/mutants.test.ts checks that
 * its table differs from the reference's in exactly that rule.
 */
import { REFERENCE_RULES, type RuleName, type Rules } from '../reference/index.js';

export interface Mutant {
  name: string;
  /** The one rule this mutant replaces. */
  rule: RuleName;
  breaks: string[];
  description: string;
  /** The deviation shows only when the mutant runs as its own process (it acts on its process environment). */
  asProcess?: true;
  /**
   * The suite has no case yet that catches this mutant: what it waits for. The sweep holds such a
   * mutant to failing nothing beyond its IDs and to not yet failing exactly them; once a case
   * catches it the mark must go (the awaiting mutants only ever get fewer).
   */
  awaiting?: string;
  /** The reference's rules with `rule` replaced. */
  rules: Readonly<Rules>;
}

export function mutant<K extends RuleName>(
  name: string,
  rule: K,
  override: (reference: Rules[K]) => Rules[K],
  breaks: string[],
  description: string,
): Mutant {
  const rules = Object.freeze({ ...REFERENCE_RULES, [rule]: override(REFERENCE_RULES[rule]) } as Rules);
  return { name, rule, breaks, description, rules };
}

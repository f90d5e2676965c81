/**
 * The leading comment of an upstream negative fixture names the rule it violates in prose. We map
 * a few keywords to the shared issue categories and to the requirement the rule belongs to. The
 * mapping is a best effort over free text, so a mismatch between the named rule and the adapter's
 * reported category is recorded as a note, never a failure (see INTERPRETATIONS.md, Level 1).
 */
export interface NamedRule {
  category: string;
  requirement: string;
  /** The rule can only be judged with a workspace and policy (resolve time), not by validate alone. */
  resolveTime: boolean;
}

const PROFILE_RULES: Array<{ test: RegExp; rule: NamedRule }> = [
  { test: /literal|secret|credential|api key|token/i, rule: { category: 'secret-literal', requirement: 'L1-I6', resolveTime: false } },
  {
    test: /travers|escap|outside (the )?workspace|absolute path|\.\.\//i,
    rule: { category: 'path-escape', requirement: 'L1-I5', resolveTime: true },
  },
  { test: /major/i, rule: { category: 'version-major', requirement: 'L1-P3', resolveTime: false } },
  { test: /minor/i, rule: { category: 'version-minor', requirement: 'L1-P4', resolveTime: false } },
  { test: /\bkind\b|bundle|profileindex/i, rule: { category: 'kind', requirement: 'L1-P5', resolveTime: false } },
  { test: /frontmatter|markdown/i, rule: { category: 'encoding', requirement: 'L3-G1', resolveTime: false } },
  { test: /cycle/i, rule: { category: 'extends-cycle', requirement: 'L3-E1', resolveTime: true } },
  { test: /depth/i, rule: { category: 'extends-depth', requirement: 'L3-E1', resolveTime: true } },
  { test: /digest|pinn/i, rule: { category: 'digest-mismatch', requirement: 'L3-G2', resolveTime: true } },
  { test: /skill/i, rule: { category: 'skill-missing', requirement: 'L1-I7', resolveTime: true } },
  { test: /variable|vars\./i, rule: { category: 'variable-undefined', requirement: 'L1-P2', resolveTime: true } },
  { test: /version/i, rule: { category: 'version-major', requirement: 'L1-P3', resolveTime: false } },
];

const SCHEMA_RULE: NamedRule = { category: 'schema', requirement: 'L1-P2', resolveTime: false };

/** The rule a negative profile fixture's comment names; schema validation when nothing more specific matches. */
export function namedProfileRule(comment: string): NamedRule {
  return PROFILE_RULES.find((r) => r.test.test(comment))?.rule ?? SCHEMA_RULE;
}

/** The rule a negative delta fixture's comment names. */
export function namedDeltaRule(comment: string): NamedRule {
  if (/outside\s*\/?state|\/spec|\/metadata|scope/i.test(comment))
    return { category: 'delta-scope', requirement: 'L2-A2', resolveTime: false };
  if (/\b(move|copy|test)\b|reserved/i.test(comment)) return { category: 'delta-reserved-op', requirement: 'L2-A1', resolveTime: false };
  return { category: 'schema', requirement: 'L2-A1', resolveTime: false };
}

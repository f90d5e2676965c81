/**
 * Budgets (SPEC §3.6, §3.8, §7.2 "cost budgets"; conformance.md L1-I3 "budgets").
 *
 * Reading (INTERPRETATIONS.md#budgets): each budget is a limit that
 * narrows like everything else, so the effective limit is the smaller of the profile's and the
 * ceiling's, and a side that sets none does not bound it (`null` = unbounded). **0 is a limit of
 * zero, never "unlimited"**: the schema allows 0 for `max_tool_calls`, `max_state_tokens` and
 * `max_state_bytes` (`minimum: 0`) and says nothing of 0 meaning "no limit", so a profile asking
 * for 0 tool calls gets none. Where each budget comes from: `spec.runtime` bounds a session
 * ("turns, tool calls, wall clock, cost", §3.8) and `spec.context.budget` caps context spend
 * (§3.6).
 */

const RUNTIME_BUDGET_KEYS = ['max_turns', 'max_tool_calls', 'timeout_seconds', 'max_cost_usd'] as const;
const CONTEXT_BUDGET_KEYS = ['max_context_tokens', 'max_state_tokens', 'max_state_bytes'] as const;
export const BUDGET_KEYS = [...RUNTIME_BUDGET_KEYS, ...CONTEXT_BUDGET_KEYS] as const;
export type BudgetKey = (typeof BUDGET_KEYS)[number];

/** A budget nobody bounds. */
const UNBOUNDED = null;
export type Budget = number | typeof UNBOUNDED;

/** The schema's own upper bound, where it has one (agent-profile.schema.json). */
export const BUDGET_SCHEMA_MAXIMUM: Partial<Record<BudgetKey, number>> = { max_state_bytes: 5_000_000 };

/** The section of `spec` a budget is read from. */
export function budgetSection(key: BudgetKey): 'runtime' | 'context.budget' {
  return (RUNTIME_BUDGET_KEYS as readonly string[]).includes(key) ? 'runtime' : 'context.budget';
}

/** Where in a profile a budget is requested, as a JSON Pointer. */
export function budgetPointer(key: BudgetKey): string {
  return budgetSection(key) === 'runtime' ? `/spec/runtime/${key}` : `/spec/context/budget/${key}`;
}

const record = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** The budgets a profile's `spec` requests (numbers only; anything else requests nothing). */
export function profileBudgets(spec: unknown): Partial<Record<BudgetKey, number>> {
  const s = record(spec);
  const runtime = record(s['runtime']);
  const budget = record(record(s['context'])['budget']);
  const out: Partial<Record<BudgetKey, number>> = {};
  for (const key of BUDGET_KEYS) {
    const v = (budgetSection(key) === 'runtime' ? runtime : budget)[key];
    if (typeof v === 'number') out[key] = v;
  }
  return out;
}

/** The smaller defined limit; unbounded only when neither side sets one. 0 is a limit. */
export function minBudget(a: number | null | undefined, b: number | null | undefined): Budget {
  if (a === undefined || a === null) return b ?? UNBOUNDED;
  if (b === undefined || b === null) return a;
  return Math.min(a, b);
}

/** `value` is no looser than `ceiling` (an unbounded ceiling bounds nothing; an unbounded value exceeds every limit). */
export function budgetAtMost(value: Budget, ceiling: Budget | undefined): boolean {
  if (ceiling === undefined || ceiling === UNBOUNDED) return true;
  return value !== UNBOUNDED && value <= ceiling;
}

import { describe, expect, it } from 'vitest';
import {
  type Budget,
  BUDGET_KEYS,
  BUDGET_SCHEMA_MAXIMUM,
  budgetAtMost,
  budgetPointer,
  minBudget,
  profileBudgets,
} from '../../../spec/semantics/index.js';

describe('minBudget (SPEC §7.2 "cost budgets"; INTERPRETATIONS.md, budgets)', () => {
  it.each([
    [50, 20, 20, 'L1-I3: the smaller limit'],
    [undefined, 600, 600, 'profile silent: the policy limit'],
    [10, undefined, 10, 'policy silent: the profile limit'],
    [undefined, undefined, null, 'neither: unbounded'],
    [null, 5, 5, 'null is unbounded, not zero'],
    [0, 100, 0, '0 is a limit of zero, never unlimited'],
    [100, 0, 0, '0 on the policy side too'],
    [0, undefined, 0, '0 alone'],
    [1, 0, 0, 'edge: 1 vs 0'],
    [1, 1, 1, 'edge: 1'],
    [5_000_000, 4_999_999, 4_999_999, 'schema maximum of max_state_bytes'],
    [5_000_000, undefined, 5_000_000, 'schema maximum alone'],
  ] as Array<[number | null | undefined, number | null | undefined, Budget, string]>)('minBudget(%s, %s) = %s (%s)', (a, b, want) =>
    expect(minBudget(a, b)).toBe(want),
  );

  it('the schema bounds max_state_bytes at 5000000', () => expect(BUDGET_SCHEMA_MAXIMUM.max_state_bytes).toBe(5_000_000));
});

describe('budgetAtMost (SPEC §7.2)', () => {
  it.each([
    [5, 10, true, 'below the ceiling'],
    [10, 10, true, 'at the ceiling'],
    [11, 10, false, 'above'],
    [null, 10, false, 'unbounded exceeds every limit'],
    [null, null, true, 'unbounded under unbounded'],
    [0, 0, true, 'zero under zero'],
    [1, 0, false, 'a zero ceiling allows nothing more'],
    [5, undefined, true, 'no ceiling'],
  ] as Array<[Budget, Budget | undefined, boolean, string]>)('budgetAtMost(%s, %s) = %s (%s)', (v, c, want) =>
    expect(budgetAtMost(v, c)).toBe(want),
  );
});

describe('where budgets come from (SPEC §3.6 context.budget, §3.8 runtime)', () => {
  it('reads runtime and context.budget, numbers only, 0 kept', () => {
    expect(
      profileBudgets({
        runtime: { max_turns: 50, max_tool_calls: 0, timeout_seconds: 'x', max_cost_usd: 2.5 },
        context: { budget: { max_context_tokens: 1, max_state_tokens: 0, max_state_bytes: 5_000_000 } },
      }),
    ).toEqual({
      max_turns: 50,
      max_tool_calls: 0,
      max_cost_usd: 2.5,
      max_context_tokens: 1,
      max_state_tokens: 0,
      max_state_bytes: 5_000_000,
    });
  });

  it.each(BUDGET_KEYS.map((k) => [k]))('%s has a pointer in its section', (k) => {
    expect(budgetPointer(k)).toMatch(
      k.startsWith('max_context') || k.startsWith('max_state') ? /^\/spec\/context\/budget\// : /^\/spec\/runtime\//,
    );
  });
});

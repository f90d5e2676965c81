/**
 * Boundary catalogue of the seven budgets (rule: ./budget.ts minBudget, budgetAtMost; SPEC §3.6,
 * §3.8, §7.2; L1-I3, L3-B1, L3-E1). One dimension per budget, all derived from one partition:
 * the schema's own bounds (written here and checked against spec/document/schema-bounds.ts by
 * tests/spec/catalogue.test.ts) and the integer extremes a reader can get wrong.
 */
import { type Dimension, dimension, sampleRange } from './catalogue-model.js';
import { BUDGET_KEYS, type BudgetKey, budgetPointer } from './budget.js';

/** The schema's bounds of each budget (agent-profile.schema.json). */
const SCHEMA: Readonly<Record<BudgetKey, { min: number; exclusive?: boolean; max?: number; integer: boolean }>> = {
  max_turns: { min: 1, integer: true },
  max_tool_calls: { min: 0, integer: true },
  timeout_seconds: { min: 1, integer: true },
  max_cost_usd: { min: 0, exclusive: true, integer: false },
  max_context_tokens: { min: 1, integer: true },
  max_state_tokens: { min: 0, integer: true },
  max_state_bytes: { min: 0, max: 5_000_000, integer: true },
};

/** Seeds of the range classes, one per budget, written down so every run draws the same values. */
const RANGE_SEED: Readonly<Record<BudgetKey, number>> = {
  max_turns: 0x1b01,
  max_tool_calls: 0x1b02,
  timeout_seconds: 0x1b03,
  max_cost_usd: 0x1b04,
  max_context_tokens: 0x1b05,
  max_state_tokens: 0x1b06,
  max_state_bytes: 0x1b07,
};

function budgetDimension(key: BudgetKey): Dimension {
  const ptr = budgetPointer(key);
  const p = `profile:${ptr}`;
  const q = `policy:/budgets/${key}`;
  const b = SCHEMA[key];
  const lowest = b.exclusive ? Number.MIN_VALUE : b.min;
  const top = b.max ?? 2 ** 31 - 1;
  const [r1, r2, r3] = sampleRange(RANGE_SEED[key], 3, Math.ceil(lowest) + 1, Math.min(top, 2 ** 31 - 1) - 1) as [number, number, number];
  return dimension({
    id: `budgets.${key}`,
    title: `The effective ${key}: the smaller limit, 0 a limit, null unbounded`,
    rule: 'spec/semantics/budget.ts minBudget',
    requirements: ['L1-I3', 'L3-B1', 'L3-E1'],
    reads: { profile: [ptr], policy: [`/budgets/${key}`], parent: [`/budgets/${key}`], base: [ptr] },
    meets: ['profile-policy', 'parent-child', 'base-derived'],
    families: {
      presence: [
        {
          slug: 'neither-side',
          description: 'no limit on either side',
          values: [{ [p]: undefined, [q]: undefined }],
          predicts: 'null (unbounded)',
          next: ['profile-only', 'policy-only'],
        },
        {
          slug: 'profile-only',
          description: 'only the profile sets a limit',
          values: [{ [p]: r1, [q]: undefined }],
          predicts: "at most the profile's limit (never unbounded)",
        },
        {
          slug: 'policy-only',
          description: 'only the policy sets a limit',
          values: [{ [p]: undefined, [q]: r2 }],
          predicts: "at most the policy's limit",
        },
      ],
      numeric: [
        ...(b.min === 0 && !b.exclusive
          ? [
              {
                slug: 'zero-profile',
                description: 'the profile asks for 0',
                values: [
                  { [p]: 0, [q]: 100 },
                  { [p]: 0, [q]: undefined },
                ],
                predicts: '0: a limit of zero, never "no limit"',
                next: ['zero-policy', 'one'],
              },
            ]
          : [
              {
                slug: 'below-schema-minimum',
                description: b.exclusive ? 'the profile asks for 0 (exclusiveMinimum 0)' : `the profile asks for ${b.min - 1}`,
                values: [{ [p]: b.exclusive ? 0 : b.min - 1 }],
                predicts: 'schema-invalid: refused, L1-P2',
                schemaInvalid: true,
                exclusion: 'a grammar bound, generated from spec/document/schema-bounds.ts',
              },
            ]),
        {
          slug: 'zero-policy',
          description: 'the policy sets 0 (the protocol admits it for every budget)',
          values: [
            { [p]: b.exclusive ? 1 : b.min + 1, [q]: 0 },
            { [p]: undefined, [q]: 0 },
          ],
          predicts: '0',
        },
        {
          slug: 'one',
          description: 'the smallest positive limit on one side',
          values: [
            { [p]: 1, [q]: 2 },
            { [p]: 2, [q]: 1 },
          ],
          predicts: '1',
        },
        {
          slug: 'range',
          description: `limits strictly inside (seed ${RANGE_SEED[key]})`,
          values: [
            { [p]: r1, [q]: r2 },
            { [p]: r3, [q]: r1 },
          ],
          predicts: 'the smaller of the two',
        },
        ...(b.max !== undefined
          ? [
              {
                slug: 'schema-maximum',
                description: `the schema maximum ${b.max}, and one past it`,
                values: [{ [p]: b.max, [q]: undefined }],
                predicts: `${b.max} (one past, ${b.max + 1}, is schema-invalid)`,
              },
            ]
          : [
              {
                slug: 'int32-edge',
                description: '2^31 - 1, 2^31 and 2^32 on either side',
                values: [
                  { [p]: 2 ** 31, [q]: 2 ** 32 },
                  { [p]: 2 ** 31 - 1, [q]: undefined },
                  { [p]: undefined, [q]: 2 ** 31 },
                ],
                predicts: 'never larger than the smaller limit and never unbounded (a 32-bit wrap to a "no limit" sentinel fails)',
              },
              {
                slug: 'largest-exact-integer',
                description: '2^53 - 1, the largest integer every JSON reader carries exactly',
                values: [{ [p]: 2 ** 53 - 1, [q]: undefined }],
                predicts: '2^53 - 1 (never unbounded, never rounded up)',
              },
            ]),
        ...(b.integer
          ? [
              {
                slug: 'fraction',
                description: 'a fractional value for an integer budget, and 1.0',
                values: [{ [p]: 2.5 }],
                predicts: '2.5 is schema-invalid; `1.0` in JSON text is the integer 1',
                schemaInvalid: true,
                exclusion: 'type, not a bound: JSON Schema `integer` admits 1.0 and refuses 2.5 (L1-P2)',
              },
            ]
          : [
              {
                slug: 'tiny-cost',
                description: 'the smallest positive double, and a cent',
                values: [
                  { [p]: Number.MIN_VALUE, [q]: 0.01 },
                  { [p]: 0.01, [q]: 0.001 },
                ],
                predicts: 'the smaller of the two, compared as numbers',
              },
            ]),
        {
          slug: 'negative-policy',
          description: "a negative policy limit (the protocol's integer admits it)",
          values: [{ [p]: undefined, [q]: -1 }],
          predicts: "no reading: a policy is the harness's own; the runner never sends one",
          exclusion: 'the spec has no negative budget; a -1 "no limit" sentinel would be the harness\'s own convention',
        },
      ],
      text: "budgets are numbers; `1e3` and `1000` are the same JSON number after parsing (the parser's question)",
      separators: 'budgets are numbers',
      wildcards: 'budgets are numbers',
      escaping: 'budgets are numbers',
      duplicates: [
        {
          slug: 'equal-limits',
          description: 'the same limit on both sides',
          values: [{ [p]: r1, [q]: r1 }],
          predicts: 'that limit',
        },
      ],
      order: [
        {
          slug: 'profile-above-policy',
          description: 'the profile asks for more than the policy allows',
          values: [{ [p]: r2 + 1, [q]: r2 }],
          predicts: "the policy's limit, with an adjustment recorded (L1-I9)",
        },
      ],
      links: [
        {
          slug: 'parent-budget-caps-child',
          description: 'a child asking for more than the parent got',
          values: [{ [`parent:/budgets/${key}`]: 1, [p]: r3, [q]: undefined }],
          predicts: "at most the parent's limit (L3-B1)",
        },
        {
          slug: 'derived-deletes-base-limit',
          description: 'the base sets a limit, the derived layer deletes it with null',
          values: [{ [`base:${ptr}`]: 1, [p]: null, [q]: undefined }],
          predicts: "unbounded request after the merge; the effective limit is the policy's (here none) or stricter",
        },
      ],
    },
  });
}

export const BUDGET_CATALOGUE: readonly Dimension[] = BUDGET_KEYS.map(budgetDimension);

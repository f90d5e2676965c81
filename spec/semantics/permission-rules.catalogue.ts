/**
 * Boundary catalogue of permission rules (`spec.permissions.rules`, the policy's `rules`; rule:
 * ./permission-rules.ts). The judge of the whole contract holds the effective rules call by call
 * to the more restrictive of what the ceiling and the profile decide (SPEC §3.5 "`rules` are
 * evaluated in order, first match wins, and are themselves subject to the narrowing rule"; L1-I3).
 */
import { type Dimension, dimension } from './catalogue-model.js';

const r = 'profile:/spec/permissions/rules';
const qr = 'policy:/permissions/rules';

export const PERMISSION_RULES_CATALOGUE: readonly Dimension[] = [
  dimension({
    id: 'permissions.rules',
    title: 'Profile and policy permission rules, first match wins',
    rule: 'spec/semantics/permission-rules.ts callDecision, mostForCall, effectiveRules',
    requirements: ['L1-I3', 'L3-B1'],
    reads: {
      profile: ['/spec/permissions/rules', '/spec/permissions/shell'],
      policy: ['/permissions/rules', '/permissions/shell'],
      parent: ['/rules'],
    },
    meets: ['profile-policy', 'parent-child'],
    families: {
      presence: [
        {
          slug: 'defaults-star',
          description: 'a rule with only `decision` (tool, action, target default to `*`)',
          values: [{ [r]: [{ decision: 'allow' }], 'policy:/permissions/shell': 'deny' }],
          predicts: "matches every call; cannot lift shell above the policy's deny",
        },
        {
          slug: 'empty-list',
          description: '`rules: []` next to no rules',
          values: [{ [r]: [] }, { [r]: undefined }],
          predicts: 'no rule: the category decisions decide',
        },
      ],
      numeric: "rules hold strings and a decision; the list bound is the grammar catalogue's",
      text: [
        {
          slug: 'tool-case',
          description: 'a rule for `Shell`',
          values: [{ [r]: [{ tool: 'Shell', decision: 'allow' }], 'policy:/permissions/shell': 'ask' }],
          predicts: 'matches no tool (exact names); shell stays ask',
        },
      ],
      separators: [
        {
          slug: 'target-path',
          description: 'a target `src/` and `src/**`',
          values: [{ [r]: [{ tool: 'edit', target: 'src/**', decision: 'allow' }] }],
          predicts: 'at most the policy decision for edit',
        },
      ],
      wildcards: [
        {
          slug: 'profile-allow-shell-rule',
          description: 'a profile rule `{tool: shell, decision: allow}` under a policy shell deny or ask',
          values: [{ [r]: [{ tool: 'shell', decision: 'allow' }], 'policy:/permissions/shell': 'deny' }],
          predicts: "shell stays at most the policy's decision",
        },
      ],
      escaping: 'rule fields have no escape syntax the spec names',
      duplicates: [
        {
          slug: 'same-rule-twice-opposite-decisions',
          description: 'two rules for one tool with opposite decisions',
          values: [
            {
              [r]: [
                { tool: 'edit', decision: 'deny' },
                { tool: 'edit', decision: 'allow' },
              ],
            },
          ],
          predicts: 'the first (deny) wins',
        },
      ],
      order: [
        {
          slug: 'policy-rules-first',
          description: 'a policy rule and a profile rule for the same call',
          values: [{ [qr]: [{ tool: 'shell', action: '*', target: '*', decision: 'ask' }], [r]: [{ tool: 'shell', decision: 'allow' }] }],
          predicts: "the policy's rule is evaluated first; the profile rule can only narrow",
        },
      ],
      links: [
        {
          slug: 'parent-rules',
          description: "a child's rule allowing what the parent's effective rules ask for",
          values: [
            {
              'parent:/rules': [{ tool: 'shell', action: '*', target: '*', decision: 'ask' }],
              [r]: [{ tool: 'shell', decision: 'allow' }],
            },
          ],
          predicts: "the parent's rules come first and bound the child",
        },
      ],
    },
  }),
];

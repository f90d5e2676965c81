/**
 * Boundary catalogue of the permission decisions (rule: ./decision.ts; SPEC §3.5, §7.2, §3.8, §4
 * rule 7; L1-I3, L3-E2, L3-B1). One dimension for `default` and one per category, each derived
 * from the same partition of the pair (request, ceiling) on deny < ask < allow.
 */
import { type Dimension, dimension } from './catalogue-model.js';
import { PERMISSION_CATEGORIES } from './decision.js';

const NO_NUMBERS = 'a decision is one of three words; nothing about it is numeric';
const NO_SEPARATORS = 'a decision is a single enum word: it has no separator or prefix to vary';
const NO_WILDCARDS = 'decisions are not patterns; the wildcards of permission rules are the permission-rules dimension';
const NO_ESCAPES =
  "the parser decodes JSON and YAML escapes before the rule reads the word, so an escaped spelling is the same value (L1-P1, the parser's question)";

function categoryDimension(key: (typeof PERMISSION_CATEGORIES)[number]): Dimension {
  const p = `profile:/spec/permissions/${key}`;
  const pd = 'profile:/spec/permissions/default';
  const q = `policy:/permissions/${key}`;
  const qd = 'policy:/permissions/default';
  return dimension({
    id: `permissions.${key}`,
    title: `The effective ${key} decision`,
    rule: 'spec/semantics/decision.ts effectiveDecision',
    requirements: ['L1-I3', 'L3-E2', 'L3-B1'],
    reads: {
      profile: [`/spec/permissions/${key}`, '/spec/permissions/default'],
      policy: [`/permissions/${key}`, '/permissions/default'],
      parent: [`/permissions/${key}`],
      base: [`/spec/permissions/${key}`, '/spec/permissions/default'],
    },
    meets: ['profile-policy', 'parent-child', 'base-derived'],
    families: {
      presence: [
        {
          slug: 'profile-silent-policy-explicit',
          description: `the profile names neither ${key} nor default; the policy names ${key}`,
          values: [{ [p]: undefined, [pd]: undefined, [q]: 'ask', [qd]: 'allow' }],
          predicts: `the policy's ${key} stands (nothing requested narrows it)`,
          next: ['profile-default-only', 'policy-category-silent'],
        },
        {
          slug: 'profile-default-only',
          description: `the profile states only default; its ${key} is requested at that default`,
          values: [
            { [p]: undefined, [pd]: 'deny', [q]: 'allow', [qd]: 'allow' },
            { [p]: undefined, [pd]: 'ask', [q]: 'allow', [qd]: 'allow' },
          ],
          predicts: `${key} = min(profile default, policy ${key}), never a harness fill value`,
          next: ['profile-silent-policy-explicit', 'profile-category-alone'],
        },
        {
          slug: 'profile-category-alone',
          description: `the profile states ${key} alone, no default`,
          values: [{ [p]: 'deny', [pd]: undefined, [q]: 'allow', [qd]: 'allow' }],
          predicts: `${key} = min(profile ${key}, policy ${key}); the other categories keep the policy's`,
          next: ['profile-default-only'],
        },
        {
          slug: 'policy-category-silent',
          description: `the policy leaves ${key} unset: its default decides`,
          values: [
            { [p]: 'allow', [q]: undefined, [qd]: 'ask' },
            { [p]: undefined, [pd]: undefined, [q]: undefined, [qd]: 'deny' },
          ],
          predicts: `the ceiling for ${key} is the policy default; effective = min(request, policy default)`,
          next: ['profile-silent-policy-explicit'],
        },
        {
          slug: 'permissions-block-empty',
          description: 'the profile has `permissions: {}` next to a profile without the key at all',
          values: [
            { 'profile:/spec/permissions': {}, [q]: 'ask', [qd]: 'allow' },
            { 'profile:/spec/permissions': undefined, [q]: 'ask', [qd]: 'allow' },
          ],
          predicts: 'both request nothing: the ceiling stands for every key',
        },
        {
          slug: 'null-in-derived-layer',
          description: `a derived layer deletes the base's ${key} with null (SPEC §4 rule 3)`,
          values: [{ [`base:/spec/permissions/${key}`]: 'deny', [p]: null, [q]: 'ask', [qd]: 'ask' }],
          predicts: `the key is unrequested after the merge: at most what the policy gives a profile without it (here ask); the base's deny may be kept (stricter)`,
          next: ['derived-overrides-base'],
        },
      ],
      numeric: NO_NUMBERS,
      text: [
        {
          slug: 'letter-case',
          description: 'a decision word in another letter case',
          values: [{ [p]: 'Allow' }, { [p]: 'DENY' }],
          predicts: 'schema-invalid (enum): the profile is refused, L1-P2',
          schemaInvalid: true,
          exclusion: 'a grammar bound: generated from spec/document/schema-bounds.ts (enum) as an L1-P2 case',
        },
        {
          slug: 'yaml-1.1-word',
          description: 'YAML words a 1.1 reader turns into booleans next to decisions (`no`, `off`) are not decisions at all',
          values: [{ [p]: false }],
          predicts: 'schema-invalid (enum): refused, L1-P2',
          schemaInvalid: true,
          exclusion: 'no decision word is a YAML 1.1 boolean, so no reader can turn a valid decision into another value',
        },
      ],
      separators: NO_SEPARATORS,
      wildcards: NO_WILDCARDS,
      escaping: NO_ESCAPES,
      duplicates: [
        {
          slug: 'same-on-both-sides',
          description: 'profile and policy name the same decision',
          values: [
            { [p]: 'ask', [q]: 'ask' },
            { [p]: 'deny', [q]: 'deny' },
            { [p]: 'allow', [q]: 'allow' },
          ],
          predicts: 'that decision (min is idempotent)',
        },
        {
          slug: 'key-written-twice',
          description: `the YAML or JSON text names ${key} twice, the last widening the first`,
          values: [{ 'profile:source': `spec:\n  permissions:\n    ${key}: deny\n    ${key}: allow\n` }],
          predicts: 'the document is refused (ADV-duplicate-keys): no logical value exists',
          exclusion: 'judged by ADV-duplicate-keys for permissions.shell; the rule never sees such a document',
        },
      ],
      order: [
        {
          slug: 'profile-below-policy',
          description: 'the profile asks for less than the policy gives',
          values: [
            { [p]: 'deny', [q]: 'ask' },
            { [p]: 'deny', [q]: 'allow' },
            { [p]: 'ask', [q]: 'allow' },
          ],
          predicts: "the profile's decision",
          next: ['profile-above-policy', 'same-on-both-sides'],
        },
        {
          slug: 'profile-above-policy',
          description: 'the profile asks for more than the policy gives',
          values: [
            { [p]: 'allow', [q]: 'deny' },
            { [p]: 'allow', [q]: 'ask' },
            { [p]: 'ask', [q]: 'deny' },
          ],
          predicts: "the policy's decision, with an adjustment recorded (L1-I9)",
          next: ['profile-below-policy'],
        },
        {
          slug: 'category-above-own-default',
          description: `the profile's ${key} is above its own default (a category is not capped by its own default)`,
          values: [{ [p]: 'allow', [pd]: 'deny', [q]: 'allow', [qd]: 'allow' }],
          predicts: `${key} = allow (the explicit value is the request); default = deny`,
          next: ['profile-default-only'],
        },
        {
          slug: 'derived-overrides-base',
          description: 'base and derived layer disagree (behavioural test 11)',
          values: [
            { [`base:/spec/permissions/${key}`]: 'deny', [p]: 'allow', [q]: 'ask', [qd]: 'ask' },
            { [`base:/spec/permissions/${key}`]: 'allow', [p]: 'deny', [q]: 'allow', [qd]: 'allow' },
          ],
          predicts:
            "the merged request is the derived layer's value; effective = min(merged, policy); keeping the base's stricter value is allowed",
        },
      ],
      links: [
        {
          slug: 'parent-effective-below-policy',
          description: `a subagent's request under a parent whose effective ${key} is below the policy's`,
          values: [{ [`parent:/permissions/${key}`]: 'deny', [p]: 'allow', [q]: 'allow', [qd]: 'allow' }],
          predicts: `the parent's effective ${key} (deny), not the policy's: the ceiling is the parent (L3-B1)`,
          next: ['parent-effective-equals-policy'],
        },
        {
          slug: 'parent-effective-equals-policy',
          description: 'the parent got exactly the policy; the child asks for less',
          values: [{ [`parent:/permissions/${key}`]: 'allow', [p]: 'ask', [q]: 'allow', [qd]: 'allow' }],
          predicts: "the child's ask",
        },
      ],
    },
  });
}

const DEFAULT_DIMENSION = dimension({
  id: 'permissions.default',
  title: 'The effective default decision',
  rule: 'spec/semantics/decision.ts effectiveDecision (key default)',
  requirements: ['L1-I3', 'L3-B1'],
  reads: { profile: ['/spec/permissions/default'], policy: ['/permissions/default'], parent: ['/permissions/default'] },
  meets: ['profile-policy', 'parent-child'],
  families: {
    presence: [
      {
        slug: 'profile-silent',
        description: 'the profile states no default',
        values: [{ 'profile:/spec/permissions/default': undefined, 'policy:/permissions/default': 'ask' }],
        predicts: "the policy's default (an unstated profile default requests allow, the top)",
        next: ['profile-below'],
      },
    ],
    numeric: NO_NUMBERS,
    text: "the enum bound (letter case, trailing space) is the grammar catalogue's (spec/document/schema-bounds.ts); the rule reads only valid words",
    separators: NO_SEPARATORS,
    wildcards: NO_WILDCARDS,
    escaping: NO_ESCAPES,
    duplicates: 'one key per document; a key written twice is ADV-duplicate-keys, judged on permissions.shell',
    order: [
      {
        slug: 'profile-below',
        description: 'the profile default below the policy default',
        values: [{ 'profile:/spec/permissions/default': 'deny', 'policy:/permissions/default': 'allow' }],
        predicts: "default = the profile's (and it caps every category the profile leaves unset)",
        next: ['profile-above', 'profile-silent'],
      },
      {
        slug: 'profile-above',
        description: 'the profile default above the policy default',
        values: [{ 'profile:/spec/permissions/default': 'allow', 'policy:/permissions/default': 'ask' }],
        predicts: "default = the policy's",
        next: ['profile-below'],
      },
    ],
    links: [
      {
        slug: 'parent-default-caps-child',
        description: 'a subagent asking allow under a parent whose effective default is ask',
        values: [
          { 'parent:/permissions/default': 'ask', 'profile:/spec/permissions/default': 'allow', 'policy:/permissions/default': 'allow' },
        ],
        predicts: 'ask (the parent is the ceiling, L3-B1)',
      },
    ],
  },
});

export const DECISION_CATALOGUE: readonly Dimension[] = [DEFAULT_DIMENSION, ...PERMISSION_CATEGORIES.map(categoryDimension)];

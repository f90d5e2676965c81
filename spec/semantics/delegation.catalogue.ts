/**
 * Boundary catalogue of delegation. Who may be delegated to and the depth and concurrency checks
 * are still the harness's (harnesses/reference harness.ts instantiate_subagent); the ceiling a
 * subagent gets is ./contract.ts predictContract with the parent's effective contract, and the
 * limits it reports are the smaller of request and ceiling there (SPEC §3.8; security.md T7;
 * L3-B1, L3-B2).
 */
import { type Dimension, dimension } from './catalogue-model.js';

const allow = 'profile:/spec/runtime/subagents/allow';
const depth = 'profile:/spec/runtime/subagents/max_depth';
const conc = 'profile:/spec/runtime/subagents/max_concurrent';

export const DELEGATION_CATALOGUE: readonly Dimension[] = [
  dimension({
    id: 'subagents.allow',
    title: 'Which profiles a session may delegate to',
    rule: 'harnesses/reference (not yet in the spec model)',
    requirements: ['L3-B1'],
    reads: { profile: ['/spec/runtime/subagents/allow'], parent: ['/subagents/allow'], base: ['/spec/runtime/subagents/allow'] },
    meets: ['parent-child', 'base-derived'],
    families: {
      presence: [
        {
          slug: 'absent-or-empty',
          description: 'no allow list, and `allow: []`',
          values: [{ [allow]: undefined }, { [allow]: [] }],
          predicts: 'no delegation (SPEC §3.8 "An empty or absent list means no delegation"): delegation-denied',
          next: ['named'],
        },
        {
          slug: 'named',
          description: 'the child is named; another name is not',
          values: [{ [allow]: ['helper'] }],
          predicts: 'delegation to helper allowed; to any other name delegation-denied',
        },
      ],
      numeric: "names; the list bound (maxItems 32) is the grammar catalogue's",
      text: [
        {
          slug: 'name-case',
          description: '`Helper` in the list for a profile named helper',
          values: [{ [allow]: ['Helper'] }],
          predicts: 'schema-valid (items are strings) but names no profile (names are lowercase slugs): delegation-denied',
        },
      ],
      separators: [
        {
          slug: 'name-prefix',
          description: '`help` in the list, delegation to `helper`',
          values: [{ [allow]: ['help'] }],
          predicts: 'delegation-denied: names are whole',
        },
      ],
      wildcards: [
        {
          slug: 'star',
          description: '`*` in the allow list',
          values: [{ [allow]: ['*'] }],
          predicts: 'no reading: the schema calls them "Profile names"; a literal `*` names no profile',
          exclusion: 'the spec gives the list no pattern syntax; a harness may read `*` as every name or as none',
        },
      ],
      escaping: 'names are slugs without escapes',
      duplicates: 'a name twice changes nothing',
      order: 'the list is a set of names',
      links: [
        {
          slug: 'grandchild-not-in-child-list',
          observedBy: ['L3-B1/delegation-outside-allow-denied'],
          description: 'a child allowed by its parent delegating to a name only the parent lists',
          values: [{ [allow]: ['other'], 'parent:/subagents/allow': ['helper', 'deep'] }],
          predicts: "the grandchild is judged by the child's own list: denied unless the child lists it",
        },
      ],
    },
  }),
  dimension({
    id: 'subagents.limits',
    title: 'max_depth and max_concurrent',
    rule: 'harnesses/reference (not yet in the spec model)',
    requirements: ['L3-B2'],
    reads: {
      profile: ['/spec/runtime/subagents/max_depth', '/spec/runtime/subagents/max_concurrent'],
      policy: ['/subagents/max_depth', '/subagents/max_concurrent'],
      parent: ['/subagents/max_depth', '/subagents/max_concurrent'],
    },
    meets: ['profile-policy', 'parent-child'],
    families: {
      presence: [
        {
          slug: 'profile-silent',
          observedBy: ['L3-B2/max-depth-policy', 'L3-B2/max-concurrent-policy'],
          description: 'no limits in the profile',
          values: [{ [depth]: undefined, [conc]: undefined, 'policy:/subagents/max_depth': 2, 'policy:/subagents/max_concurrent': 1 }],
          predicts: "the policy's limits hold",
        },
      ],
      numeric: [
        {
          slug: 'depth-edges',
          observedBy: ['L3-B2/max-depth-profile'],
          description: 'max_depth 1 (children only) and 8 (the schema maximum); depth counted from the top-level session at 0',
          values: [
            { [depth]: 1, 'policy:/subagents/max_depth': 8 },
            { [depth]: 8, 'policy:/subagents/max_depth': 8 },
          ],
          predicts: 'depth 1 allowed and depth 2 refused (delegation-depth) for 1; depth 8 allowed, 9 refused for 8',
          next: ['concurrency-edges'],
        },
        {
          slug: 'concurrency-edges',
          observedBy: ['L3-B2/max-concurrent-profile'],
          description: 'max_concurrent 1 with one live child, and after it ended',
          values: [{ [conc]: 1, 'policy:/subagents/max_concurrent': 64 }],
          predicts: 'the second live child refused (delegation-concurrency); after the first ends, a new one allowed',
        },
        {
          slug: 'policy-zero',
          observedBy: ['L3-B2/max-depth-policy', 'L3-B2/max-concurrent-policy'],
          description: 'the policy sets max_depth 0 or max_concurrent 0 (the protocol admits it)',
          values: [{ 'policy:/subagents/max_depth': 0 }, { 'policy:/subagents/max_concurrent': 0 }],
          predicts: 'no delegation at all',
        },
      ],
      text: 'limits are integers',
      separators: 'limits are integers',
      wildcards: 'limits are integers',
      escaping: 'limits are integers',
      duplicates: 'one key each',
      order: [
        {
          slug: 'smaller-side-wins',
          observedBy: ['L3-B2/max-depth-profile', 'L3-B2/max-concurrent-profile'],
          description: 'profile above policy and policy above profile',
          values: [
            { [depth]: 4, 'policy:/subagents/max_depth': 2 },
            { [depth]: 2, 'policy:/subagents/max_depth': 4 },
          ],
          predicts: 'the smaller limit decides',
        },
      ],
      links: [
        {
          slug: 'top-level-limit-binds-tree',
          observedBy: ['L3-B2/max-depth-profile'],
          description: "the top-level profile's max_depth 1 while a child's profile says 8",
          values: [{ 'parent:/subagents/max_depth': 1, [depth]: 8 }],
          predicts: 'the child cannot delegate further: the top-level limit binds the whole tree',
        },
      ],
    },
  }),
  dimension({
    id: 'runtime.mode',
    title: 'primary, subagent or either',
    rule: 'harnesses/reference (no requirement reads it)',
    requirements: [],
    reads: { profile: ['/spec/runtime/mode'] },
    meets: [],
    families: {
      presence: [
        {
          slug: 'absent-is-either',
          description: 'no mode',
          values: [{ 'profile:/spec/runtime/mode': undefined }],
          predicts: 'either: top-level and delegated alike',
          exclusion:
            'no conformance ID reads runtime.mode: SPEC §3.8 makes `either` the default but no sentence requires a harness to instantiate or delegate a profile of any mode, so no answer for an absent mode can fail (as for subagent-only-at-top)',
        },
      ],
      numeric: 'the mode is an enum word',
      text: "the enum bound is the grammar catalogue's",
      separators: 'an enum word',
      wildcards: 'an enum word',
      escaping: 'an enum word',
      duplicates: 'one mode key per document (ADV-duplicate-keys)',
      order: 'an enum has no order',
      links: [
        {
          slug: 'subagent-only-at-top',
          description: 'a `subagent` profile instantiated as a top-level session; a `primary` one delegated to',
          values: [{ 'profile:/spec/runtime/mode': 'subagent' }, { 'profile:/spec/runtime/mode': 'primary' }],
          predicts: 'SPEC §3.8 describes the modes; no sentence requires refusing either',
          exclusion: 'no conformance ID: "primary: user-facing top-level session. subagent: delegated only" has no MUST',
        },
      ],
    },
  }),
];

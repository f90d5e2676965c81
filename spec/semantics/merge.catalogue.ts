/**
 * Boundary catalogue of `extends`. The merge is ./merge.ts (mergeValue, mergeLayers,
 * composeProfile); finding the bases, cycles, depth and pins are still the harness's
 * (harnesses/reference/resolve.ts) (SPEC §4; L3-E1, L3-E2, L3-G2).
 */
import { type Dimension, dimension } from './catalogue-model.js';

const ext = 'profile:/extends';
const NO_TEXT = "base references are slugs and digests; their grammar is schema-bounds.ts's";

export const MERGE_CATALOGUE: readonly Dimension[] = [
  dimension({
    id: 'extends.chain',
    title: 'Which bases are applied: order, depth, cycles, pins',
    rule: 'harnesses/reference/resolve.ts (not yet in the spec model)',
    requirements: ['L3-E1', 'L3-G2'],
    reads: { profile: ['/extends', '/metadata/name'], base: ['/extends', '/metadata/name'], root: ['/project'] },
    meets: ['base-derived'],
    families: {
      presence: [
        {
          slug: 'empty-list',
          description: '`extends: []` next to no extends',
          values: [{ [ext]: [] }, { [ext]: undefined }],
          predicts: 'no base: the document alone',
        },
        {
          slug: 'missing-base',
          description: 'a base in no discovery root',
          values: [{ [ext]: [{ name: 'nowhere' }] }],
          predicts: 'refused: extends-missing',
        },
      ],
      numeric: [
        {
          slug: 'depth-edges',
          description: 'a chain of 8 links (accepted) and 9 (refused)',
          values: [{ [ext]: [{ name: 'b1' }], 'base:/extends': [{ name: 'b2' }] }],
          predicts: '8 links merge fully; 9 are refused with extends-depth',
        },
        {
          slug: 'breadth-edges',
          description: '8 direct bases (maxItems) and 9',
          values: [{ [ext]: Array.from({ length: 8 }, (_, i) => ({ name: `b${i}` })) }],
          predicts: '8 merge left to right; 9 are schema-invalid',
        },
        {
          slug: 'revision-pin',
          description: 'a profileRef with `revision` naming an older revision of the base',
          values: [{ [ext]: [{ name: 'base', revision: 1 }] }],
          predicts: 'unspecified: the spec gives `revision` in a reference no meaning',
          exclusion: 'SPEC §4 and §2.2 pin by digest only',
        },
      ],
      text: NO_TEXT,
      separators: [
        {
          slug: 'uri-hint',
          description: 'a reference with a non-local `uri`',
          values: [{ [ext]: [{ name: 'base', uri: 'https://example.com/base.agent.yaml' }] }],
          predicts: 'never fetched during resolution (L1-I11); resolved by name or refused',
        },
      ],
      wildcards: 'references name one profile',
      escaping: 'references have no escape syntax',
      duplicates: [
        {
          slug: 'same-base-twice',
          description: 'one base listed twice, and a diamond (two bases sharing an ancestor)',
          values: [{ [ext]: [{ name: 'base' }, { name: 'base' }] }],
          predicts: 'not a cycle: merged (twice is idempotent)',
        },
      ],
      order: [
        {
          slug: 'left-to-right',
          description: 'two bases setting the same key differently',
          values: [{ [ext]: [{ name: 'first' }, { name: 'second' }] }],
          predicts: "the later base's value, then the document's own",
        },
      ],
      links: [
        {
          slug: 'cycles',
          description: 'a profile extending itself, and a two-profile cycle',
          values: [{ [ext]: [{ name: 'self' }], 'profile:/metadata/name': 'self' }],
          predicts: 'refused: extends-cycle (not extends-depth)',
        },
        {
          slug: 'pins',
          observedBy: ['L3-G2/extends-pin-matching-digest-honoured', 'L3-G2/extends-pin-mismatch-rejected'],
          description: "a pin by the base's spec digest, by its profile digest, and by neither",
          values: [{ [ext]: [{ name: 'base', digest: `sha256:${'0'.repeat(64)}` }] }],
          predicts: 'at least one of the two digests honoured; a pin matching neither refused (digest-mismatch)',
        },
      ],
    },
  }),
  dimension({
    id: 'extends.merge',
    title: 'How a base and a derived layer merge',
    rule: 'spec/semantics/merge.ts mergeValue, mergeLayers',
    requirements: ['L3-E1', 'L3-E2'],
    reads: { profile: ['/spec', '/metadata', '/state', '/history'], base: ['/spec', '/metadata', '/state', '/history'] },
    meets: ['base-derived'],
    families: {
      presence: [
        {
          slug: 'null-deletes',
          description: 'null on an inherited array and on a nested key',
          values: [{ 'base:/spec/role/objectives': ['o'], 'profile:/spec/role/objectives': null }],
          predicts: 'the key is gone from the merged profile',
        },
        {
          slug: 'never-inherited',
          description: 'base name, id, revision, state and history; a derived layer without them',
          values: [{ 'base:/metadata/revision': 5, 'base:/state': { summary: 'base state' } }],
          predicts: "the derived document's own (revision 1, no state)",
        },
      ],
      numeric: 'numbers merge like any scalar: the derived value replaces',
      text: 'strings merge like any scalar',
      separators: 'merge is structural',
      wildcards: 'merge is structural',
      escaping: 'merge is structural',
      duplicates: [
        {
          slug: 'array-replaces',
          description: 'base `[read, search]`, derived `[read]`',
          values: [{ 'base:/spec/tools/allow': ['read', 'search'], 'profile:/spec/tools/allow': ['read'] }],
          predicts: '[read]: arrays replace, never concatenate',
        },
      ],
      order: [
        {
          slug: 'deep-objects',
          description: 'base persona.tone, derived persona.voice',
          values: [{ 'base:/spec/role/persona': { tone: 't' }, 'profile:/spec/role/persona': { voice: 'v' } }],
          predicts: 'both: objects merge at every depth',
        },
      ],
      links: [
        {
          slug: 'narrow-after-merge',
          description: 'merge first, narrow once (behavioural test 11)',
          values: [{ 'base:/spec/permissions/shell': 'deny', 'profile:/spec/permissions/shell': 'allow' }],
          predicts: 'never more than the flat merged profile under the same policy (L3-E2)',
        },
      ],
    },
  }),
];

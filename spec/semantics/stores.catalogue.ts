/**
 * Boundary catalogue of memory stores (rule: ./stores.ts storeUnavailable, storeModeBound; the
 * store mode cap is ./memory.ts storeModeCap) (SPEC §3.7; L1-I7, L3-Y1, L3-B1).
 */
import { dimension, type Dimension } from './catalogue-model.js';

const st = 'profile:/spec/memory/stores';
const ps = 'policy:/memory/stores';
const kinds = 'policy:/memory/store_kinds';

export const STORES_CATALOGUE: readonly Dimension[] = [
  dimension({
    id: 'memory.stores',
    title: 'Which stores a session gets, and with which mode',
    rule: 'spec/semantics/stores.ts storeUnavailable, storeModeBound; spec/semantics/memory.ts storeModeCap',
    requirements: ['L1-I7', 'L3-Y1', 'L3-B1'],
    reads: {
      profile: ['/spec/memory/stores', '/spec/memory/mode'],
      policy: ['/memory/stores', '/memory/store_kinds', '/memory/mode'],
      parent: ['/memory/stores', '/memory/mode'],
    },
    meets: ['profile-policy', 'parent-child'],
    families: {
      presence: [
        {
          slug: 'required-unreachable',
          description: 'a required store the policy lists as unreachable, and one of a kind the harness does not implement',
          values: [
            {
              [st]: [{ name: 'kb', kind: 'vector', required: true }],
              [ps]: [{ name: 'kb', kind: 'vector', reachable: false }],
              [kinds]: ['vector'],
            },
            { [st]: [{ name: 'kb', kind: 'maggraph', required: true }], [kinds]: ['oap-state'] },
          ],
          predicts: 'instantiation fails (L1-I7)',
          next: ['optional-unreachable', 'required-absent-default'],
        },
        {
          slug: 'optional-unreachable',
          description: 'the same store with `required: false`',
          values: [{ [st]: [{ name: 'kb', kind: 'vector', required: false }], [ps]: [{ name: 'kb', kind: 'vector', reachable: false }] }],
          predicts: 'instantiates without it, the drop recorded (L1-I9)',
        },
        {
          slug: 'required-absent-default',
          description: 'no `required` key (schema default false)',
          values: [{ [st]: [{ name: 'kb', kind: 'vector' }], [ps]: [] }],
          predicts: 'as optional: instantiates, drop recorded',
        },
        {
          slug: 'store-mode-absent',
          description: 'a store without `mode` under a read_write section',
          values: [{ [st]: [{ name: 'kb', kind: 'vector' }], 'profile:/spec/memory/mode': 'read_write' }],
          predicts: 'the store is at most read_only (schema default)',
        },
      ],
      numeric: 'stores have no numbers',
      text: [
        {
          slug: 'kind-letter-case',
          description: 'kind `Vector` against an implemented `vector`',
          values: [{ [st]: [{ name: 'kb', kind: 'Vector', required: true }], [kinds]: ['vector'] }],
          predicts: 'an unimplemented kind: a required one fails instantiation',
          exclusion: 'kinds are free strings ("e.g. oap-state, maggraph ..."); whether they compare case-insensitively is unspecified',
        },
      ],
      separators: 'store names and kinds are single tokens',
      wildcards: 'store names and kinds are not patterns',
      escaping: 'no escape syntax',
      duplicates: [
        {
          slug: 'same-name-twice',
          description: 'two stores with one name, one required and unreachable',
          values: [
            {
              [st]: [
                { name: 'kb', kind: 'vector' },
                { name: 'kb', kind: 'vector', required: true },
              ],
              [ps]: [{ name: 'kb', kind: 'vector', reachable: false }],
            },
          ],
          predicts: 'the required one fails instantiation whatever the other says',
          exclusion: 'the spec does not say store names are unique; kept to judge only the required one',
        },
      ],
      order: [
        {
          slug: 'store-mode-above-section',
          description: 'a read_write store in a read_only section',
          values: [{ [st]: [{ name: 'kb', kind: 'vector', mode: 'read_write' }], 'profile:/spec/memory/mode': 'read_only' }],
          predicts: 'the store at most read_only: the section mode is the ceiling',
        },
      ],
      links: [
        {
          slug: 'parent-store-mode',
          description: "a child store above the parent's effective mode for that store (reachable, both memory sections read_write)",
          values: [
            {
              'parent:/memory/mode': 'read_write',
              'parent:/memory/stores': [{ name: 'kb', kind: 'vector', mode: 'read_only' }],
              'profile:/spec/memory/mode': 'read_write',
              [st]: [{ name: 'kb', kind: 'vector', mode: 'read_write' }],
              [ps]: [{ name: 'kb', kind: 'vector', reachable: true }],
            },
          ],
          predicts: "at most the parent's (L3-B1)",
        },
      ],
    },
  }),
];

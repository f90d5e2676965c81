/**
 * Boundary catalogue of the memory mode and scopes (rule: ./memory.ts effectiveMemoryMode,
 * effectiveScopes; SPEC §3.7, §7.2; L1-I3, L3-Y1, L3-B1, L3-E1). Stores are ./stores.catalogue.ts.
 */
import { type Dimension, dimension } from './catalogue-model.js';

const m = 'profile:/spec/memory/mode';
const qm = 'policy:/memory/mode';
const s = 'profile:/spec/memory/scopes';
const qs = 'policy:/memory/scopes';

export const MEMORY_CATALOGUE: readonly Dimension[] = [
  dimension({
    id: 'memory.mode',
    title: 'The effective memory mode on off < read_only < read_write',
    rule: 'spec/semantics/memory.ts effectiveMemoryMode',
    requirements: ['L1-I3', 'L3-Y1', 'L3-B1'],
    reads: { profile: ['/spec/memory/mode'], policy: ['/memory/mode'], parent: ['/memory/mode'], base: ['/spec/memory/mode'] },
    meets: ['profile-policy', 'parent-child', 'base-derived'],
    families: {
      presence: [
        {
          slug: 'absent-is-read-only',
          description: 'no `mode` (and no `memory` section) under a read_write policy',
          values: [
            { [m]: undefined, [qm]: 'read_write' },
            { 'profile:/spec/memory': undefined, [qm]: 'read_write' },
          ],
          predicts: 'at most read_only: the schema default is requested',
          next: ['profile-below-policy'],
        },
      ],
      numeric: 'modes are three ordered words',
      text: [
        {
          slug: 'spelling',
          description: '`read-only`, `readonly`, `Read_Only`',
          values: [{ [m]: 'read-only' }],
          predicts: 'schema-invalid (enum): refused',
          schemaInvalid: true,
          exclusion: 'a grammar bound (spec/document/schema-bounds.ts)',
        },
        {
          slug: 'yaml-off',
          description: 'an unquoted `mode: off` read by a YAML 1.1 reader as false',
          values: [{ 'profile:source': 'spec:\n  memory:\n    mode: off\n', [qm]: 'read_write' }],
          predicts: 'YAML 1.2 reads the string off: memory off',
          next: ['writeback.mode/yaml-off'],
        },
      ],
      separators: 'a mode is one enum word',
      wildcards: 'a mode is not a pattern',
      escaping: 'escapes are decoded by the parser',
      duplicates: 'one key per document (ADV-duplicate-keys)',
      order: [
        {
          slug: 'profile-below-policy',
          description: 'the profile asks less than the policy',
          values: [
            { [m]: 'off', [qm]: 'read_write' },
            { [m]: 'read_only', [qm]: 'read_write' },
          ],
          predicts: "at most the profile's mode",
        },
        {
          slug: 'profile-above-policy',
          description: 'the profile asks more than the policy',
          values: [
            { [m]: 'read_write', [qm]: 'read_only' },
            { [m]: 'read_only', [qm]: 'off' },
          ],
          predicts: "at most the policy's mode",
        },
      ],
      links: [
        {
          slug: 'parent-mode-caps-child',
          description: 'a read_write child under a read_only parent',
          values: [{ 'parent:/memory/mode': 'read_only', [m]: 'read_write', [qm]: 'read_write' }],
          predicts: 'at most read_only (L3-B1)',
        },
        {
          slug: 'inherited-mode',
          description: 'the base says off, the derived layer is silent',
          values: [{ 'base:/spec/memory/mode': 'off', [m]: undefined, [qm]: 'read_write' }],
          predicts: 'off (deep merge keeps the base value)',
        },
      ],
    },
  }),
  dimension({
    id: 'memory.scopes',
    title: 'The scopes a session may touch: requested ∩ permitted, exact strings',
    rule: 'spec/semantics/memory.ts effectiveScopes',
    requirements: ['L1-I3', 'L3-Y1', 'L3-B1'],
    reads: { profile: ['/spec/memory/scopes'], policy: ['/memory/scopes'], parent: ['/memory/scopes'], base: ['/spec/memory/scopes'] },
    meets: ['profile-policy', 'parent-child', 'base-derived'],
    families: {
      presence: [
        {
          slug: 'absent',
          description: 'no `scopes` in the profile',
          values: [{ [s]: undefined, [qs]: ['project:acme', 'user:global'] }],
          predicts: 'within the policy scopes (nothing narrower requested)',
          next: ['empty'],
        },
        {
          slug: 'empty',
          description: '`scopes: []`',
          values: [{ [s]: [], [qs]: ['project:acme'] }],
          predicts: 'no scope: an empty request asks for none',
          next: ['absent'],
        },
        {
          slug: 'policy-empty',
          description: 'the policy permits no scope',
          values: [{ [s]: ['project:acme'], [qs]: [] }],
          predicts: 'no scope',
        },
      ],
      numeric: 'scopes are names',
      text: [
        {
          slug: 'letter-case',
          description: '`Project:Acme` against `project:acme`',
          values: [{ [s]: ['Project:Acme'], [qs]: ['project:acme'] }],
          predicts: 'not permitted: scopes are exact strings',
        },
        {
          slug: 'surrounding-space',
          description: '`project:acme ` with a trailing space',
          values: [{ [s]: ['project:acme '], [qs]: ['project:acme'] }],
          predicts: 'not permitted',
        },
      ],
      separators: [
        {
          slug: 'namespace-prefix',
          description: '`project` and `project:acme:sub` against `project:acme`',
          values: [{ [s]: ['project', 'project:acme:sub'], [qs]: ['project:acme'] }],
          predicts: 'neither permitted: no hierarchy between scopes',
        },
      ],
      wildcards: [
        {
          slug: 'glob-looking-scope',
          description: '`project:*` in the profile or the policy',
          values: [
            { [s]: ['project:acme'], [qs]: ['project:*'] },
            { [s]: ['project:*'], [qs]: ['project:acme'] },
          ],
          predicts: 'literal strings: neither covers the other',
        },
      ],
      escaping: 'scopes have no escape syntax',
      duplicates: [
        {
          slug: 'scope-twice',
          description: 'a scope twice in the request',
          values: [{ [s]: ['project:acme', 'project:acme'], [qs]: ['project:acme'] }],
          predicts: 'the same effective set',
        },
      ],
      order: 'a scope list is a set',
      links: [
        {
          slug: 'parent-scopes-cap-child',
          description: 'a child asking for a scope the parent did not get',
          values: [{ 'parent:/memory/scopes': ['project:acme'], [s]: ['user:global'], [qs]: ['project:acme', 'user:global'] }],
          predicts: 'user:global is not in the child (L3-B1)',
        },
        {
          slug: 'parent-scope-other-case',
          description: 'a child asking for `project:acme` under a parent holding `Project:Acme`, the policy permitting both',
          values: [
            {
              'parent:/memory/scopes': ['Project:Acme'],
              [s]: ['project:acme'],
              [qs]: ['Project:Acme', 'project:acme'],
            },
          ],
          predicts: 'no scope for the child: the parent holds another string (L3-B1), though the policy alone permits it',
          next: ['letter-case', 'parent-scopes-cap-child'],
        },
        {
          slug: 'derived-replaces-base',
          description: 'base scopes [a], derived scopes [b]',
          values: [{ 'base:/spec/memory/scopes': ['project:acme'], [s]: ['user:global'] }],
          predicts: 'the derived list (arrays replace), within the policy',
        },
      ],
    },
  }),
];

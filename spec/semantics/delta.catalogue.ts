/**
 * Boundary catalogue of applying a delta to its document. The rule is still in the harness
 * (harnesses/reference/apply/): target checks, atomicity, revision bookkeeping (SPEC §5.6, §6.3;
 * L2-A1, L2-A3, L2-A4, L2-A5, L2-A10, L2-A11).
 */
import { type Dimension, dimension } from './catalogue-model.js';

export const DELTA_CATALOGUE: readonly Dimension[] = [
  dimension({
    id: 'delta.target',
    title: 'Which profile and revision a delta applies to',
    rule: 'harnesses/reference/apply (not yet in the spec model)',
    requirements: ['L2-A3', 'L2-A4', 'L2-A1'],
    reads: { delta: ['/target/name', '/target/revision', '/target/digest'], document: ['/metadata/name', '/metadata/revision'] },
    meets: ['delta-document'],
    families: {
      presence: [
        {
          slug: 'digest-absent',
          observedBy: ['L2-A4/delta-without-digest-applied'],
          description: 'no `target.digest`',
          values: [{ 'delta:/target/digest': undefined, 'document:/metadata/revision': 4, 'delta:/target/revision': 4 }],
          predicts: 'applies (the digest is verified only when present)',
        },
        {
          slug: 'document-revision-absent',
          observedBy: ['L2-A10/revision-absent-to-2'],
          description: 'a document without `metadata.revision` and a delta targeting 1',
          values: [{ 'document:/metadata/revision': undefined, 'delta:/target/revision': 1 }],
          predicts: 'no conflict: an absent revision is 1; the result has revision 2 (L2-A10)',
        },
      ],
      numeric: [
        {
          slug: 'revision-off-by-one',
          observedBy: ['L2-A3/stale-revision-append-not-blind-written', 'L2-A3/stale-revision-index-ops-not-rebased'],
          description: 'target one below and one above the current revision',
          values: [
            { 'document:/metadata/revision': 4, 'delta:/target/revision': 3 },
            { 'document:/metadata/revision': 4, 'delta:/target/revision': 5 },
          ],
          predicts: 'a conflict either way: rebase, queue or reject; never a blind write (L2-A3)',
        },
      ],
      text: [
        {
          slug: 'digest-case',
          description: 'the right digest with upper-case hex',
          values: [{ 'delta:/target/digest': `sha256:${'A'.repeat(64)}` }],
          predicts: 'schema-invalid (pattern): rejected (L2-A1)',
          schemaInvalid: true,
          exclusion: 'a grammar bound (schema-bounds.ts)',
        },
      ],
      separators: "names are slugs and digests fixed-width; their grammar is schema-bounds.ts's",
      wildcards: 'no field of the target is a pattern',
      escaping: [
        {
          slug: 'digest-over-file-bytes',
          observedBy: ['L2-A4/target-digest-canonical-form'],
          description: 'a digest of the file as written (key order, escapes) instead of its JCS form',
          values: [{ 'delta:/target/digest': `sha256:${'0'.repeat(64)}` }],
          predicts: 'not the profile digest: not applied, file untouched (L2-A4)',
        },
      ],
      duplicates: 'one target per delta',
      order: 'the target has no ordered part',
      links: [
        {
          slug: 'name-mismatch',
          description: 'a delta whose target.name is another profile than the document it is applied to',
          values: [{ 'delta:/target/name': 'other-agent', 'document:/metadata/name': 'reviewer' }],
          predicts: 'not applied to this profile (SPEC §6.1 target names the profile)',
          exclusion:
            'no requirement ID names the target name check; a case would rest on §5.6 step 1-3 alone (validates, checks revision, verifies digest) which never mention the name',
        },
      ],
    },
  }),
  dimension({
    id: 'delta.operations',
    title: 'Operations as a whole: atomicity, reserved ops, empty deltas',
    rule: 'harnesses/reference/apply (not yet in the spec model)',
    requirements: ['L2-A1', 'L2-A5', 'L2-A10', 'L2-A11'],
    reads: { delta: ['/operations', '/proposals'], document: ['/state', '/history', '/metadata/revision'] },
    meets: ['delta-document'],
    families: {
      presence: [
        {
          slug: 'no-operations',
          description: 'a delta with no operations and no proposals, and with `operations: []`',
          values: [{ 'delta:/operations': undefined }, { 'delta:/operations': [] }],
          predicts: 'valid; whether it counts as a persisted write (revision +1, history) is not fixed by the spec',
          exclusion: 'SPEC §5.6 steps 8-9 run "on every persisted write"; whether an empty delta is one is left open',
        },
        {
          slug: 'value-missing',
          description: 'an add without `value`, a remove with one',
          values: [
            { 'delta:/operations/0': { op: 'add', path: '/state/summary' } },
            { 'delta:/operations/0': { op: 'remove', path: '/state/summary', value: 'x' } },
          ],
          predicts: 'schema-invalid: rejected, file untouched (L2-A1)',
          schemaInvalid: true,
          exclusion: 'a structural rule of the schema (if/then), covered by L2-A1 cases',
        },
      ],
      numeric: [
        {
          slug: 'many-operations',
          description: '500 operations (the maxItems), one past',
          values: [
            {
              'delta:/operations': Array.from({ length: 500 }, (_, i) => ({
                op: 'add',
                path: '/state/facts/-',
                value: { id: `f${i}`, text: 't' },
              })),
            },
          ],
          predicts: '500 apply atomically; 501 is schema-invalid',
          exclusion: "the grammar bound is schema-bounds.ts's; atomicity is judged on small deltas",
        },
      ],
      text: [
        {
          slug: 'reserved-op-case',
          description: '`Move`, `MOVE` next to the reserved `move`',
          values: [{ 'delta:/operations/0': { op: 'Move', path: '/state/summary' } }],
          predicts: 'schema-invalid (enum): rejected',
          schemaInvalid: true,
          exclusion: 'a grammar bound',
        },
      ],
      separators: "operations are objects; their path separators are delta.operation-path's",
      wildcards: 'operations are not patterns',
      escaping: "escapes in paths are delta.operation-path's",
      duplicates: "two operations on one path are delta.operation-path's",
      order: [
        {
          slug: 'failure-last',
          observedBy: [
            'L2-A5/failing-operation-replace-missing-index-nothing-written',
            'L2-A5/failing-operation-replace-absent-member-nothing-written',
            'L2-A5/failing-operation-add-past-array-end-nothing-written',
            'L2-A5/failing-operation-replace-in-absent-collection-nothing-written',
            'L2-A5/failing-operation-replace-at-array-length-nothing-written',
            'L2-A5/failing-operation-add-one-past-array-end-nothing-written',
            'L2-A5/failing-operation-replace-missing-id-entry-nothing-written',
          ],
          description: 'valid operations followed by one that fails',
          values: [
            {
              'delta:/operations': [
                { op: 'add', path: '/state/facts/-', value: { id: 'n', text: 't' } },
                { op: 'replace', path: '/state/facts/99', value: { id: 'm', text: 't' } },
              ],
            },
          ],
          predicts: 'nothing written (L2-A5)',
        },
      ],
      links: [
        {
          slug: 'result-invalid',
          observedBy: ['L2-A5/applied-profile-always-validates'],
          description: 'operations whose complete result the profile schema refuses',
          values: [{ 'delta:/operations/0': { op: 'replace', path: '/state/open_threads', value: {} } }],
          predicts: 'nothing written (L2-A5: applying it all writes an invalid profile)',
        },
      ],
    },
  }),
];

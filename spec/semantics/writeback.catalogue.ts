/**
 * Boundary catalogue of `lifecycle.writeback` (rule: ./writeback.ts writebackOf,
 * operationsOutcome; SPEC §3.8, §6.4; L2-A6, L2-A7, L2-G3).
 */
import { type Dimension, dimension } from './catalogue-model.js';

const w = 'document:/spec/lifecycle/writeback';
const approved = 'params:/approval/operations';

export const WRITEBACK_CATALOGUE: readonly Dimension[] = [
  dimension({
    id: 'writeback.mode',
    title: 'What happens to a delta under off, propose and auto',
    rule: 'spec/semantics/writeback.ts',
    requirements: ['L2-A6', 'L2-A7'],
    reads: {
      document: ['/spec/lifecycle/writeback', '/metadata/annotations'],
      delta: ['/operations', '/proposals'],
      params: ['/approval'],
      base: ['/spec/lifecycle/writeback'],
    },
    meets: ['delta-document'],
    families: {
      presence: [
        {
          slug: 'absent-is-propose',
          observedBy: ['L2-A6/writeback-absent-unapproved-queued', 'L2-A6/writeback-absent-approved-applied'],
          description: 'no writeback (and no lifecycle section)',
          values: [
            { [w]: undefined, [approved]: false },
            { [w]: undefined, [approved]: true },
          ],
          predicts: 'propose: queued without approval, applied with it',
          next: ['propose-unapproved'],
        },
      ],
      numeric: 'writeback is an enum word',
      text: [
        {
          slug: 'yaml-off',
          observedBy: ['L2-A6/writeback-off-unquoted-yaml-discarded'],
          description: 'an unquoted `writeback: off` that a YAML 1.1 reader turns into false',
          values: [{ 'document:source': 'spec:\n  lifecycle:\n    writeback: off\n', [approved]: true }],
          predicts: 'YAML 1.2: the string off; the approved delta is discarded',
        },
        {
          slug: 'letter-case',
          description: '`Off`, `AUTO`',
          values: [{ [w]: 'Off' }],
          predicts: 'schema-invalid: the profile itself is invalid',
          schemaInvalid: true,
          exclusion: 'a grammar bound (schema-bounds.ts)',
        },
      ],
      separators: 'an enum word',
      wildcards: 'an enum word',
      escaping: 'an enum word',
      duplicates: [
        {
          slug: 'annotation-named-writeback',
          observedBy: ['L2-A6/writeback-read-from-spec-lifecycle'],
          description: 'an annotation `writeback: auto` next to `spec.lifecycle.writeback: off`',
          values: [{ [w]: 'off', 'document:/metadata/annotations': { writeback: 'auto' }, [approved]: true }],
          predicts: 'discarded: only spec.lifecycle.writeback counts',
        },
      ],
      order: [
        {
          slug: 'propose-unapproved',
          observedBy: ['L2-A6/writeback-propose-unapproved-queued', 'L2-A6/writeback-auto-unapproved-applied'],
          description: 'propose without approval, and auto without approval',
          values: [
            { [w]: 'propose', [approved]: false },
            { [w]: 'auto', [approved]: false },
          ],
          predicts: 'queued under propose; applied under auto',
        },
        {
          slug: 'off-approved',
          observedBy: ['L2-A6/writeback-off-approved-discarded'],
          description: 'off with approval',
          values: [{ [w]: 'off', [approved]: true }],
          predicts: 'discarded, file untouched: off beats approval',
        },
        {
          slug: 'proposals-under-auto',
          observedBy: ['L2-A7/proposals-pending-under-auto'],
          description: 'auto with a proposal in the delta',
          values: [{ [w]: 'auto', 'delta:/proposals/0': { path: '/spec/tools/allow/-', op: 'add', value: 'shell', rationale: 'r' } }],
          predicts: 'operations applied, the proposal pending: never applied without approval (L2-A7)',
        },
      ],
      links: [
        {
          slug: 'inherited-off',
          description: 'the base says off, the profile has no lifecycle',
          values: [{ 'base:/spec/lifecycle/writeback': 'off', [w]: undefined, [approved]: true }],
          predicts: 'off after the merge: discarded',
          exclusion:
            'whether the applicator reads the merged profile or the file alone is not fixed (see retention.max_facts/inherited-cap)',
        },
      ],
    },
  }),
];

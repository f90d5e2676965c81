/**
 * Boundary catalogue of the prompt assembly order (rule: ./prompt-order.ts orderViolations;
 * SPEC §3.2; L1-I1, L2-S1).
 */
import { type Dimension, dimension } from './catalogue-model.js';

const role = (r: Record<string, unknown>) => ({ 'profile:/spec/role': { instructions: 'Do the work.', ...r } });

export const PROMPT_ORDER_CATALOGUE: readonly Dimension[] = [
  dimension({
    id: 'prompt.sections',
    title: 'Which role steps are present, and their order',
    rule: 'spec/semantics/prompt-order.ts',
    requirements: ['L1-I1', 'L2-S1'],
    reads: { profile: ['/spec/role', '/state'], base: ['/spec/role'] },
    meets: ['base-derived'],
    families: {
      presence: [
        {
          slug: 'instructions-only',
          description: 'instructions alone',
          values: [role({})],
          predicts: 'instructions after any preamble, before any postamble',
        },
        {
          slug: 'empty-supplements',
          description: '`objectives: []`, `persona: {}`, `examples: []`',
          values: [role({ objectives: [], persona: {}, examples: [] })],
          predicts: 'no section needed for them; any section present stays in order',
        },
        {
          slug: 'gaps',
          observedBy: ['L1-I1/contradicting-constraints-after-instructions'],
          description: 'constraints without objectives or persona; state without role supplements',
          values: [role({ constraints: ['never x'] }), { ...role({}), 'profile:/state': { summary: 's' } }],
          predicts: 'instructions < constraints; instructions < state < postamble',
        },
      ],
      numeric: "list lengths are the grammar catalogue's (maxItems)",
      text: [
        {
          slug: 'contradicting-constraints',
          observedBy: ['L1-I1/contradicting-constraints-after-instructions'],
          description: 'constraints that contradict the instructions (behavioural test 2)',
          values: [role({ constraints: ['Never do the work.'] })],
          predicts: 'constraints rendered after instructions',
        },
        {
          slug: 'persona-only-language',
          description: 'a persona with only `language` or only `verbosity`',
          values: [role({ persona: { verbosity: 'terse' } })],
          predicts: 'rendered in the harness idiom at step 4, or not at all; never out of order',
        },
      ],
      separators: 'sections are delimited by the harness; the delimiting of state is delimiting.catalogue.ts',
      wildcards: 'role text is prose',
      escaping: 'role text is rendered as written; `${{ vars }}` are variables.catalogue.ts',
      duplicates: [
        {
          slug: 'same-text-in-two-steps',
          description: 'an objective identical to a constraint',
          values: [role({ objectives: ['Be brief.'], constraints: ['Be brief.'] })],
          predicts: 'both sections in order; the text found in each',
        },
      ],
      order: [
        {
          slug: 'all-steps',
          observedBy: ['L2-S1/state-after-role-before-postamble'],
          description: 'every step present',
          values: [
            {
              ...role({ objectives: ['o'], persona: { tone: 't' }, constraints: ['c'], examples: [{ input: 'i', output: 'o' }] }),
              'profile:/state': { summary: 's' },
            },
          ],
          predicts:
            'preamble < instructions < objectives < persona < constraints < examples < state < postamble; harness material anywhere',
        },
      ],
      links: [
        {
          slug: 'merged-role',
          description: 'objectives from the base, constraints from the derived layer',
          values: [{ 'base:/spec/role': { instructions: 'b', objectives: ['o'] }, ...role({ constraints: ['c'] }) }],
          predicts: 'the merged role in the same order',
        },
      ],
    },
  }),
];

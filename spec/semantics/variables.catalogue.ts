/**
 * Boundary catalogue of `${{ vars.KEY }}` substitution. The rule is still in the harness
 * (harnesses/reference/resolve.ts) (SPEC §3.6, §5.2 step 5; L2-S5, ADV-vars-role-fields,
 * ADV-vars-undefined).
 */
import { type Dimension, dimension } from './catalogue-model.js';

const vars = 'profile:/spec/context/variables';
const instr = 'profile:/spec/role/instructions';

export const VARIABLES_CATALOGUE: readonly Dimension[] = [
  dimension({
    id: 'context.variables',
    title: 'Where variables are substituted, and how they are spelt',
    rule: 'harnesses/reference/resolve.ts (not yet in the spec model)',
    requirements: ['L2-S5', 'ADV-vars-role-fields', 'ADV-vars-undefined'],
    reads: { profile: ['/spec/context/variables', '/spec/role', '/state'], base: ['/spec/context/variables'] },
    meets: ['base-derived'],
    families: {
      presence: [
        {
          slug: 'undefined',
          observedBy: ['ADV-vars-undefined/undefined-variable-rejected'],
          description: 'a variable used in instructions and not defined',
          values: [{ [instr]: 'Team ${{ vars.TEAM }}', [vars]: undefined }],
          predicts: 'refused: an error, not an empty string',
        },
        {
          slug: 'defined-empty',
          observedBy: ['ADV-vars-undefined/undefined-variable-rejected'],
          description: 'a variable defined as ""',
          values: [{ [instr]: 'Team ${{ vars.TEAM }}', [vars]: { TEAM: '' } }],
          predicts: 'substituted by the empty string (it is defined)',
        },
      ],
      numeric: "the value length bound (2000) is schema-bounds.ts's",
      text: [
        {
          slug: 'key-case',
          description: '`${{ vars.team }}` with TEAM defined',
          values: [{ [instr]: '${{ vars.team }}', [vars]: { TEAM: 'x' } }],
          predicts: 'undefined: refused',
          exclusion: 'the spec does not say keys are case-sensitive',
        },
      ],
      separators: [
        {
          slug: 'spacing',
          observedBy: ['ADV-vars-role-fields/constraints-substituted'],
          description: '`${{vars.TEAM}}`, `${{  vars.TEAM  }}`',
          values: [{ [instr]: '${{vars.TEAM}}', [vars]: { TEAM: 'x' } }],
          predicts: 'substituted like the spaced form',
        },
      ],
      wildcards: 'variable names are not patterns',
      escaping: [
        {
          slug: 'value-holding-a-reference',
          description: 'a value that itself contains `${{ vars.OTHER }}`',
          values: [{ [instr]: '${{ vars.A }}', [vars]: { A: '${{ vars.B }}', B: 'x' } }],
          predicts: 'one pass: the literal `${{ vars.B }}` stays',
          exclusion: 'the spec does not say substitution is one pass',
        },
      ],
      duplicates: 'variables are a map',
      order: [
        {
          slug: 'role-fields',
          observedBy: [
            'ADV-vars-role-fields/instructions-substituted',
            'ADV-vars-role-fields/objectives-substituted',
            'ADV-vars-role-fields/constraints-substituted',
          ],
          description: 'objectives and constraints use a variable; persona does too',
          values: [{ 'profile:/spec/role/objectives': ['${{ vars.TEAM }}'], [vars]: { TEAM: 'x' } }],
          predicts: 'substituted in instructions, objectives and constraints (persona is not named by §3.6)',
        },
      ],
      links: [
        {
          slug: 'in-state',
          observedBy: ['L2-S5/vars-literal-inside-state'],
          description: 'the token in state, defined and undefined',
          values: [{ 'profile:/state/summary': '${{ vars.TEAM }} ${{ vars.NOPE }}', [vars]: { TEAM: 'x' } }],
          predicts: 'left literal; an undefined one there does not fail instantiation (L2-S5)',
        },
      ],
    },
  }),
];

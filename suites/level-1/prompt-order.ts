/**
 * L1-I1: the system prompt is assembled in the order of SPEC §3.2 and the section map tells the
 * truth about it (behavioural test 2).
 *
 * The check does not trust the section map on its own: every section's byte range must actually
 * contain the text of the field it claims to be, and the field texts must appear in the prompt in
 * the normative order. Profile text deliberately carries multi-byte UTF-8 so that offsets counted
 * in UTF-16 code units instead of bytes are caught.
 */
import { expectTrue, fail } from '../kit/assert.js';
import type { CaseDef } from '../kit/types.js';
import {
  checkSectionMap,
  instantiateSubject,
  minimalProfile,
  occurrences,
  permissivePolicy,
  writeProjectProfile,
} from '../support/index.js';

/** UTF-8 byte offsets where `needle` starts in `text`. */
const startsOf = (text: string, needle: string): number[] => occurrences(text, needle).map(([start]) => start);

/** The first byte offset of each text in the whole prompt must follow the normative order too. */
function checkTextOrder(text: string, ordered: Array<{ kind: string; text: string }>): void {
  let previous = { kind: '(start)', at: -1 };
  for (const o of ordered) {
    const at = startsOf(text, o.text);
    if (at.length === 0) fail(`the ${o.kind} text is missing from the prompt`, o.text, text.slice(0, 400));
    const first = at[0] as number;
    if (first < previous.at)
      fail(`the ${o.kind} text appears before the ${previous.kind} text`, [previous.kind, o.kind], {
        [previous.kind]: previous.at,
        [o.kind]: first,
      });
    previous = { kind: o.kind, at: first };
  }
}

const INSTRUCTIONS = 'When you find a defect, rewrite the affected code yourself — résumé-grade quality, naïve fixes avoided 🛠️.';
const OBJECTIVE = 'Objective ✓: leave every reviewed module with passing tests.';
const PERSONA_TONE = 'dry and exact, like a café menu';
const CONSTRAINT = 'Never edit files ⛔; report defects only and let the author change the code.';
const EXAMPLE_IN = 'Review: the parser drops the last token.';
const EXAMPLE_OUT = 'Defect → parser.ts: the loop bound is off by one; add a test for a single-token input.';

const fullOrder: CaseDef = {
  id: 'L1-I1/all-role-fields-in-normative-order',
  requirements: ['L1-I1'],
  clauses: ['L1-I1.order'],
  title: 'instructions, objectives, persona, constraints and examples render in SPEC §3.2 order with truthful byte ranges',
  expectation: { order: ['preamble?', 'instructions', 'objectives', 'persona', 'constraints', 'examples', 'postamble?'] },
  async run(ctx) {
    const doc = minimalProfile('ordered-reviewer', {
      role: {
        instructions: INSTRUCTIONS,
        objectives: [OBJECTIVE],
        persona: { tone: PERSONA_TONE, style_rules: ['Cite file and line for each finding.'] },
        constraints: [CONSTRAINT],
        examples: [{ input: EXAMPLE_IN, output: EXAMPLE_OUT }],
      },
    });
    const session = await instantiateSubject(ctx, writeProjectProfile(ctx, doc), permissivePolicy());
    ctx.note(
      'sections',
      session.prompt.sections.map((s) => s.kind),
    );
    checkSectionMap(session.prompt, [
      { kind: 'instructions', texts: [INSTRUCTIONS], mode: 'all' },
      { kind: 'objectives', texts: [OBJECTIVE], mode: 'all' },
      { kind: 'persona', texts: [PERSONA_TONE, 'Cite file and line for each finding.'], mode: 'any' },
      { kind: 'constraints', texts: [CONSTRAINT], mode: 'all' },
      { kind: 'examples', texts: [EXAMPLE_IN, EXAMPLE_OUT], mode: 'all' },
    ]);
    checkTextOrder(session.prompt.text, [
      { kind: 'instructions', text: INSTRUCTIONS },
      { kind: 'objectives', text: OBJECTIVE },
      { kind: 'constraints', text: CONSTRAINT },
      { kind: 'examples', text: EXAMPLE_IN },
    ]);
  },
};

const contradiction: CaseDef = {
  id: 'L1-I1/contradicting-constraints-after-instructions',
  requirements: ['L1-I1'],
  clauses: ['L1-I1.order'],
  title: 'Behavioural test 2: constraints that contradict the instructions are rendered after them',
  expectation: { instructionsBefore: 'constraints' },
  async run(ctx) {
    const instructions = 'Always fix the bugs you find by editing the files directly.';
    const constraints = ['Do not edit any file under any circumstances.', 'Report findings as a list; never apply them.'];
    const doc = minimalProfile('contradicted', { role: { instructions, constraints } });
    const session = await instantiateSubject(ctx, writeProjectProfile(ctx, doc), permissivePolicy());
    checkSectionMap(session.prompt, [
      { kind: 'instructions', texts: [instructions], mode: 'all' },
      { kind: 'constraints', texts: constraints, mode: 'all' },
    ]);
    checkTextOrder(session.prompt.text, [
      { kind: 'instructions', text: instructions },
      { kind: 'constraints', text: constraints[0] as string },
    ]);
    // Every constraint, not just the first, follows the instructions.
    const lastInstruction = startsOf(session.prompt.text, instructions)[0] as number;
    for (const c of constraints) {
      const first = startsOf(session.prompt.text, c)[0] as number;
      expectTrue(first > lastInstruction, `constraint "${c}" follows the instructions`, {
        expected: `after byte ${lastInstruction}`,
        observed: first,
      });
    }
  },
};

export const promptOrderCases: CaseDef[] = [fullOrder, contradiction];

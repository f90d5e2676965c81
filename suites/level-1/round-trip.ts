/**
 * L1-R1 and L1-R2: metadata.annotations survive a read/write cycle through the harness writer
 * (`write_back`), keys (R1) and values (R2), including behavioural test 5. The written file is
 * read back by the runner's oracle, never by the adapter.
 *
 * R1 judges presence of every key (values kept plain so that no value-mangling defect touches it);
 * R2 judges the exact string value of every key that survived, so a writer that drops keys fails
 * R1 and a writer that rewrites values fails R2.
 */
import { isRefused } from '../../protocol/messages.js';
import { expectTrue, fail } from '../kit/assert.js';
import type { CaseContext, CaseDef } from '../kit/types.js';
import { briefIssues, minimalProfile, oracleRead, requireObservable, writeProjectProfile } from '../support/index.js';

/**
 * Write the profile, run `cycles` write_back cycles on it, and return the annotations the oracle
 * reads back. The profile is valid, so a harness refusing to write it back fails the case's own ID.
 */
async function roundTrip(ctx: CaseContext, annotations: Record<string, string>, cycles: number): Promise<Record<string, unknown>> {
  const doc = minimalProfile('annotated-agent');
  Object.assign(doc['metadata'] as object, { annotations });
  let path = writeProjectProfile(ctx, doc);
  for (let i = 0; i < cycles; i++) {
    const r = await ctx.adapter.call('write_back', { path });
    if (isRefused(r)) fail('write_back refused a valid profile', { written: true }, { refused: briefIssues(r.errors) });
    path = r.path;
  }
  const written = oracleRead(path);
  const meta = written['metadata'] as Record<string, unknown> | undefined;
  const ann = meta?.['annotations'];
  return typeof ann === 'object' && ann !== null && !Array.isArray(ann) ? (ann as Record<string, unknown>) : {};
}

const FOREIGN_ANNOTATIONS: Record<string, string> = {
  'other-harness.example/owner': 'platform-team',
  'magagent.dev/recipe': 'release-prep',
  'loro.io/tier': 'advanced',
  'x.example/unknown-flag': 'enabled',
  'deeply.nested.example.org/some-setting_v2': 'keep',
};

function presenceCase(cycles: number): CaseDef {
  return {
    id: `L1-R1/foreign-annotations-kept-${cycles === 1 ? 'one-cycle' : `${cycles}-cycles`}`,
    requirements: ['L1-R1'],
    clauses: ['L1-R1.unknown-kept'],
    title: `Annotations of other harnesses survive ${cycles} write-back cycle(s) with their values`,
    expectation: { annotations: FOREIGN_ANNOTATIONS },
    async run(ctx) {
      const after = await roundTrip(ctx, FOREIGN_ANNOTATIONS, cycles);
      const lost = Object.keys(FOREIGN_ANNOTATIONS).filter((k) => !(k in after));
      if (lost.length) fail(`annotations dropped by write_back: ${lost.join(', ')}`, Object.keys(FOREIGN_ANNOTATIONS), Object.keys(after));
      for (const [k, v] of Object.entries(FOREIGN_ANNOTATIONS)) {
        expectTrue(after[k] === v, `annotation ${k} keeps its value`, { expected: v, observed: after[k] });
      }
    },
  };
}

/**
 * Annotations whose values a writer is tempted to treat differently from a plain word: JSON text,
 * several lines, nothing at all. Every one must still be there after the cycle (R1); whether each
 * kept its exact value is R2's question.
 */
const UNUSUAL_VALUES: Record<string, string> = {
  'other-harness.example/json-object': '{"steps": ["build", "test"], "retries": 2}',
  'other-harness.example/json-array': '["a", "b"]',
  'other-harness.example/multi-line': 'first line\nsecond line\n',
  'other-harness.example/empty': '',
  'other-harness.example/plain': 'kept',
};

const unusualPresence: CaseDef = {
  id: 'L1-R1/annotations-with-json-multiline-empty-values-kept',
  requirements: ['L1-R1'],
  clauses: ['L1-R1.unknown-kept'],
  title: 'Every annotation survives a write-back cycle, including those holding JSON text, several lines or an empty string',
  expectation: { keys: Object.keys(UNUSUAL_VALUES) },
  async run(ctx) {
    const after = await roundTrip(ctx, UNUSUAL_VALUES, 1);
    const lost = Object.keys(UNUSUAL_VALUES).filter((k) => !(k in after));
    if (lost.length) fail(`annotations dropped by write_back: ${lost.join(', ')}`, Object.keys(UNUSUAL_VALUES), Object.keys(after));
  },
};

/** Values a writer is tempted to reinterpret: YAML 1.1 booleans, numbers, nulls, JSON text, layout. */
const TRICKY_VALUES: Record<string, string> = {
  'other-harness.example/x': '1',
  'other-harness.example/json-compact': '{"a":[1,2],"b":{"c":null}}',
  'other-harness.example/json-spaced': '{"b": {"c": null}, "a": [1, 2.0, 1e3]}',
  'other-harness.example/json-pretty': '{\n  "name": "release",\n  "steps": [\n    "build",\n    "test"\n  ]\n}',
  'other-harness.example/json-array': '[ "x", 2, true ]',
  'other-harness.example/off': 'off',
  'other-harness.example/yes': 'yes',
  'other-harness.example/no': 'NO',
  'other-harness.example/null-word': 'null',
  'other-harness.example/tilde': '~',
  'other-harness.example/true': 'true',
  'other-harness.example/octal-like': '0o17',
  'other-harness.example/leading-zero': '007',
  'other-harness.example/float-like': '1.50',
  'other-harness.example/exp-like': '1e3',
  'other-harness.example/inf-like': '.inf',
  'other-harness.example/date-like': '2026-08-14',
  'other-harness.example/multi-line': 'first line\nsecond line\n\n  indented third\n',
  'other-harness.example/trailing-space': 'value with trailing space ',
  'other-harness.example/leading-space': '  leading',
  'other-harness.example/unicode': 'héllo → 世界 🎉 ∑',
  'other-harness.example/comment-like': '# not a comment',
  'other-harness.example/colon': 'key: value',
  'other-harness.example/dash': '- item',
  'other-harness.example/quotes': `it's "quoted"`,
  'other-harness.example/backslash': 'C:\\path\\to\\file',
  'other-harness.example/empty': '',
  'other-harness.example/tab': 'a\tb',
};

function valueCase(cycles: number): CaseDef {
  return {
    id: `L1-R2/annotation-values-exact-${cycles === 1 ? 'one-cycle' : `${cycles}-cycles`}`,
    requirements: ['L1-R2'],
    clauses: ['L1-R2.values', 'L1-R2.nested-json'],
    title: `Annotation values, including JSON text and YAML-ambiguous strings, are identical after ${cycles} write-back cycle(s) (behavioural test 5)`,
    expectation: { annotations: TRICKY_VALUES },
    async run(ctx) {
      const after = await roundTrip(ctx, TRICKY_VALUES, cycles);
      const survived = Object.keys(TRICKY_VALUES).filter((k) => k in after);
      // Lost keys are L1-R1's failure; R2 judges the values of what is still there.
      requireObservable(
        survived.length > 0,
        'no annotation survived write_back; L1-R1 judges that',
        'write_back dropped every foreign annotation',
      );
      ctx.note('survived', survived.length);
      const changed = survived.filter((k) => after[k] !== TRICKY_VALUES[k]);
      if (changed.length) {
        fail(
          `annotation values changed by write_back: ${changed.join(', ')}`,
          Object.fromEntries(changed.map((k) => [k, TRICKY_VALUES[k]])),
          Object.fromEntries(changed.map((k) => [k, after[k]])),
        );
      }
    },
  };
}

export const roundTripCases: CaseDef[] = [presenceCase(1), presenceCase(2), unusualPresence, valueCase(1), valueCase(2)];

/**
 * Catalogue cases at the delta-document meeting point for where an operation lands
 * (delta.operation-path): each value is a profile holding the class's document-side state and a
 * delta carrying its operations, applied with approval under `writeback: auto`. The prediction is
 * the spec model's (spec/semantics/operations.ts applyStateOperations): the state after the
 * operations, or a failure of the whole delta. A predicted failure must be rejected with the file
 * untouched; a predicted application must not be rejected (a refusal goes through the refusal
 * rule) and must leave exactly the predicted state, nothing outside `/state` changed but the
 * bookkeeping the applicator owns (L2-A10). Each value is filed under the requirement its
 * operations test, one case per requirement: a remove of a missing target L2-A13's, an `id:`
 * token L2-A14's, a path whose percent-decoding or dot segments would leave `/state` L2-A2's, every
 * other pointer L2-A5's (all applied or the profile unchanged).
 */
import type { ClauseId } from '../../spec/requirements.js';
import type { Dimension, Sample } from '../../spec/semantics/catalogue-model.js';
import { applyStateOperations, decodePointer, idOfToken, type OperationsOutcome, type StateOperation } from '../../spec/semantics/index.js';
import { fail } from '../kit/assert.js';
import type { CaseContext, CaseDef } from '../kit/types.js';
import { untouched } from '../level-2/support/profile-io.js';
import { type Applied, applyTo, expectNotRejected } from '../level-2/support/apply.js';
import { delta, profile } from '../level-2/support/builders.js';
import type { CatalogueCase } from './contract.js';
import { classSides, setAt, valuesOn } from './samples.js';

type Doc = Record<string, unknown>;

const CLAUSES: Readonly<Record<string, ClauseId>> = {
  'L2-A2': 'L2-A2.outside-state-rejected',
  'L2-A5': 'L2-A5.atomic',
  'L2-A13': 'L2-A13.remove-missing-warns',
  'L2-A14': 'L2-A14.id-pointers',
};

interface Value {
  classId: string;
  sample: Sample;
}

/** The profile the value's operations meet, and the delta that carries them. */
function documents(name: string, sample: Sample): { pre: Doc; ops: StateOperation[]; delta: Doc } {
  const pre = profile(name, { revision: 1, writeback: 'auto' });
  for (const [pointer, value] of valuesOn(sample, 'document')) setAt(pre, pointer, value);
  const d = delta(name, [], { revision: 1 });
  for (const [pointer, value] of valuesOn(sample, 'delta')) setAt(d, pointer, value);
  if (!Array.isArray(d['operations'])) d['operations'] = Object.values(d['operations'] as Doc);
  return { pre, ops: d['operations'] as StateOperation[], delta: d };
}

/** The requirement a value's operations test (see the module comment). */
function requirementOf(ops: readonly StateOperation[], predicted: OperationsOutcome): string {
  if (predicted.applied && predicted.warnings.length > 0) return 'L2-A13';
  const tokens = ops.flatMap((o) => decodePointer(o.path) ?? []);
  if (tokens.some((t) => idOfToken(t) !== undefined)) return 'L2-A14';
  if (ops.some((o) => /%|(^|\/)\.\.?(\/|$)/.test(o.path))) return 'L2-A2';
  return 'L2-A5';
}

/** `doc` without the members `keys` names. */
const without = (doc: unknown, keys: readonly string[]): Doc =>
  Object.fromEntries(Object.entries((doc ?? {}) as Doc).filter(([k]) => !keys.includes(k)));

/** A profile without the bookkeeping an application owns (revisions, timestamps: L2-A10; history: L2-A11). */
function judgedParts(doc: Doc | undefined): Doc {
  return {
    ...without(doc, ['metadata', 'history', 'state']),
    metadata: without(doc?.['metadata'], ['revision', 'updated_at']),
    state: without(doc?.['state'], ['revision', 'updated_at']),
  };
}

/** What is wrong with one applied value, or undefined. */
function wrongAnswer(a: Applied, predicted: OperationsOutcome): { expected: unknown; observed: unknown } | undefined {
  if (!predicted.applied) {
    const ok = a.result.outcome === 'rejected' && untouched(a.before, a.after);
    return ok ? undefined : { expected: { outcome: 'rejected', file: 'untouched', why: predicted.why }, observed: a.result.outcome };
  }
  const observed = judgedParts(a.read.doc);
  const expected = judgedParts(predicted.doc);
  return JSON.stringify(observed) === JSON.stringify(expected) ? undefined : { expected: expected['state'], observed: observed['state'] };
}

function operationPathCase(d: Dimension, requirement: string, values: readonly Value[]): CatalogueCase {
  const slug = d.id.replace(/[._]/g, '-');
  const def: CaseDef = {
    id: `${requirement}/catalogue-${slug}`,
    requirements: [requirement],
    clauses: [CLAUSES[requirement] as ClauseId],
    title: `${d.title}: every catalogue value whose operations ${requirement} judges, against the spec model's application (${values.length} values)`,
    expectation: {
      values: values.map((v) => ({ class: v.classId, operations: v.sample['delta:/operations/0'] ?? v.sample['delta:/operations'] })),
    },
    async run(ctx: CaseContext) {
      const wrong: Array<{ class: string; operations: unknown; expected: unknown; observed: unknown }> = [];
      let n = 0;
      for (const v of values) {
        const { pre, ops, delta: dl } = documents(`cat-ptr-${requirement.toLowerCase()}-${n++}`, v.sample);
        const predicted = applyStateOperations(pre, ops);
        const a = await applyTo(ctx, pre, dl);
        if (predicted.applied) expectNotRejected(a, `catalogue class ${v.classId}`, { outcome: 'applied', operations: ops });
        const w = wrongAnswer(a, predicted);
        if (w) wrong.push({ class: v.classId, operations: ops, ...w });
      }
      const first = wrong[0];
      if (first)
        fail(
          `${first.class}: the operations ${JSON.stringify(first.operations)} were not applied as the spec model predicts`,
          first.expected,
          wrong,
        );
    },
  };
  return { def, classes: [...new Set(values.map((v) => v.classId))] };
}

/** The operation-path cases, one per requirement its values test. */
export function operationPathCases(d: Dimension): CatalogueCase[] {
  if (d.id !== 'delta.operation-path') return [];
  const byRequirement = new Map<string, Value[]>();
  for (const c of d.classes) {
    if (c.exclusion !== undefined || c.schemaInvalid || !classSides(c).has('delta')) continue;
    for (const sample of c.values) {
      const { pre, ops } = documents('probe', sample);
      const r = requirementOf(ops, applyStateOperations(pre, ops));
      byRequirement.set(r, [...(byRequirement.get(r) ?? []), { classId: c.id, sample }]);
    }
  }
  return [...byRequirement.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([r, values]) => operationPathCase(d, r, values));
}

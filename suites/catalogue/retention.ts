/**
 * Catalogue cases of the retention rules at write time (L2-A9: caps, TTL, eviction, pinned): each
 * value is a profile holding the class's document-side lifecycle and state, a delta carrying the
 * class's operations (an `add /state/summary` when it names none, since retention runs on every
 * write), applied with approval under `writeback: auto` at the class's `now` (the suite's fixed
 * apply time when it names none). The prediction is the spec model's: the operations
 * (spec/semantics/operations.ts) then retention (spec/semantics/retention.ts retainState); the
 * facts and open threads on disk must be exactly the predicted ones, in order.
 */
import type { ClauseId } from '../../spec/requirements.js';
import type { Dimension, Sample } from '../../spec/semantics/catalogue-model.js';
import { applyStateOperations, retainState, retentionOf, type StateOperation } from '../../spec/semantics/index.js';
import { fail } from '../kit/assert.js';
import type { CaseContext, CaseDef } from '../kit/types.js';
import { applyTo, expectNotRejected, ids } from '../level-2/support/apply.js';
import { APPLY_NOW, delta, profile } from '../level-2/support/builders.js';
import type { CatalogueCase } from './contract.js';
import { classSides, setAt, valuesOn } from './samples.js';

type Doc = Record<string, unknown>;

/** The operation a value without its own carries: any write runs retention. */
const WRITE: StateOperation = { op: 'add', path: '/state/summary', value: 'written by the catalogue case' };

const CLAUSES: readonly ClauseId[] = ['L2-A9.caps', 'L2-A9.ttl', 'L2-A9.eviction', 'L2-A9.pinned'];

const WRITE_SIDES = new Set(['document', 'delta', 'params']);

function documents(name: string, sample: Sample): { pre: Doc; delta: Doc; ops: StateOperation[]; now: string } {
  const pre = profile(name, { revision: 1, writeback: 'auto' });
  for (const [pointer, value] of valuesOn(sample, 'document')) setAt(pre, pointer, value);
  const d = delta(name, [{ ...WRITE }], { revision: 1 });
  for (const [pointer, value] of valuesOn(sample, 'delta')) setAt(d, pointer, value);
  const now = valuesOn(sample, 'params').find(([p]) => p === '/now')?.[1];
  return { pre, delta: d, ops: d['operations'] as StateOperation[], now: typeof now === 'string' ? now : APPLY_NOW };
}

function retentionCase(d: Dimension): CatalogueCase | undefined {
  const classes = d.classes.filter(
    (c) => c.exclusion === undefined && !c.schemaInvalid && [...classSides(c)].every((s) => WRITE_SIDES.has(s)),
  );
  if (classes.length === 0) return undefined;
  const slug = d.id.replace(/[._]/g, '-');
  const def: CaseDef = {
    id: `L2-A9/catalogue-${slug}`,
    requirements: ['L2-A9'],
    clauses: CLAUSES,
    title: `${d.title}: every catalogue class applied at write time, the state on disk against the spec model's retention (${classes.length} classes)`,
    expectation: { classes: classes.map((c) => ({ id: c.id, predicts: c.predicts })) },
    async run(ctx: CaseContext) {
      const wrong: unknown[] = [];
      let n = 0;
      for (const c of classes) {
        for (const sample of c.values) {
          const { pre, delta: dl, ops, now } = documents(`cat-ret-${slug}-${n++}`.slice(0, 64), sample);
          const applied = applyStateOperations(pre, ops);
          if (!applied.applied)
            throw new Error(`suite bug: catalogue class ${c.id} holds a delta the spec model does not apply: ${applied.why}`);
          const state = retainState((applied.doc['state'] ?? {}) as Doc, retentionOf(pre['spec']), now);
          const a = await applyTo(ctx, pre, dl, { now });
          expectNotRejected(a, `catalogue class ${c.id}`, { outcome: 'applied' });
          const expected = { facts: ids({ state }), open_threads: ids({ state }, 'open_threads') };
          const observed = { facts: ids(a.read.doc), open_threads: ids(a.read.doc, 'open_threads') };
          if (JSON.stringify(expected) !== JSON.stringify(observed)) wrong.push({ class: c.id, now, expected, observed });
        }
      }
      const first = wrong[0] as { class: string; expected: unknown } | undefined;
      if (first) fail(`${first.class}: the entries kept at write time are not those retention keeps`, first.expected, wrong);
    },
  };
  return { def, classes: classes.map((c) => c.id) };
}

/** The write-time retention case of a dimension L2-A9 files. */
export function retentionCases(d: Dimension): CatalogueCase[] {
  if (!d.requirements.includes('L2-A9')) return [];
  const c = retentionCase(d);
  return c ? [c] : [];
}

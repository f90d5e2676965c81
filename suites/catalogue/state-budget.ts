/**
 * Catalogue cases of the state injection budget (L2-S4): each value is the minimal profile with the
 * class's state and budget fields and the permissive policy with its budget fields; the session's
 * prompt is read for which state entries it injects (an entry counts where its whole text appears).
 * The effective byte budget is the smaller of profile and policy; the entries injected must fit it
 * on their UTF-8 text alone (SPEC §3.2 step 7: whole entries dropped, never truncated), pinned
 * entries must all be injected, and a token budget of 0 admits no unpinned entry (any entry's text
 * is at least one token; larger token budgets depend on the harness's tokenizer and are not judged
 * here).
 */
import type { ClauseId } from '../../spec/requirements.js';
import type { Dimension, Sample } from '../../spec/semantics/catalogue-model.js';
import { fail } from '../kit/assert.js';
import type { CaseContext, CaseDef } from '../kit/types.js';
import { instantiatePath, requireObservable, requireSession } from '../support/index.js';
import { atProfilePolicy, type CatalogueCase } from './contract.js';
import { generatedProfile, policyFrom, profileFrom } from './samples.js';

type Doc = Record<string, unknown>;

const CLAUSES: readonly ClauseId[] = ['L2-S4.max-state-tokens', 'L2-S4.max-state-bytes', 'L2-S4.whole-entries', 'L2-S4.pinned'];

const smaller = (a: unknown, b: unknown): number | undefined => {
  const ns = [a, b].filter((x): x is number => typeof x === 'number');
  return ns.length === 0 ? undefined : Math.min(...ns);
};

/** The state entries a profile holds (facts and preferences), with whether each is pinned. */
function entriesOf(doc: Doc): Array<{ id: string; text: string; pinned: boolean }> {
  const state = (doc['state'] ?? {}) as Doc;
  return ['facts', 'preferences'].flatMap((k) =>
    Array.isArray(state[k])
      ? (state[k] as Doc[]).map((e) => ({ id: String(e['id']), text: String(e['text']), pinned: e['pinned'] === true }))
      : [],
  );
}

/** What is wrong with the injected entries of one value, or undefined. */
function wrongInjection(doc: Doc, sample: Sample, prompt: string): { expected: unknown; observed: unknown } | undefined {
  const budget = ((doc['spec'] as Doc)['context'] as Doc | undefined)?.['budget'] as Doc | undefined;
  const policy = policyFrom(sample).budgets as Doc;
  const bytes = smaller(budget?.['max_state_bytes'], policy['max_state_bytes']);
  const tokens = smaller(budget?.['max_state_tokens'], policy['max_state_tokens']);
  const entries = entriesOf(doc);
  const injected = entries.filter((e) => prompt.includes(e.text));
  const observed = { injected: injected.map((e) => e.id) };
  const lostPinned = entries.filter((e) => e.pinned && !injected.includes(e));
  if (lostPinned.length > 0) return { expected: { injected: { including: lostPinned.map((e) => e.id) } }, observed };
  const unpinned = injected.filter((e) => !e.pinned);
  if (unpinned.length === 0) return undefined;
  const used = injected.reduce((n, e) => n + Buffer.byteLength(e.text, 'utf8'), 0);
  if (bytes !== undefined && used > bytes) return { expected: { utf8BytesAtMost: bytes }, observed: { ...observed, utf8Bytes: used } };
  if (tokens === 0) return { expected: { unpinnedInjected: [], max_state_tokens: 0 }, observed };
  return undefined;
}

function stateBudgetCase(d: Dimension): CatalogueCase | undefined {
  const classes = d.classes.filter(atProfilePolicy);
  if (classes.length === 0) return undefined;
  const slug = d.id.replace(/[._]/g, '-');
  const def: CaseDef = {
    id: `L2-S4/catalogue-${slug}`,
    requirements: ['L2-S4'],
    clauses: CLAUSES,
    title: `${d.title}: every catalogue class at the profile-policy meeting point, the injected entries against the effective budget (${classes.length} classes)`,
    expectation: { classes: classes.map((c) => ({ id: c.id, predicts: c.predicts })) },
    async run(ctx: CaseContext) {
      const wrong: unknown[] = [];
      let n = 0;
      let judged = 0;
      for (const c of classes) {
        for (const sample of c.values) {
          const doc = profileFrom(`cat-${slug}-${n++}`.slice(0, 64), sample);
          const policy = policyFrom(sample);
          const session = requireSession(await instantiatePath(ctx, generatedProfile(ctx, doc), policy), `catalogue class ${c.id}`);
          // The effective budget is L1-I3's: a session reporting another one than the smaller side is judged there, not here.
          const effective = session.effective.budgets as Record<string, unknown>;
          const budget = ((doc['spec'] as Doc)['context'] as Doc | undefined)?.['budget'] as Doc | undefined;
          const policyBudgets = policy.budgets as Doc;
          const sides = ['max_state_bytes', 'max_state_tokens'].filter(
            (k) => (smaller(budget?.[k], policyBudgets[k]) ?? null) !== (effective[k] ?? null),
          );
          if (sides.length > 0) {
            ctx.note('budget_judged_elsewhere', { class: c.id, reported: sides.map((k) => [k, effective[k] ?? null]) });
            continue;
          }
          judged++;
          const w = wrongInjection(doc, sample, session.prompt.text);
          if (w) wrong.push({ class: c.id, ...w });
        }
      }
      requireObservable(judged > 0, 'no value reported the effective state budget the spec gives it (L1-I3 judges that)');
      const first = wrong[0] as { class: string; expected: unknown } | undefined;
      if (first) fail(`${first.class}: the state injected does not keep within the effective state budget`, first.expected, wrong);
    },
  };
  return { def, classes: classes.map((c) => c.id) };
}

/** The injection-budget case of a dimension L2-S4 files at the profile-policy meeting point. */
export function stateBudgetCases(d: Dimension): CatalogueCase[] {
  if (d.id !== 'state.injection-budget') return [];
  const c = stateBudgetCase(d);
  return c ? [c] : [];
}

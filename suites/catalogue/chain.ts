/**
 * Catalogue cases of resolving `extends` (L3-E1: bases resolved left to right, a missing base an
 * error, cycles an error, depth capped at 8): each value is a derived profile with the class's
 * `extends` list and, for the first base, the class's base-side `extends`; the case writes a base
 * for every name the chain references except `nowhere`, the catalogue's missing base (each name
 * suffixed per value, so values never meet). The prediction is the spec model's composition
 * (spec/semantics/merge.ts composeProfile): where it composes, the derived profile must
 * instantiate; where it refuses (a missing base, a cycle, more than 8 links), instantiating must be
 * refused. Digest pins are L3-G2's and stay out.
 */
import type { Dimension, Sample } from '../../spec/semantics/catalogue-model.js';
import { composeProfile } from '../../spec/semantics/index.js';
import { fail } from '../kit/assert.js';
import type { CaseContext, CaseDef } from '../kit/types.js';
import { requireDiscovered } from '../level-3/lib/preconditions.js';
import { briefIssues, instantiateName, minimalProfile, removeProfiles } from '../support/index.js';
import type { CatalogueCase } from './contract.js';
import { classSides, generatedProfile, valuesOn } from './samples.js';

type Doc = Record<string, unknown>;
type Ref = { name: string } & Record<string, unknown>;

/** The catalogue's name for a base no root holds. */
const MISSING = 'nowhere';

const refsOf = (v: unknown): Ref[] => (Array.isArray(v) ? (v as Ref[]) : []);

/** The chain's documents (derived first), every name suffixed; the missing base is not written. */
function chainOf(sample: Sample, suffix: string): { derived: Doc; bases: Doc[] } {
  const own = valuesOn(sample, 'profile');
  const derivedName = String(own.find(([p]) => p === '/metadata/name')?.[1] ?? 'derived');
  const rename = (r: Ref): Ref => ({ ...r, name: `${r.name}-${suffix}` });
  const refs = refsOf(own.find(([p]) => p === '/extends')?.[1]);
  const baseRefs = refsOf(valuesOn(sample, 'base').find(([p]) => p === '/extends')?.[1]);
  const derived = minimalProfile(
    `${derivedName}-${suffix}`,
    {},
    refs.length > 0 || own.some(([p]) => p === '/extends') ? { extends: refs.map(rename) } : {},
  );
  const names = [...new Set([...refs, ...baseRefs].map((r) => r.name))].filter((n) => n !== MISSING && n !== derivedName);
  const bases = names.map((n) => {
    const extra = refs[0]?.name === n && baseRefs.length > 0 ? { extends: baseRefs.map(rename) } : {};
    return minimalProfile(`${n}-${suffix}`, {}, extra);
  });
  return { derived, bases };
}

/** The spec model's answer: does the chain compose? */
function composes(derived: Doc, bases: readonly Doc[]): boolean {
  const byName = new Map(bases.map((b) => [String((b['metadata'] as Doc)['name']), b]));
  try {
    composeProfile(derived, (name) => byName.get(name));
    return true;
  } catch {
    return false;
  }
}

export function chainCases(d: Dimension): CatalogueCase[] {
  if (d.id !== 'extends.chain') return [];
  const classes = d.classes.filter(
    (c) =>
      c.exclusion === undefined &&
      !c.schemaInvalid &&
      [...classSides(c)].every((s) => s === 'profile' || s === 'base') &&
      c.values.every((v) =>
        [...valuesOn(v, 'profile'), ...valuesOn(v, 'base')].every(
          ([p, x]) => p !== '/extends' || refsOf(x).every((r) => r.digest === undefined),
        ),
      ),
  );
  if (classes.length === 0) return [];
  const def: CaseDef = {
    id: 'L3-E1/catalogue-extends-chain',
    requirements: ['L3-E1'],
    clauses: ['L3-E1.resolve', 'L3-E1.cycles', 'L3-E1.depth-cap'],
    title: `${d.title}: every catalogue chain resolved or refused as the spec model composes it (${classes.length} classes)`,
    expectation: { classes: classes.map((c) => ({ id: c.id, predicts: c.predicts })) },
    async run(ctx: CaseContext) {
      const wrong: unknown[] = [];
      let n = 0;
      for (const c of classes) {
        for (const v of c.values) {
          const { derived, bases } = chainOf(v, `c${n++}`);
          const written = [derived, ...bases].map((doc) => generatedProfile(ctx, doc));
          // Discovery is L1-D1's: a harness that lists none of these has nothing for extends to resolve.
          await requireDiscovered(
            ctx,
            [derived, ...bases].map((doc) => String((doc['metadata'] as Doc)['name'])),
          );
          const expected = composes(derived, bases) ? 'instantiated' : 'rejected';
          const out = await instantiateName(ctx, String((derived['metadata'] as Doc)['name']));
          removeProfiles(written);
          if (out.status !== expected)
            wrong.push({
              class: c.id,
              extends: derived['extends'],
              expected,
              observed: out.status === 'rejected' ? briefIssues(out.errors) : out.status,
            });
        }
      }
      const first = wrong[0] as { class: string; expected: string } | undefined;
      if (first)
        fail(
          `${first.class}: the chain was not ${first.expected === 'rejected' ? 'refused' : 'resolved'} as the spec model composes it`,
          { status: first.expected },
          wrong,
        );
    },
  };
  return [{ def, classes: classes.map((c) => c.id) }];
}

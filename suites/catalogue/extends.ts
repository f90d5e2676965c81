/**
 * Catalogue cases at the base-derived meeting point: a class with base fields becomes a child
 * profile that extends a base holding them (the child the class's profile fields, the policy its
 * policy fields). The child's whole effective contract is judged against the prediction for the
 * composed profile (spec/semantics/merge.ts composeProfile, then spec/semantics/contract.ts), and
 * the composed document instantiated on its own (the flat twin) takes a place it shares as its own
 * narrowing failure (L1-I3), as the hand-written L3-E2 cases do. A dimension filed under L3-E2
 * ("narrowing applied to the merged result") is judged under it; any other under L3-E1 (the
 * merge itself: arrays replace, null deletes, objects deep-merge), a widening against the
 * prediction for the merged document being a wrong merge. The chain's own classes (missing,
 * repeated or cyclic bases, pins) are about resolving `extends`, not a merged value.
 */
import type { HarnessPolicyT } from '../../protocol/messages.js';
import type { ClauseId } from '../../spec/requirements.js';
import type { Dimension, EquivalenceClass, Sample } from '../../spec/semantics/catalogue-model.js';
import { type ContractFinding, composeProfile, contractFindings, predictContract } from '../../spec/semantics/index.js';
import type { CaseContext, CaseDef } from '../kit/types.js';
import { requireDiscovered } from '../level-3/lib/preconditions.js';
import { instantiateName, probesOf, removeProfiles, requireSession, withTwinAttribution } from '../support/index.js';
import { type CatalogueCase, verdict } from './contract.js';
import { classSides, generatedProfile, policyFrom, profileFrom } from './samples.js';

type Doc = Record<string, unknown>;

const CLAUSES: Readonly<Record<string, readonly ClauseId[]>> = {
  'L3-E2': ['L3-E2.merged-result'],
  'L3-E1': ['L3-E1.deep-merge', 'L3-E1.arrays-replace', 'L3-E1.null-deletes'],
};

function atBaseDerived(c: EquivalenceClass): boolean {
  if (c.exclusion !== undefined || c.schemaInvalid) return false;
  if (c.values.some((v) => Object.keys(v).some((k) => k.endsWith(':source')))) return false;
  const sides = classSides(c);
  return sides.has('base') && [...sides].every((s) => s === 'base' || s === 'profile' || s === 'policy');
}

async function composeValue(ctx: CaseContext, n: number, sample: Sample, requirement: string): Promise<ContractFinding[]> {
  const base = profileFrom(`cat-base-${n}`, sample, 'base');
  const child = profileFrom(`cat-derived-${n}`, sample);
  child['extends'] = [{ name: `cat-base-${n}` }];
  const byName = new Map<string, Doc>([[`cat-base-${n}`, base]]);
  const composed = composeProfile(child, (name) => byName.get(name));
  const flat: Doc = { ...composed, metadata: { ...(composed['metadata'] as Doc), name: `cat-flat-${n}` } };
  delete flat['extends'];
  const written = [base, child, flat].map((d) => generatedProfile(ctx, d));
  await requireDiscovered(ctx, [`cat-base-${n}`, `cat-derived-${n}`, `cat-flat-${n}`]);
  const policy: HarnessPolicyT = policyFrom(sample);
  const inherited = requireSession(await instantiateName(ctx, `cat-derived-${n}`, policy), 'the derived profile').effective;
  const twin = requireSession(await instantiateName(ctx, `cat-flat-${n}`, policy), 'the composed profile standalone').effective;
  removeProfiles(written);
  const prediction = predictContract({ spec: composed['spec'], policy, trust: 'project' });
  const opts = { workspace: ctx.workspace.dir };
  const findings = contractFindings(inherited, prediction, { ...opts, narrowing: requirement });
  return withTwinAttribution(findings, contractFindings(twin, prediction, { ...opts, probes: probesOf(findings) }));
}

/**
 * The base-derived cases, one per requirement over every dimension (a merge is one rule whatever
 * field it carries, so one case per meeting point and requirement): L3-E2 for the classes of a
 * dimension filed under it, L3-E1 for the rest.
 */
export function extendsCases(dimensions: readonly Dimension[]): CatalogueCase[] {
  const byRequirement = new Map<string, EquivalenceClass[]>();
  for (const d of dimensions) {
    // The chain's own classes (bases missing, repeated, cyclic, pinned) are about resolving `extends`, not about a merged value.
    if (d.id === 'extends.chain') continue;
    const requirement = d.requirements.includes('L3-E2') ? 'L3-E2' : 'L3-E1';
    byRequirement.set(requirement, [...(byRequirement.get(requirement) ?? []), ...d.classes.filter(atBaseDerived)]);
  }
  return [...byRequirement.entries()]
    .filter(([, classes]) => classes.length > 0)
    .map(([requirement, classes]) => {
      const def: CaseDef = {
        id: `${requirement}/catalogue-base-derived`,
        requirements: [requirement],
        clauses: CLAUSES[requirement] as readonly ClauseId[],
        title: `Every catalogue class at the base-derived meeting point filed under ${requirement}: the derived profile's whole contract against the composed one's (${classes.length} classes)`,
        expectation: { classes: classes.map((c) => ({ id: c.id, predicts: c.predicts })) },
        async run(ctx) {
          let n = 0;
          const judged: Array<{ classId: string; findings: ContractFinding[] }> = [];
          for (const c of classes)
            for (const v of c.values) judged.push({ classId: c.id, findings: await composeValue(ctx, n++, v, requirement) });
          verdict(ctx, judged, requirement, ['']);
        },
      };
      return { def, classes: classes.map((c) => c.id) };
    });
}

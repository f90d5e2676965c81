/**
 * Catalogue cases at the parent-child meeting point (L3-B1).
 *
 * The ceiling: a class whose samples set parent fields becomes a delegation. The parent is a lead
 * profile whose own request carries the parent values (its effective contract is observed, not
 * assumed: a parent `/hosts` is asked for as the lead's `allow_hosts`, and so on), allowed to
 * delegate to the child, which is the minimal profile with the class's profile fields; the policy
 * is the permissive one with the class's policy fields. The subagent's whole contract is judged
 * against the prediction for its profile under the observed parent contract, and a place its
 * standalone twin shares is the twin's failure (L1-I3), as the hand-written L3-B1 cases do.
 *
 * The allow list: a class of `subagents.allow` about the profile side alone is a lead with that
 * list delegating to the profile `helper`, which must be denied (`delegation-denied`) unless the
 * list names `helper` exactly.
 */
import type { HarnessPolicyT } from '../../protocol/messages.js';
import type { ClauseId } from '../../spec/requirements.js';
import type { Dimension, EquivalenceClass, Sample } from '../../spec/semantics/catalogue-model.js';
import { type ContractFinding, contractFindings, predictContract } from '../../spec/semantics/index.js';
import { placeAt } from '../../spec/document/schema-bounds.js';
import { fail } from '../kit/assert.js';
import type { CaseContext, CaseDef } from '../kit/types.js';
import { requireDiscovered } from '../level-3/lib/preconditions.js';
import {
  briefIssues,
  instantiateName,
  minimalProfile,
  probesOf,
  removeProfiles,
  requireSession,
  withTwinAttribution,
} from '../support/index.js';
import { type CatalogueCase, verdict } from './contract.js';
import { classSides, generatedProfile, policyFrom, profileFrom, specOf, valuesOn } from './samples.js';

const RUNTIME_BUDGETS = new Set(['max_turns', 'max_tool_calls', 'timeout_seconds', 'max_cost_usd']);

/** Where a lead profile asks for the parent contract's value at `pointer`, or undefined when no request field sets it. */
function leadPointer(pointer: string): string | undefined {
  const [, head, key] = pointer.split('/');
  if (head === 'permissions' && key) return `/spec/permissions/${key}`;
  if (head === 'rules') return '/spec/permissions/rules';
  if (head === 'tools') return '/spec/tools/allow';
  if (head === 'hosts') return '/spec/permissions/allow_hosts';
  if (head === 'filesystem' && key) return `/spec/permissions/filesystem/${key}`;
  if (head === 'memory' && (key === 'mode' || key === 'scopes' || key === 'stores')) return `/spec/memory/${key}`;
  if (head === 'budgets' && key) return RUNTIME_BUDGETS.has(key) ? `/spec/runtime/${key}` : `/spec/context/budget/${key}`;
  return undefined;
}

/** A class delegated under a ceiling: valid, not excluded, with parent fields every one of which a lead can ask for. */
function atParentChild(d: Dimension, c: EquivalenceClass): boolean {
  if (c.exclusion !== undefined || c.schemaInvalid || d.id.startsWith('subagents.')) return false;
  const sides = classSides(c);
  if (!sides.has('parent') || [...sides].some((s) => s !== 'parent' && s !== 'profile' && s !== 'policy')) return false;
  return c.values.every((v) => valuesOn(v, 'parent').every(([p]) => leadPointer(p) !== undefined));
}

async function delegateValue(ctx: CaseContext, n: number, sample: Sample): Promise<ContractFinding[]> {
  const lead = `cat-lead-${n}`;
  const child = `cat-child-${n}`;
  const leadDoc = minimalProfile(lead);
  for (const [p, v] of valuesOn(sample, 'parent')) placeAt('profile', leadPointer(p) as string, structuredClone(v), leadDoc);
  placeAt('profile', '/spec/runtime/subagents/allow', [child], leadDoc);
  const childDoc = profileFrom(child, sample);
  const policy: HarnessPolicyT = policyFrom(sample);
  const written = [leadDoc, childDoc].map((doc) => generatedProfile(ctx, doc));
  await requireDiscovered(ctx, [lead, child]);
  const parent = requireSession(await instantiateName(ctx, lead, policy), 'the lead (parent) profile');
  const standalone = requireSession(await instantiateName(ctx, child, policy), 'the subagent profile standalone').effective;
  const sub = requireSession(
    await ctx.adapter.call('instantiate_subagent', { parent_session_id: parent.session_id, profile: { name: child } }),
    'delegation to an allowed subagent',
  ).effective;
  removeProfiles(written);
  const spec = specOf(childDoc);
  const delegated = contractFindings(sub, predictContract({ spec, policy, parent: parent.effective, trust: 'project' }), {
    workspace: ctx.workspace.dir,
  });
  const twin = contractFindings(standalone, predictContract({ spec, policy, trust: 'project' }), {
    workspace: ctx.workspace.dir,
    probes: probesOf(delegated),
  });
  return withTwinAttribution(delegated, twin);
}

function ceilingCase(d: Dimension, classes: readonly EquivalenceClass[]): CatalogueCase {
  const slug = d.id.replace(/[._]/g, '-');
  const def: CaseDef = {
    id: `L3-B1/catalogue-${slug}`,
    requirements: ['L3-B1'],
    clauses: ['L3-B1.parent-ceiling'],
    title: `${d.title}: every catalogue class at the parent-child meeting point, the subagent's whole contract under its parent's (${classes.length} classes)`,
    expectation: { classes: classes.map((c) => ({ id: c.id, predicts: c.predicts })) },
    async run(ctx) {
      let n = 0;
      const judged: Array<{ classId: string; findings: ContractFinding[] }> = [];
      for (const c of classes) for (const v of c.values) judged.push({ classId: c.id, findings: await delegateValue(ctx, n++, v) });
      verdict(ctx, judged, 'L3-B1', ['']);
    },
  };
  return { def, classes: classes.map((c) => c.id) };
}

/** The allow-list classes about the profile side alone. */
function allowListCase(d: Dimension): CatalogueCase | undefined {
  const classes = d.classes.filter(
    (c) => c.exclusion === undefined && !c.schemaInvalid && [...classSides(c)].every((s) => s === 'profile') && c.values.length > 0,
  );
  if (classes.length === 0) return undefined;
  const clauses: ClauseId[] = ['L3-B1.subagents'];
  const def: CaseDef = {
    id: 'L3-B1/catalogue-subagents-allow',
    requirements: ['L3-B1'],
    clauses,
    title: `${d.title}: a lead with each catalogue class's allow list delegates to helper, denied unless the list names it exactly (${classes.length} classes)`,
    expectation: { classes: classes.map((c) => ({ id: c.id, predicts: c.predicts })) },
    async run(ctx) {
      generatedProfile(ctx, minimalProfile('helper'));
      let n = 0;
      const leads = classes.flatMap((c) => c.values.map((v) => ({ c, name: `cat-allow-lead-${n++}`, sample: v })));
      for (const l of leads) generatedProfile(ctx, profileFrom(l.name, l.sample));
      await requireDiscovered(ctx, ['helper', ...leads.map((l) => l.name)]);
      const wrong: unknown[] = [];
      for (const l of leads) {
        const allow = valuesOn(l.sample, 'profile').find(([p]) => p === '/spec/runtime/subagents/allow')?.[1];
        const allowed = Array.isArray(allow) && allow.includes('helper');
        const parent = requireSession(await instantiateName(ctx, l.name), `lead with the allow list of ${l.c.id}`);
        const out = await ctx.adapter.call('instantiate_subagent', { parent_session_id: parent.session_id, profile: { name: 'helper' } });
        if (allowed) requireSession(out, `delegation to helper, which ${l.c.id} allows`);
        else if (out.status !== 'rejected' || !out.errors.some((e) => e.category === 'delegation-denied'))
          wrong.push({ class: l.c.id, allow, observed: out.status === 'rejected' ? briefIssues(out.errors) : out.status });
      }
      const first = wrong[0] as { class: string } | undefined;
      if (first)
        fail(
          `${first.class}: delegation to helper, which the allow list does not name, was not denied`,
          { category: 'delegation-denied' },
          wrong,
        );
    },
  };
  return { def, classes: classes.map((c) => c.id) };
}

/** The parent-child cases of one dimension. */
export function delegationCases(d: Dimension): CatalogueCase[] {
  if (d.id === 'subagents.allow') return [allowListCase(d) ?? []].flat();
  const classes = d.classes.filter((c) => atParentChild(d, c));
  return classes.length === 0 ? [] : [ceilingCase(d, classes)];
}

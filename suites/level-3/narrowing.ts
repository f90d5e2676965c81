/**
 * L3-E2: the narrowing rule applies to the MERGED result (SPEC 4 rule 7).
 *
 * Reading (INTERPRETATIONS.md, Level 3): the merge happens first, so a child's value replaces the
 * base's; the merged request is then intersected with policy. What a child can never do is get past
 * the policy because a base was narrowed first and the child's raw value was laid over the narrowed
 * result. So an inheriting profile's whole effective contract is judged against the prediction for
 * its composed profile (spec/semantics/merge.ts composeProfile, spec/semantics/contract.ts): nothing
 * wider, anywhere in the answer. A harness that keeps the base's narrower value is stricter and
 * passes (noted).
 *
 * The merged document is also instantiated standalone (the "flat" equivalent) in the same case: a
 * place where the flat twin is as wide as the inheriting child is a harness that does not narrow it
 * for any profile, an L1-I3 failure, and leaves the case inconclusive instead of failing E2.
 */
import type { EffectiveContractT, HarnessPolicyT } from '../../protocol/messages.js';
import { composeProfile, contractFindings, predictContract } from '../../spec/semantics/index.js';
import type { CaseContext, CaseDef } from '../kit/types.js';
import { requireDiscovered } from './lib/preconditions.js';
import {
  expectContract,
  instantiateName,
  minimalProfile,
  permissivePolicy,
  probesOf,
  rejectionCause,
  requireObservable,
  requireSession,
  STANDARD_TOOLS,
  withTwinAttribution,
  writeProjectProfile,
} from '../support/index.js';

type Doc = Record<string, unknown>;

/** Write the chain's documents and the flat twin; `docs[0]` is the child. */
async function writeChain(ctx: CaseContext, docs: Doc[], flat: Doc): Promise<void> {
  for (const d of [...docs, flat]) writeProjectProfile(ctx, d);
  const names = [...docs, flat].map((d) => String((d['metadata'] as { name: string }).name));
  await requireDiscovered(ctx, names);
}

/**
 * The E2 verdict: the inheriting child's whole answer against the prediction for its composed
 * profile, a place the flat twin shares being the twin's (L1-I3) failure.
 */
function expectComposed(
  ctx: CaseContext,
  docs: Doc[],
  policy: HarnessPolicyT,
  observed: { inherited: EffectiveContractT; flat: EffectiveContractT },
  dimensions: string[],
  what: string,
): void {
  const byName = new Map(docs.map((d) => [String((d['metadata'] as { name: string }).name), d]));
  const composed = composeProfile(docs[0]!, (name) => byName.get(name));
  const prediction = predictContract({ spec: composed['spec'], policy, trust: 'project' });
  const inherited = contractFindings(observed.inherited, prediction, { narrowing: 'L3-E2' });
  // The twin is judged at the subject's probe paths and hosts (probesOf), so a shared defect shows at the same places.
  const flat = contractFindings(observed.flat, prediction, { probes: probesOf(inherited) });
  expectContract(ctx, withTwinAttribution(inherited, flat), { requirements: ['L3-E2'], dimensions, what });
}

const POLICY_ASK: HarnessPolicyT = permissivePolicy({
  permissions: { default: 'allow', shell: 'ask', edit: 'ask', network: 'ask', rules: [] },
});

const childAllowOverBaseDeny: CaseDef = {
  id: 'L3-E2/child-allow-over-base-deny',
  requirements: ['L3-E2'],
  clauses: ['L3-E2.merged-result'],
  title: 'Behavioural test 11: base shell/edit/network deny, child allow, policy ask: merged effective never above policy',
  fixtures: ['l3-e2-permissions'],
  expectation: { inherited: 'the whole contract within the prediction for the merged profile: shell, edit, network at most ask' },
  async run(ctx) {
    const deny = { shell: 'deny', edit: 'deny', network: 'deny' };
    const allow = { shell: 'allow', edit: 'allow', network: 'allow' };
    const docs = [
      minimalProfile('e2-pm-child', { permissions: allow }, { extends: [{ name: 'e2-pm-base' }] }),
      minimalProfile('e2-pm-base', { permissions: deny }),
    ];
    await writeChain(ctx, docs, minimalProfile('e2-pm-flat', { permissions: allow }));
    const flat = requireSession(await instantiateName(ctx, 'e2-pm-flat', POLICY_ASK), 'flat equivalent').effective;
    const inherited = requireSession(await instantiateName(ctx, 'e2-pm-child', POLICY_ASK), 'inheriting child').effective;
    // Which value the merge produced: recorded for the report (behavioural test 11 asks for it).
    ctx.note('merged_effective', inherited.permissions);
    ctx.note('flat_effective', flat.permissions);
    expectComposed(ctx, docs, POLICY_ASK, { inherited, flat }, ['/permissions'], 'inherited profile against its merged document');
  },
};

const inheritedValueNarrowed: CaseDef = {
  id: 'L3-E2/inherited-allow-narrowed',
  requirements: ['L3-E2'],
  clauses: ['L3-E2.merged-result'],
  title: 'Permissions a child inherits unchanged from its base (allow) are narrowed to policy (ask) like its own',
  fixtures: ['l3-e2-inherited'],
  expectation: { inherited: 'the whole contract within the prediction for the merged profile (policy ask for shell, edit, network)' },
  async run(ctx) {
    const allow = { shell: 'allow', edit: 'allow', network: 'allow' };
    // The child sets no permission of its own: everything comes from the base through the merge.
    const docs = [
      minimalProfile('e2-ih-child', {}, { extends: [{ name: 'e2-ih-base' }] }),
      minimalProfile('e2-ih-base', { permissions: allow }),
    ];
    await writeChain(ctx, docs, minimalProfile('e2-ih-flat', { permissions: allow }));
    const flat = requireSession(await instantiateName(ctx, 'e2-ih-flat', POLICY_ASK), 'flat equivalent').effective;
    const inherited = requireSession(await instantiateName(ctx, 'e2-ih-child', POLICY_ASK), 'inheriting child').effective;
    ctx.note('merged_effective', inherited.permissions);
    expectComposed(ctx, docs, POLICY_ASK, { inherited, flat }, ['/permissions'], 'inherited permissions');
  },
};

const nullDeleteStaysNarrowed: CaseDef = {
  id: 'L3-E2/null-delete-cannot-exceed-policy',
  requirements: ['L3-E2'],
  clauses: ['L3-E2.merged-result'],
  title: "A child's null deleting the base's shell: deny leaves shell at most what policy alone gives",
  fixtures: ['l3-e2-null-delete'],
  expectation: {
    inherited: 'the whole contract within the prediction for the merged profile (no shell key: policy ask); deny also accepted',
  },
  async run(ctx) {
    const docs = [
      minimalProfile('e2-nd-child', { permissions: { shell: null } }, { extends: [{ name: 'e2-nd-base' }] }),
      minimalProfile('e2-nd-base', { permissions: { shell: 'deny' } }),
    ];
    await writeChain(ctx, docs, minimalProfile('e2-nd-flat', { permissions: {} }));
    const flat = requireSession(await instantiateName(ctx, 'e2-nd-flat', POLICY_ASK), 'flat equivalent').effective;
    const out = await instantiateName(ctx, 'e2-nd-child', POLICY_ASK);
    requireObservable(
      out.status === 'instantiated',
      'adapter rejects a null in a child layer (judged by L3-E1/null-deletes-key)',
      out.status === 'rejected' ? rejectionCause('child with a null', out.errors) : undefined,
    );
    ctx.note('merged_shell', out.effective.permissions.shell);
    expectComposed(
      ctx,
      docs,
      POLICY_ASK,
      { inherited: out.effective, flat },
      ['/permissions/shell'],
      'shell after deleting an inherited deny with null',
    );
  },
};

const toolsAndBounds: CaseDef = {
  id: 'L3-E2/tools-hosts-budgets-on-merged-result',
  requirements: ['L3-E2'],
  clauses: ['L3-E2.merged-result'],
  title: 'Tools, hosts and budgets of an inheriting child are narrowed as one merged request, never past policy',
  fixtures: ['l3-e2-tools-bounds'],
  expectation: { inherited: 'the whole contract within the prediction for the merged profile (tools, hosts, budgets named first)' },
  async run(ctx) {
    // The policy grants neither shell nor web/fetch, allows one host and caps turns at 30.
    const policy = permissivePolicy({
      tools: { available: [...STANDARD_TOOLS], grant: ['read', 'search', 'edit', 'git/diff'] },
      network: { allow_hosts: ['api.example.com'] },
      budgets: { max_turns: 30, max_tool_calls: 100 },
    });
    const narrow = {
      tools: { allow: ['read'] },
      permissions: { allow_hosts: ['api.example.com'] },
      runtime: { max_turns: 5, max_tool_calls: 10 },
    };
    const wide = {
      tools: { allow: ['read', 'edit', 'shell', 'web/fetch'] },
      permissions: { allow_hosts: ['api.example.com', 'evil.example.com'] },
      runtime: { max_turns: 500, max_tool_calls: 5000 },
    };
    const docs = [minimalProfile('e2-tb-child', wide, { extends: [{ name: 'e2-tb-base' }] }), minimalProfile('e2-tb-base', narrow)];
    await writeChain(ctx, docs, minimalProfile('e2-tb-flat', wide));
    const flat = requireSession(await instantiateName(ctx, 'e2-tb-flat', policy), 'flat equivalent').effective;
    const inherited = requireSession(await instantiateName(ctx, 'e2-tb-child', policy), 'inheriting child').effective;
    ctx.note('merged_effective', { tools: inherited.tools, hosts: inherited.hosts, budgets: inherited.budgets });
    expectComposed(ctx, docs, policy, { inherited, flat }, ['/tools', '/hosts', '/budgets'], 'inherited tools, hosts and budgets');
  },
};

export const narrowingCases: CaseDef[] = [childAllowOverBaseDeny, inheritedValueNarrowed, nullDeleteStaysNarrowed, toolsAndBounds];

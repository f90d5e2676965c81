/**
 * L3-E2: the narrowing rule applies to the MERGED result (SPEC 4 rule 7).
 *
 * Reading (INTERPRETATIONS.md, Level 3): the merge happens first, so a child's value replaces the
 * base's; the merged request is then intersected with policy. What a child can never do is get past
 * the policy because a base was narrowed first and the child's raw value was laid over the narrowed
 * result. So an inherited profile's effective contract must be no more permissive than the
 * effective contract of its merged document instantiated standalone (the "flat" equivalent). A
 * harness that additionally keeps the base's narrower value is also accepted: that is ≤ flat.
 *
 * Comparing with the OBSERVED flat contract (not a precomputed answer) keeps plain L1-I3 bugs out:
 * where the flat profile exceeds the policy just as the inheriting one does, the harness narrows no
 * profile there, which fails L1-I3, and this case is inconclusive naming it (attribution by
 * difference, suites/support/attribution.ts).
 */
import type { EffectiveContractT, HarnessPolicyT } from '../../protocol/messages.js';
import { atMost, policyCeiling, valueAt, widenings } from '../../spec/semantics/index.js';
import { fail } from '../kit/assert.js';
import type { CaseDef } from '../kit/types.js';
import { requireDiscovered } from './lib/preconditions.js';
import {
  instantiateName,
  minimalProfile,
  permissivePolicy,
  rejectionCause,
  requireObservable,
  requireSession,
  STANDARD_TOOLS,
  writeProjectProfile,
} from '../support/index.js';
import { featureOwn } from '../support/attribution.js';

/**
 * The merged result within the policy in the dimensions the case compares (`prefixes` of widenings
 * labels), judged by difference (suites/support/attribution.ts): a place where the flat profile
 * exceeds the policy just as the inheriting one does is a narrowing miss without `extends` (L1-I3),
 * and leaves the case inconclusive; a place only the inheriting one exceeds fails L3-E2.
 */
async function mergedWithinPolicy(
  inherited: EffectiveContractT,
  flat: EffectiveContractT,
  policy: HarnessPolicyT,
  prefixes: string[],
): Promise<void> {
  const over = (e: EffectiveContractT) =>
    widenings(e, policyCeiling(policy))
      .filter((p) => prefixes.some((x) => p.startsWith(x)))
      .map((pointer) => ({ pointer, observed: valueAt(e, pointer) }));
  const own = await featureOwn(over(inherited), () => over(flat), FLATTENED);
  if (own.length > 0)
    fail(`the inheriting profile exceeds the policy at ${own.map((v) => v.pointer).join(', ')}`, { within: 'policy' }, own);
}

const FLATTENED = { feature: 'L3-E2', base: 'L1-I3', equivalent: 'the flat profile (the merged document on its own)' };

const POLICY_ASK: HarnessPolicyT = permissivePolicy({
  permissions: { default: 'allow', shell: 'ask', edit: 'ask', network: 'ask', rules: [] },
});

const childAllowOverBaseDeny: CaseDef = {
  id: 'L3-E2/child-allow-over-base-deny',
  requirements: ['L3-E2'],
  clauses: ['L3-E2.merged-result'],
  title: 'Behavioural test 11: base shell/edit/network deny, child allow, policy ask: merged effective never above policy',
  fixtures: ['l3-e2-permissions'],
  expectation: { inherited: '≤ flat merged document ≤ policy (ask) for shell, edit, network' },
  async run(ctx) {
    const deny = { shell: 'deny', edit: 'deny', network: 'deny' };
    const allow = { shell: 'allow', edit: 'allow', network: 'allow' };
    writeProjectProfile(ctx, minimalProfile('e2-pm-base', { permissions: deny }));
    writeProjectProfile(ctx, minimalProfile('e2-pm-child', { permissions: allow }, { extends: [{ name: 'e2-pm-base' }] }));
    writeProjectProfile(ctx, minimalProfile('e2-pm-flat', { permissions: allow }));
    await requireDiscovered(ctx, ['e2-pm-base', 'e2-pm-child', 'e2-pm-flat']);
    const flat = requireSession(await instantiateName(ctx, 'e2-pm-flat', POLICY_ASK), 'flat equivalent').effective;
    const inherited = requireSession(await instantiateName(ctx, 'e2-pm-child', POLICY_ASK), 'inheriting child').effective;
    await mergedWithinPolicy(inherited, flat, POLICY_ASK, ['/permissions/']);
    // Which value the merge produced: recorded for the report (behavioural test 11 asks for it).
    ctx.note('merged_effective', inherited.permissions);
    ctx.note('flat_effective', flat.permissions);
    const wider = widenings(inherited, flat).filter((p) => p.startsWith('/permissions/'));
    if (wider.length > 0)
      fail(`inherited profile is more permissive than its merged document at ${wider.join(', ')}`, flat.permissions, inherited.permissions);
  },
};

const inheritedValueNarrowed: CaseDef = {
  id: 'L3-E2/inherited-allow-narrowed',
  requirements: ['L3-E2'],
  clauses: ['L3-E2.merged-result'],
  title: 'Permissions a child inherits unchanged from its base (allow) are narrowed to policy (ask) like its own',
  fixtures: ['l3-e2-inherited'],
  expectation: { inherited: '≤ flat merged document (policy ask) for shell, edit, network' },
  async run(ctx) {
    const allow = { shell: 'allow', edit: 'allow', network: 'allow' };
    writeProjectProfile(ctx, minimalProfile('e2-ih-base', { permissions: allow }));
    // The child sets no permission of its own: everything comes from the base through the merge.
    writeProjectProfile(ctx, minimalProfile('e2-ih-child', {}, { extends: [{ name: 'e2-ih-base' }] }));
    writeProjectProfile(ctx, minimalProfile('e2-ih-flat', { permissions: allow }));
    await requireDiscovered(ctx, ['e2-ih-base', 'e2-ih-child', 'e2-ih-flat']);
    const flat = requireSession(await instantiateName(ctx, 'e2-ih-flat', POLICY_ASK), 'flat equivalent').effective;
    const inherited = requireSession(await instantiateName(ctx, 'e2-ih-child', POLICY_ASK), 'inheriting child').effective;
    await mergedWithinPolicy(inherited, flat, POLICY_ASK, ['/permissions/']);
    ctx.note('merged_effective', inherited.permissions);
    const wider = widenings(inherited, flat).filter((p) => p.startsWith('/permissions/'));
    if (wider.length > 0)
      fail(`inherited permissions escape the narrowing at ${wider.join(', ')}`, flat.permissions, inherited.permissions);
  },
};

const nullDeleteStaysNarrowed: CaseDef = {
  id: 'L3-E2/null-delete-cannot-exceed-policy',
  requirements: ['L3-E2'],
  clauses: ['L3-E2.merged-result'],
  title: "A child's null deleting the base's shell: deny leaves shell at most what policy alone gives",
  fixtures: ['l3-e2-null-delete'],
  expectation: { inherited: '≤ flat document without the key (policy ask); deny also accepted' },
  async run(ctx) {
    writeProjectProfile(ctx, minimalProfile('e2-nd-base', { permissions: { shell: 'deny' } }));
    writeProjectProfile(ctx, minimalProfile('e2-nd-child', { permissions: { shell: null } }, { extends: [{ name: 'e2-nd-base' }] }));
    writeProjectProfile(ctx, minimalProfile('e2-nd-flat', { permissions: {} }));
    await requireDiscovered(ctx, ['e2-nd-base', 'e2-nd-child', 'e2-nd-flat']);
    const flat = requireSession(await instantiateName(ctx, 'e2-nd-flat', POLICY_ASK), 'flat equivalent').effective;
    const out = await instantiateName(ctx, 'e2-nd-child', POLICY_ASK);
    requireObservable(
      out.status === 'instantiated',
      'adapter rejects a null in a child layer (judged by L3-E1/null-deletes-key)',
      out.status === 'rejected' ? rejectionCause('child with a null', out.errors) : undefined,
    );
    await mergedWithinPolicy(out.effective, flat, POLICY_ASK, ['/permissions/']);
    ctx.note('merged_shell', out.effective.permissions.shell);
    if (!atMost(out.effective.permissions.shell, flat.permissions.shell)) {
      fail(
        'deleting an inherited deny with null let shell exceed what policy gives a profile without it',
        flat.permissions.shell,
        out.effective.permissions.shell,
      );
    }
  },
};

const toolsAndBounds: CaseDef = {
  id: 'L3-E2/tools-hosts-budgets-on-merged-result',
  requirements: ['L3-E2'],
  clauses: ['L3-E2.merged-result'],
  title: 'Tools, hosts and budgets of an inheriting child are narrowed as one merged request, never past policy',
  fixtures: ['l3-e2-tools-bounds'],
  expectation: { inherited: 'no widening over the flat merged document (tools, hosts, roots, scopes, budgets)' },
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
    writeProjectProfile(ctx, minimalProfile('e2-tb-base', narrow));
    writeProjectProfile(ctx, minimalProfile('e2-tb-child', wide, { extends: [{ name: 'e2-tb-base' }] }));
    writeProjectProfile(ctx, minimalProfile('e2-tb-flat', wide));
    await requireDiscovered(ctx, ['e2-tb-base', 'e2-tb-child', 'e2-tb-flat']);
    const flat = requireSession(await instantiateName(ctx, 'e2-tb-flat', policy), 'flat equivalent').effective;
    const inherited = requireSession(await instantiateName(ctx, 'e2-tb-child', policy), 'inheriting child').effective;
    await mergedWithinPolicy(inherited, flat, policy, ['/tools/', '/hosts/', '/budgets/']);
    ctx.note('merged_effective', { tools: inherited.tools, hosts: inherited.hosts, budgets: inherited.budgets });
    const wider = widenings(inherited, flat);
    if (wider.length > 0) fail(`inherited profile is more permissive than its merged document at ${wider.join(', ')}`, [], wider);
  },
};

export const narrowingCases: CaseDef[] = [childAllowOverBaseDeny, inheritedValueNarrowed, nullDeleteStaysNarrowed, toolsAndBounds];

/**
 * L3-B1: spec.runtime.subagents is supported, delegation goes only to names in `allow` (absent or
 * empty = no delegation, SPEC 3.8), and a subagent's effective contract is intersected with the
 * parent's EFFECTIVE contract. The parent's contract is observed, not precomputed, and the
 * subagent's whole answer is judged against the spec model's prediction for its profile under that
 * ceiling (spec/semantics/contract.ts): nothing wider anywhere, a narrower answer noted. The
 * subagent's profile is also instantiated standalone under the same policy: a place where that twin
 * is as wide as the subagent is a harness whose plain narrowing (L1-I3) is broken, which leaves the
 * case inconclusive, so this stays a verdict on delegation alone.
 *
 * L3-B2: max_depth and max_concurrent, from policy and from the delegating profile.
 * Depth: the top-level session is depth 0, its subagents depth 1, and so on; max_depth N allows
 * sessions down to depth N. Concurrency: at most max_concurrent live (not ended) subagents of one
 * parent; ending one frees a slot.
 */
import type { HarnessPolicyT, InstantiatedT } from '../../protocol/messages.js';
import type { CaseContext, CaseDef } from '../kit/types.js';
import { contractFindings, predictContract } from '../../spec/semantics/index.js';
import { intersect } from './lib/sets.js';
import { requireDiscovered } from './lib/preconditions.js';
import { mustReject } from './lib/session.js';
import {
  briefIssues,
  expectContract,
  inconclusive,
  instantiateName,
  minimalProfile,
  mustInstantiate,
  permissivePolicy,
  probesOf,
  requireObservable,
  requireSession,
  withTwinAttribution,
  writeProjectProfile,
} from '../support/index.js';

function write(ctx: CaseContext, name: string, spec: Record<string, unknown>): Record<string, unknown> {
  const doc = minimalProfile(name, spec);
  writeProjectProfile(ctx, doc);
  return spec;
}

/**
 * The B1 verdict: the subagent's whole answer against the prediction for its profile under the
 * parent's observed contract, a place its standalone twin shares being the twin's (L1-I3) failure.
 */
function expectDelegated(
  ctx: CaseContext,
  spec: Record<string, unknown>,
  policy: HarnessPolicyT,
  observed: { parent: InstantiatedT['effective']; subagent: InstantiatedT['effective']; standalone: InstantiatedT['effective'] },
  dimensions: string[],
  what: string,
): void {
  const delegated = contractFindings(observed.subagent, predictContract({ spec, policy, parent: observed.parent, trust: 'project' }));
  const twin = contractFindings(observed.standalone, predictContract({ spec, policy, trust: 'project' }), { probes: probesOf(delegated) });
  expectContract(ctx, withTwinAttribution(delegated, twin), { requirements: ['L3-B1'], dimensions, what });
}

async function delegate(ctx: CaseContext, parent: InstantiatedT, name: string) {
  return ctx.adapter.call('instantiate_subagent', { parent_session_id: parent.session_id, profile: { name } });
}

async function endSession(ctx: CaseContext, s: InstantiatedT): Promise<void> {
  await ctx.adapter.call('end_session', { session_id: s.session_id, evidence: [], outcome: 'completed' });
}

// ------------------------------------------------------------------ L3-B1: ceiling

const toolCeiling: CaseDef = {
  id: 'L3-B1/delegation-ceiling-tools',
  requirements: ['L3-B1'],
  clauses: ['L3-B1.parent-ceiling'],
  title: 'Behavioural test 12: parent allows [read], subagent requests [read, edit, shell], subagent gets [read]',
  fixtures: ['l3-b1-tools'],
  expectation: { subagent: 'the whole contract within the prediction under the parent: tools at most parent ∩ request (= [read])' },
  async run(ctx) {
    write(ctx, 'b1-lead', { tools: { allow: ['read'] }, runtime: { subagents: { allow: ['b1-helper'] } } });
    const helper = write(ctx, 'b1-helper', { tools: { allow: ['read', 'edit', 'shell'] } });
    await requireDiscovered(ctx, ['b1-lead', 'b1-helper']);
    const policy = permissivePolicy();
    const parent = requireSession(await instantiateName(ctx, 'b1-lead', policy), 'parent');
    const standalone = requireSession(await instantiateName(ctx, 'b1-helper', policy), 'subagent profile standalone').effective;
    const expected = intersect(parent.effective.tools, standalone.tools);
    requireObservable(
      expected.length < new Set(standalone.tools).size,
      'the parent is not narrower than the subagent profile here, so the ceiling cannot be observed (an L1 narrowing matter)',
    );
    const child = requireSession(await delegate(ctx, parent, 'b1-helper'), 'delegation to an allowed subagent');
    ctx.note('tools', { parent: parent.effective.tools, standalone: standalone.tools, subagent: child.effective.tools });
    expectDelegated(ctx, helper, policy, { parent: parent.effective, subagent: child.effective, standalone }, ['/tools'], 'subagent tools');
  },
};

const permissionCeiling: CaseDef = {
  id: 'L3-B1/delegation-ceiling-permissions-roots-hosts-budgets',
  requirements: ['L3-B1'],
  clauses: ['L3-B1.parent-ceiling'],
  title: "A subagent's permissions, roots, hosts, scopes and budgets never exceed the parent's effective ones",
  fixtures: ['l3-b1-bounds'],
  expectation: { subagent: 'the whole contract within the prediction under the parent: decisions at most min(parent, request)' },
  async run(ctx) {
    write(ctx, 'b1-strict-lead', {
      permissions: {
        shell: 'deny',
        edit: 'ask',
        network: 'deny',
        filesystem: { read_roots: ['src', 'docs'], write_roots: ['docs'] },
        allow_hosts: ['api.example.com'],
      },
      memory: { mode: 'read_only', scopes: ['project:acme'] },
      runtime: { max_turns: 5, max_tool_calls: 20, subagents: { allow: ['b1-eager-helper'] } },
    });
    const helper = write(ctx, 'b1-eager-helper', {
      permissions: {
        default: 'allow',
        shell: 'allow',
        edit: 'allow',
        network: 'allow',
        filesystem: { read_roots: ['.'], write_roots: ['.'] },
        allow_hosts: ['api.example.com', 'docs.example.org'],
      },
      memory: { mode: 'read_write', scopes: ['project:acme', 'user:global'] },
      runtime: { max_turns: 40, max_tool_calls: 400 },
    });
    await requireDiscovered(ctx, ['b1-strict-lead', 'b1-eager-helper']);
    const policy = permissivePolicy();
    const parentSession = requireSession(await instantiateName(ctx, 'b1-strict-lead', policy), 'parent');
    const parent = parentSession.effective;
    const standalone = requireSession(await instantiateName(ctx, 'b1-eager-helper', policy), 'subagent profile standalone').effective;
    const headroom = contractFindings(standalone, predictContract({ spec: helper, policy, parent, trust: 'project' }));
    requireObservable(
      headroom.some((f) => f.deviation === 'wider'),
      'the subagent profile is no wider than the parent here, so the ceiling cannot be observed (an L1 narrowing matter)',
    );
    const child = requireSession(await delegate(ctx, parentSession, 'b1-eager-helper'), 'delegation to an allowed subagent').effective;
    ctx.note('observed', { parent, standalone, subagent: child });
    expectDelegated(
      ctx,
      helper,
      policy,
      { parent, subagent: child, standalone },
      ['/permissions', '/filesystem', '/hosts', '/memory', '/budgets'],
      "subagent against its parent's contract",
    );
  },
};

// ------------------------------------------------------------------ L3-B1: who may be delegated to

const notInAllow: CaseDef = {
  id: 'L3-B1/delegation-outside-allow-denied',
  requirements: ['L3-B1'],
  clauses: ['L3-B1.subagents'],
  title:
    'Delegation to a profile not in runtime.subagents.allow, from a profile with no allow list, or from a subagent to a name only its parent lists, is denied',
  fixtures: ['l3-b1-denied'],
  expectation: { outcome: 'rejected', category: 'delegation-denied' },
  async run(ctx) {
    write(ctx, 'b1-picky-lead', { runtime: { subagents: { allow: ['b1-friend', 'b1-deep'] } } });
    write(ctx, 'b1-silent-lead', {});
    // The subagent's own list names another profile than its parent's (catalogue class subagents.allow/grandchild-not-in-child-list).
    write(ctx, 'b1-friend', { runtime: { subagents: { allow: ['b1-stranger'] } } });
    write(ctx, 'b1-stranger', {});
    write(ctx, 'b1-deep', {});
    await requireDiscovered(ctx, ['b1-picky-lead', 'b1-silent-lead', 'b1-friend', 'b1-stranger', 'b1-deep']);
    const policy = permissivePolicy();
    const picky = requireSession(await instantiateName(ctx, 'b1-picky-lead', policy), 'parent with allow [b1-friend, b1-deep]');
    // The allowed name works, so a rejection below is about the allow list, not delegation as such.
    const friend = mustInstantiate(await delegate(ctx, picky, 'b1-friend'), 'delegation to the allowed name');
    const r1 = mustReject(await delegate(ctx, picky, 'b1-stranger'), 'delegation-denied', 'delegation to a name outside allow');
    const silent = requireSession(await instantiateName(ctx, 'b1-silent-lead', policy), 'parent without runtime.subagents');
    const r2 = mustReject(await delegate(ctx, silent, 'b1-friend'), 'delegation-denied', 'delegation from a profile with no allow list');
    // A subagent delegates by its own list (SPEC §3.8 "profile names this agent may delegate to"): a name only its
    // parent lists is denied under every reading. The name it lists itself may be allowed, or denied by a harness that
    // also intersects the list with the parent's (narrower), so that answer is only noted.
    const own = await delegate(ctx, friend, 'b1-stranger');
    ctx.note('subagent_own_list_delegation', own.status === 'rejected' ? briefIssues(own.errors) : own.status);
    const grandchild = await delegate(ctx, friend, 'b1-deep');
    // The schema gives max_depth no default: a harness whose own limit stops the tree at depth 1 answers
    // about depth (L3-B2's question), and the allow list is not observed.
    const denied = (category: string) => grandchild.status === 'rejected' && grandchild.errors.some((e) => e.category === category);
    if (!denied('delegation-denied') && denied('delegation-depth'))
      inconclusive(
        'the subagent may not delegate at all, so its allow list cannot be observed',
        'delegation-depth at depth 2 under an unbounded profile and a max_depth 8 policy',
        'L3-B2',
      );
    const r3 = mustReject(grandchild, 'delegation-denied', "a subagent's delegation to a name only its parent's allow list holds");
    ctx.note('errors', {
      outside_allow: briefIssues(r1.errors),
      no_allow_list: briefIssues(r2.errors),
      parent_list_only: briefIssues(r3.errors),
    });
  },
};

// ------------------------------------------------------------------ L3-B2: depth and concurrency

/** A chain of profiles each allowed to delegate to the next; the lead's and the others' extra subagents fields as given. */
function chainProfiles(
  ctx: CaseContext,
  names: string[],
  leadSubagents: Record<string, unknown> = {},
  laterSubagents: Record<string, unknown> = {},
): void {
  names.forEach((name, i) => {
    const next = names[i + 1];
    const subagents = next ? { allow: [next], ...(i === 0 ? leadSubagents : laterSubagents) } : undefined;
    write(ctx, name, subagents ? { runtime: { subagents } } : {});
  });
}

/**
 * A harness limit of 0 (catalogue class subagents.limits/policy-zero, which the protocol admits): the
 * lead instantiates under it and its first delegation is rejected with `category`.
 */
async function noDelegationUnder(
  ctx: CaseContext,
  subagents: { max_depth: number; max_concurrent: number },
  lead: string,
  child: string,
  category: 'delegation-depth' | 'delegation-concurrency',
) {
  const limits = `max_depth ${subagents.max_depth}, max_concurrent ${subagents.max_concurrent}`;
  const parent = requireSession(await instantiateName(ctx, lead, permissivePolicy({ subagents })), `${lead} under ${limits}`);
  return mustReject(await delegate(ctx, parent, child), category, `delegation under the harness's ${limits}`);
}

async function delegateChain(ctx: CaseContext, policy: HarnessPolicyT, names: string[], okDepth: number): Promise<InstantiatedT> {
  let session = requireSession(await instantiateName(ctx, names[0]!, policy), `top-level ${names[0]}`);
  for (let depth = 1; depth <= okDepth; depth++) {
    session = mustInstantiate(await delegate(ctx, session, names[depth]!), `delegation at depth ${depth} (within max_depth)`);
  }
  return session;
}

const depthFromPolicy: CaseDef = {
  id: 'L3-B2/max-depth-policy',
  requirements: ['L3-B2'],
  clauses: ['L3-B2.max-depth'],
  title: 'Harness max_depth 2: delegation reaches depth 2, a third level is rejected (delegation-depth); max_depth 0 allows no delegation',
  fixtures: ['l3-b2-depth-policy'],
  expectation: {
    depth_2: 'instantiated',
    depth_3: { outcome: 'rejected', category: 'delegation-depth' },
    max_depth_0_depth_1: { outcome: 'rejected', category: 'delegation-depth' },
  },
  async run(ctx) {
    const names = ['b2-d0', 'b2-d1', 'b2-d2', 'b2-d3'];
    chainProfiles(ctx, names);
    await requireDiscovered(ctx, names);
    const policy = permissivePolicy({ subagents: { max_depth: 2, max_concurrent: 8 } });
    const deepest = await delegateChain(ctx, policy, names, 2);
    const r = mustReject(await delegate(ctx, deepest, 'b2-d3'), 'delegation-depth', 'delegation at depth 3 under max_depth 2');
    const zero = await noDelegationUnder(ctx, { max_depth: 0, max_concurrent: 8 }, names[0]!, names[1]!, 'delegation-depth');
    ctx.note('errors', { max_depth_2: briefIssues(r.errors), max_depth_0: briefIssues(zero.errors) });
  },
};

const depthFromProfile: CaseDef = {
  id: 'L3-B2/max-depth-profile',
  requirements: ['L3-B2'],
  clauses: ['L3-B2.max-depth'],
  title: "The top-level profile's runtime.subagents.max_depth 1 bounds its whole delegation tree, though its subagent's profile says 8",
  fixtures: ['l3-b2-depth-profile'],
  expectation: { depth_1: 'instantiated', depth_2: { outcome: 'rejected', category: 'delegation-depth' } },
  async run(ctx) {
    const names = ['b2-p0', 'b2-p1', 'b2-p2'];
    // The child asks for max_depth 8 itself (catalogue class subagents.limits/top-level-limit-binds-tree): the lead's 1 still binds.
    chainProfiles(ctx, names, { max_depth: 1 }, { max_depth: 8 });
    await requireDiscovered(ctx, names);
    const policy = permissivePolicy({ subagents: { max_depth: 8, max_concurrent: 8 } });
    const deepest = await delegateChain(ctx, policy, names, 1);
    const r = mustReject(
      await delegate(ctx, deepest, 'b2-p2'),
      'delegation-depth',
      'delegation at depth 2 under the lead profile max_depth 1',
    );
    ctx.note('errors', briefIssues(r.errors));
  },
};

async function concurrency(ctx: CaseContext, policy: HarnessPolicyT, leadSubagents: Record<string, unknown>, limit: number): Promise<void> {
  write(ctx, 'b2-hub', { runtime: { subagents: { allow: ['b2-worker'], ...leadSubagents } } });
  write(ctx, 'b2-worker', {});
  await requireDiscovered(ctx, ['b2-hub', 'b2-worker']);
  const hub = requireSession(await instantiateName(ctx, 'b2-hub', policy), 'delegating parent');
  const live: InstantiatedT[] = [];
  for (let i = 1; i <= limit; i++) live.push(mustInstantiate(await delegate(ctx, hub, 'b2-worker'), `subagent ${i} of ${limit}`));
  const r = mustReject(await delegate(ctx, hub, 'b2-worker'), 'delegation-concurrency', `subagent ${limit + 1} while ${limit} are live`);
  ctx.note('errors', briefIssues(r.errors));
  await endSession(ctx, live[0]!);
  mustInstantiate(await delegate(ctx, hub, 'b2-worker'), 'a new subagent after one of the live ones ended');
}

const concurrentFromPolicy: CaseDef = {
  id: 'L3-B2/max-concurrent-policy',
  requirements: ['L3-B2'],
  clauses: ['L3-B2.max-concurrent'],
  title:
    'Harness max_concurrent 2: a third live subagent is rejected (delegation-concurrency); ending one frees a slot; max_concurrent 0 allows no subagent',
  fixtures: ['l3-b2-concurrent-policy'],
  expectation: {
    third: { outcome: 'rejected', category: 'delegation-concurrency' },
    after_end: 'instantiated',
    max_concurrent_0_first: { outcome: 'rejected', category: 'delegation-concurrency' },
  },
  async run(ctx) {
    await concurrency(ctx, permissivePolicy({ subagents: { max_depth: 8, max_concurrent: 2 } }), {}, 2);
    const zero = await noDelegationUnder(ctx, { max_depth: 8, max_concurrent: 0 }, 'b2-hub', 'b2-worker', 'delegation-concurrency');
    ctx.note('max_concurrent_0_errors', briefIssues(zero.errors));
  },
};

const concurrentFromProfile: CaseDef = {
  id: 'L3-B2/max-concurrent-profile',
  requirements: ['L3-B2'],
  clauses: ['L3-B2.max-concurrent'],
  title: "The parent profile's runtime.subagents.max_concurrent 1 allows one live subagent at a time",
  fixtures: ['l3-b2-concurrent-profile'],
  expectation: { second: { outcome: 'rejected', category: 'delegation-concurrency' }, after_end: 'instantiated' },
  run: (ctx) => concurrency(ctx, permissivePolicy({ subagents: { max_depth: 8, max_concurrent: 64 } }), { max_concurrent: 1 }, 1),
};

export const delegationCases: CaseDef[] = [
  toolCeiling,
  permissionCeiling,
  notInAllow,
  depthFromPolicy,
  depthFromProfile,
  concurrentFromPolicy,
  concurrentFromProfile,
];

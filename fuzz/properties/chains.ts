/**
 * Inheritance (L3-E2) and delegation (L3-B1) chains, each judged on the whole answer by the spec
 * model's one judge. For `extends` the session's contract is held to the prediction for the merged
 * profile (SPEC §4 rule 7: the narrowing rule applies to the merged result), so a child cannot
 * widen what the policy or a base narrowed. For delegation the subagent is held to the prediction
 * under its parent's observed effective contract (§3.8), whatever the subagent's profile asked; in
 * both, a departure the feature-free twin shows too (the flat profile, the subagent's profile on its
 * own) is a narrowing miss without the feature, L1-I3's, and the input is not judged here.
 */
import fc from 'fast-check';
import type { HarnessPolicyT } from '../../protocol/messages.js';
import type { Encoding } from '../../suites/kit/types.js';
import { encodingArb, policyArb, specRequestArb } from '../gen/narrowing.js';
import { firstUndefined, instantiateIn, rejectedBy, type Doc } from '../harness.js';
import { composeProfile, contractFindings, failsContract, predictContract } from '../../spec/semantics/index.js';
import { combine, violationsOf } from './contract.js';
import { HOLDS, notJudged, violated, type ExecEnv, type FuzzProperty } from './types.js';
import { minimalProfile, probesOf, withTwinAttribution } from '../../suites/support/index.js';

export interface ChainInput {
  /** The profile instantiated: the child of an `extends` chain, or the delegating parent. */
  profile: Doc;
  policy: HarnessPolicyT;
  /** Bases (extends) or the subagent profile (delegation), written beside `profile`. */
  chain: Doc[];
  encoding: Encoding;
}

/** Every profile of the chain is one the spec defines. */
function chainMalformed(input: ChainInput): string | undefined {
  return firstUndefined([input.profile, ...input.chain], 'a generated profile of the chain');
}

/** Instantiate a chain's main profile with its bases or subagent beside it; `refused` is set when it was refused. */
async function instantiateChain(env: ExecEnv, input: ChainInput) {
  const { outcome, dir } = await instantiateIn(env, input.profile, input.policy, { extra: input.chain, encoding: input.encoding });
  if (outcome.status === 'rejected') return { refused: rejectedBy('instantiate', outcome.errors) } as const;
  return { refused: undefined, outcome, dir } as const;
}

function extendsArb(): fc.Arbitrary<ChainInput> {
  return fc
    .record({
      child: specRequestArb(),
      bases: fc.array(specRequestArb(), { minLength: 1, maxLength: 3 }),
      // Each base either stands alone (listed by the child) or extends the previous base.
      nested: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
      policy: policyArb(),
      encoding: encodingArb,
    })
    .map(({ child, bases, nested, policy, encoding }) => {
      const chain: Doc[] = [];
      const listed: string[] = [];
      bases.forEach((spec, i) => {
        const name = `fz-base-${i}`;
        const parent = i > 0 && nested[i] ? `fz-base-${i - 1}` : undefined;
        if (parent) listed.splice(listed.indexOf(parent), 1);
        chain.push(minimalProfile(name, spec, parent ? { extends: [{ name: parent }] } : {}));
        listed.push(name);
      });
      const profile = minimalProfile('fz-main', child, { extends: listed.map((name) => ({ name })) });
      return { profile, policy, chain, encoding };
    });
}

export const extendsProperty: FuzzProperty<ChainInput> = {
  name: 'extends',
  requirement: 'L3-E2',
  clauses: ['L3-E2.merged-result'],
  title: 'Narrowing applies to the merged result of an extends chain',
  weight: 2,
  runsPerCase: 20,
  arbitrary: extendsArb,
  malformed: chainMalformed,
  async execute(env, input) {
    const chain = await instantiateChain(env, input);
    if (chain.refused !== undefined) return chain.refused;
    const { outcome, dir } = chain;
    const byName = new Map(input.chain.map((d) => [String((d.metadata as { name?: unknown }).name), d]));
    const merged = composeProfile(input.profile, (name) => byName.get(name));
    const prediction = predictContract({ spec: merged.spec, policy: input.policy, trust: 'project' });
    let findings = contractFindings(outcome.effective, prediction, { workspace: dir, narrowing: 'L3-E2' });
    if (violationsOf(findings, 'L3-E2').length === 0) return HOLDS;
    // Attribution by difference: the flat profile (the merged document on its own) judged the same
    // way; a place it departs at too is a narrowing miss without `extends`, L1-I3's.
    const flat = await instantiateIn(env, merged, input.policy, { encoding: input.encoding });
    if (flat.outcome.status === 'instantiated')
      findings = withTwinAttribution(
        findings,
        contractFindings(flat.outcome.effective, prediction, { workspace: flat.dir, probes: probesOf(findings) }),
      );
    const v = combine(violationsOf(findings, 'L3-E2'));
    if (!v) {
      const shared = findings.filter(failsContract);
      const where = [...new Set(shared.map((f) => f.pointer))].join(', ');
      return notJudged('attributed', `the flat profile departs at the same place: ${where}`, shared[0]?.requirements[0]);
    }
    return violated(`merged profile: ${v.message}`, v.expected, v.observed, v.differences);
  },
};

function delegationArb(): fc.Arbitrary<ChainInput> {
  return fc
    .record({ parent: specRequestArb(), child: specRequestArb(), policy: policyArb(), encoding: encodingArb })
    .map(({ parent, child, policy, encoding }) => {
      const runtime = { ...((parent.runtime as Record<string, unknown>) ?? {}) };
      runtime.subagents = { ...((runtime.subagents as Record<string, unknown>) ?? {}), allow: ['fz-sub'] };
      const childRuntime = { ...((child.runtime as Record<string, unknown>) ?? {}) };
      delete childRuntime.subagents;
      return {
        profile: minimalProfile('fz-main', { ...parent, runtime }),
        policy,
        chain: [minimalProfile('fz-sub', { ...child, runtime: childRuntime })],
        encoding,
      };
    });
}

export const delegationProperty: FuzzProperty<ChainInput> = {
  name: 'delegation',
  requirement: 'L3-B1',
  clauses: ['L3-B1.parent-ceiling'],
  title: "A subagent never exceeds its parent's effective contract",
  weight: 2,
  runsPerCase: 20,
  arbitrary: delegationArb,
  malformed: chainMalformed,
  async execute(env, input) {
    const chain = await instantiateChain(env, input);
    if (chain.refused !== undefined) return chain.refused;
    const { outcome, dir } = chain;
    env.stats.adapterCalls++;
    const sub = await env.ctx.adapter.call('instantiate_subagent', { parent_session_id: outcome.session_id, profile: { name: 'fz-sub' } });
    if (sub.status === 'rejected') return rejectedBy('instantiate_subagent', sub.errors);
    const child = input.chain[0]!;
    const prediction = predictContract({ spec: child.spec, policy: input.policy, parent: outcome.effective, trust: 'project' });
    let findings = contractFindings(sub.effective, prediction, { workspace: dir });
    if (violationsOf(findings, 'L3-B1').length === 0) return HOLDS;
    // Attribution by difference: the subagent's profile instantiated on its own under the policy; a
    // place it departs at too is a narrowing miss without delegation, L1-I3's (as the fixed cases read it).
    const alone = await instantiateIn(env, child, input.policy, { encoding: input.encoding });
    if (alone.outcome.status === 'instantiated') {
      const own = predictContract({ spec: child.spec, policy: input.policy, trust: 'project' });
      findings = withTwinAttribution(
        findings,
        contractFindings(alone.outcome.effective, own, { workspace: alone.dir, probes: probesOf(findings) }),
      );
    }
    const v = combine(violationsOf(findings, 'L3-B1'));
    if (!v) {
      const shared = findings.filter(failsContract);
      const where = [...new Set(shared.map((f) => f.pointer))].join(', ');
      return notJudged('attributed', `the subagent's profile on its own departs at the same place: ${where}`, shared[0]?.requirements[0]);
    }
    return violated(`subagent: ${v.message}`, v.expected, v.observed, v.differences);
  },
};

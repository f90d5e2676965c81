/**
 * L1-I3 and L1-I2 over random profile requests x random harness policies, one profile at a time.
 * The two share the generator and the judge (the whole contract against the spec model's
 * prediction), and each reports the departures of its own requirement, so a failure counts
 * against the one rule it broke: anything wider than profile and policy allow, a tool the policy
 * never granted included, is a narrowing failure (L1-I3); a granted tool that the allowlist did not
 * ask for or that deny names, or one the table says must be present and is not, is a policy-table
 * failure (L1-I2).
 */
import fc from 'fast-check';
import type { EffectiveContractT, HarnessPolicyT } from '../../protocol/messages.js';
import type { Encoding } from '../../suites/kit/types.js';
import { encodingArb, policyArb, specRequestArb } from '../gen/narrowing.js';
import { firstUndefined, instantiateIn, rejectedBy, type Doc } from '../harness.js';
import { type ContractPrediction, predictContract } from '../../spec/semantics/index.js';
import { combine, contractViolations } from './contract.js';
import { HOLDS, violated, type ExecEnv, type FuzzProperty, type Verdict, type Violation } from './types.js';
import { minimalProfile } from '../../suites/support/index.js';

export interface NarrowingInput {
  profile: Doc;
  policy: HarnessPolicyT;
  encoding: Encoding;
}

export function narrowingArb(): fc.Arbitrary<NarrowingInput> {
  return fc
    .record({ spec: specRequestArb(['fz-helper', 'fz-other']), policy: policyArb(), encoding: encodingArb })
    .map(({ spec, policy, encoding }) => ({ profile: minimalProfile('fz-main', spec), policy, encoding }));
}

/** The generated profile is one the spec defines (the policy is the protocol's, checked by the transport). */
function narrowingMalformed(input: NarrowingInput): string | undefined {
  return firstUndefined([input.profile], 'the generated profile');
}

/** Instantiate and hand the effective contract to `judge`; shared by both properties. */
async function withEffective(
  env: ExecEnv,
  input: NarrowingInput,
  judge: (eff: EffectiveContractT, dir: string) => Violation | undefined,
): Promise<Verdict> {
  const { outcome, dir } = await instantiateIn(env, input.profile, input.policy, { encoding: input.encoding });
  if (outcome.status === 'rejected') return rejectedBy('instantiate', outcome.errors);
  const v = judge(outcome.effective, dir);
  return v ? violated(v.message, v.expected, v.observed, v.differences) : HOLDS;
}

/** The whole contract the spec allows the generated profile under the generated policy (a project profile). */
function prediction(profile: Doc, policy: HarnessPolicyT): ContractPrediction {
  return predictContract({ spec: profile.spec, policy, trust: 'project' });
}

/**
 * The narrowing property's judge over one observation: nothing in the whole answer wider than the
 * more restrictive of profile and policy. Pure, so the one-judge test (tests/spec/one-judge.test.ts)
 * can hold it to the L1-I3 cases' answers.
 */
export function narrowingVerdict(profile: Doc, policy: HarnessPolicyT, eff: EffectiveContractT, workspace: string): Violation | undefined {
  return combine(contractViolations(eff, prediction(profile, policy), 'L1-I3', { workspace }));
}

export const narrowingProperty: FuzzProperty<NarrowingInput> = {
  name: 'narrowing',
  requirement: 'L1-I3',
  clauses: ['L1-I3.tools', 'L1-I3.permissions', 'L1-I3.filesystem-roots', 'L1-I3.network-hosts', 'L1-I3.memory', 'L1-I3.budgets'],
  title: 'Effective contract never looser than policy alone; fixed answers are min(request, policy)',
  weight: 4,
  runsPerCase: 25,
  arbitrary: narrowingArb,
  malformed: narrowingMalformed,
  execute: (env, input) => withEffective(env, input, (eff, dir) => narrowingVerdict(input.profile, input.policy, eff, dir)),
};

export const toolPolicyProperty: FuzzProperty<NarrowingInput> = {
  name: 'tool-policy',
  requirement: 'L1-I2',
  clauses: ['L1-I2.allowlist', 'L1-I2.denylist', 'L1-I2.inherit'],
  title: 'Effective tool set follows the spec.tools.policy table over the granted tools',
  weight: 2,
  runsPerCase: 25,
  arbitrary: narrowingArb,
  malformed: narrowingMalformed,
  execute: (env, input) =>
    withEffective(env, input, (eff, dir) =>
      combine(contractViolations(eff, prediction(input.profile, input.policy), 'L1-I2', { workspace: dir })),
    ),
};

/**
 * Judging a generated session's whole effective contract with the spec model's one judge
 * (spec/semantics/contract-judge.ts) against the prediction of the whole contract
 * (spec/semantics/contract.ts): the same question the L1-I3, L3-E2 and L3-B1 cases ask. A fuzz
 * property is attributed to one requirement, so it reports the departures that violate that one
 * (a tool the table excludes is the tool-policy property's, a widening of the whole answer the
 * narrowing, extends or delegation property's); narrower answers are allowed.
 */
import type { EffectiveContractT } from '../../protocol/messages.js';
import {
  type ContractFinding,
  type ContractPrediction,
  contractDifferences,
  contractFindings,
  failsContract,
  type JudgeOptions,
} from '../../spec/semantics/index.js';
import type { Violation } from './types.js';

/** Every departure of `eff` from `prediction` that violates `requirement`, one violation each. */
export function contractViolations(
  eff: EffectiveContractT,
  prediction: ContractPrediction,
  requirement: string,
  opts: JudgeOptions = {},
): Violation[] {
  return violationsOf(contractFindings(eff, prediction, opts), requirement);
}

/** The findings that violate `requirement`, one violation each. */
export function violationsOf(findings: readonly ContractFinding[], requirement: string): Violation[] {
  return findings
    .filter((f) => failsContract(f) && f.requirements.includes(requirement))
    .map((f) => ({
      message: `${f.pointer}: ${f.deviation === 'wider' ? 'wider than the spec allows' : 'not the value the spec fixes'}: expected ${JSON.stringify(f.expected)}, observed ${JSON.stringify(f.observed)}`,
      expected: { [f.pointer]: f.expected },
      observed: { [f.pointer]: f.observed },
      // In the contract's terms, so a finding names its dimension (and a baseline entry with it).
      differences: contractDifferences([f]),
    }));
}

/** Join violations into one, keeping every piece of evidence. */
export function combine(vs: Violation[]): Violation | undefined {
  if (vs.length === 0) return undefined;
  if (vs.length === 1) return vs[0];
  return {
    message: `${vs[0]!.message} (+${vs.length - 1} more)`,
    expected: vs.map((v) => v.expected),
    observed: vs.map((v) => v.observed),
    ...(vs.every((v) => v.differences) ? { differences: contractDifferences(vs.flatMap((v) => v.differences ?? [])) } : {}),
  };
}

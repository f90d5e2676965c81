/**
 * Runs one fuzz property inside a case: fast-check drives the inputs against the live adapter, a
 * failure is shrunk within a bounded number of adapter executions, the shrunk counterexample is
 * re-run once to confirm it, written as a finding file, noted, and the case fails with a
 * CheckFailure. Adapter-side errors (crash, timeout, protocol, not implemented) stop the property
 * and propagate unchanged, so the engine gives them their own status.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { CheckFailure } from '../framework/errors.js';
import type { CaseContext } from '../framework/types.js';
import { writeFinding, type Finding } from './findings.js';
import type { ExecEnv, FuzzProperty, FuzzStats, Verdict, Violation } from './properties/types.js';

export interface CheckPlan {
  caseId: string;
  runSeed: number;
  caseSeed: number;
  numRuns: number;
  /** Most extra executions spent shrinking one failure. */
  shrinkBudget: number;
  findingsDir: string;
}

export function newStats(): FuzzStats {
  return { runs: 0, discarded: 0, adapterRejected: 0, adapterCalls: 0, reasons: {} };
}

export function execEnv(ctx: CaseContext, stats: FuzzStats): ExecEnv {
  let n = 0;
  return {
    ctx,
    stats,
    memo: new Map(),
    freshDir: () => {
      const dir = join(ctx.workspace.dir, `run-${n++}`);
      mkdirSync(dir, { recursive: true });
      return dir;
    },
  };
}

export async function checkProperty<I>(ctx: CaseContext, prop: FuzzProperty<I>, plan: CheckPlan): Promise<void> {
  const stats = newStats();
  const env = execEnv(ctx, stats);
  let fatal: unknown;
  let failures = 0;
  let shrinkRuns = 0;
  let lastViolation: Violation | undefined;

  const predicate = async (input: I): Promise<boolean> => {
    if (fatal !== undefined) return true;
    // Once shrinking has spent its budget every candidate "passes" without touching the adapter,
    // which makes fast-check stop at the smallest failure found so far.
    if (failures > 0 && shrinkRuns >= plan.shrinkBudget) return true;
    if (failures > 0) shrinkRuns++;
    else stats.runs++;
    let verdict: Verdict;
    try {
      verdict = await prop.execute(env, input);
    } catch (err) {
      fatal = err;
      return true;
    }
    if (verdict.kind === 'discard') {
      if (failures === 0) {
        stats.discarded++;
        stats.reasons[verdict.reason] = (stats.reasons[verdict.reason] ?? 0) + 1;
      }
      fc.pre(false);
    }
    if (verdict.kind === 'violated') {
      failures++;
      lastViolation = verdict.violation;
      return false;
    }
    return true;
  };

  const details = await fc.check(fc.asyncProperty(prop.arbitrary(), predicate), {
    seed: plan.caseSeed,
    numRuns: plan.numRuns,
    maxSkipsPerRun: 3,
  });
  ctx.note('fuzz', { property: prop.name, seed: plan.runSeed, case_seed: plan.caseSeed, ...stats });
  if (fatal !== undefined) throw fatal;
  // failed without a counterexample = every input was discarded (the note shows why): the
  // generator's problem, not the adapter's, so it is not a conformance failure.
  if (!details.failed || details.counterexample === null) return;

  let input = details.counterexample[0] as I;
  let extraShrinks = 0;
  if (prop.shrink) {
    // Greedy: take the first smaller candidate that still fails, restart from it, within budget.
    let improved = true;
    while (improved && shrinkRuns < plan.shrinkBudget) {
      improved = false;
      for (const cand of prop.shrink(input)) {
        if (shrinkRuns >= plan.shrinkBudget) break;
        shrinkRuns++;
        const v = await prop.execute(env, cand);
        if (v.kind === 'violated') {
          input = cand;
          lastViolation = v.violation;
          extraShrinks++;
          improved = true;
          break;
        }
      }
    }
  }
  // Confirm on the shrunk input so the finding is known to reproduce, and take its own evidence.
  const confirm = await prop.execute(env, input);
  const reproduced = confirm.kind === 'violated';
  const violation = reproduced ? confirm.violation : lastViolation!;
  const finding: Finding = {
    format: 'oap-conform.fuzz-finding.v1',
    seed: plan.runSeed,
    case_seed: plan.caseSeed,
    case_id: plan.caseId,
    requirements: [prop.requirement],
    property: prop.name,
    message: violation.message,
    input,
    expected: violation.expected,
    observed: violation.observed,
    adapter: { name: ctx.handshake.implementation.name, version: ctx.handshake.implementation.version },
    shrinking: {
      num_shrinks: details.numShrinks + extraShrinks,
      counterexample_path: details.counterexamplePath,
      adapter_calls: stats.adapterCalls,
      reproduced,
    },
  };
  const file = writeFinding(plan.findingsDir, finding);
  ctx.note('counterexample', { file, property: prop.name, input, num_shrinks: details.numShrinks + extraShrinks, reproduced });
  throw new CheckFailure(`${prop.name}: ${violation.message} (shrunk counterexample: ${file})`, violation.expected, violation.observed);
}

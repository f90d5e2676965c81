/**
 * Runs one fuzz property inside a case: fast-check drives the inputs against the live adapter, a
 * failure is shrunk within a bounded number of adapter executions, the shrunk counterexample is
 * re-run once to confirm it, written as a finding file, noted, and the case fails with a
 * FindingFailure (a CheckFailure naming that file). Adapter faults (crash, timeout, protocol) stop
 * the property and propagate unchanged, so the engine gives them their own status.
 *
 * Evidence floor. Only `holds` and `violated` judge an input; an input the adapter rejected or
 * declined, or one the generator got wrong, is counted as not judged and never as holding. A case
 * without a violation passes only when its judged inputs reach `judgedFloor` of the inputs it
 * could ask this harness (the generated ones minus those in an encoding the harness does not
 * claim and those it declined: a decline is the harness saying plainly that it lacks a field, as
 * SPEC 1.2 goal 6 asks, so it shrinks the question instead of hiding the answer); otherwise it ends
 * inconclusive with the reasons and a count each as its root cause. A rejection of a valid input is
 * never excused that way. A case whose every input was declined ends `skipped`.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { AdapterNotImplemented, AdapterSkipped } from '../protocol/errors.js';
import { CaseInconclusive } from '../suites/kit/errors.js';
import type { CaseContext } from '../suites/kit/types.js';
import { FindingFailure, writeFinding, type Finding } from './findings.js';
import {
  malformedInput,
  NOT_JUDGED_CAUSES,
  notJudged,
  type ExecEnv,
  type FuzzProperty,
  type FuzzStats,
  type Verdict,
  type Violation,
} from './properties/types.js';

export interface CheckPlan {
  caseId: string;
  runSeed: number;
  caseSeed: number;
  numRuns: number;
  /** Most extra executions spent shrinking one failure. */
  shrinkBudget: number;
  findingsDir: string;
}

/** Share of the askable inputs that must be judged, and the absolute minimum (capped at what was asked). */
const JUDGED_SHARE = 0.9;
const JUDGED_MINIMUM = 20;

/**
 * How many of `asked` inputs a case must judge to pass: at least 90% of them (rounded up) and at
 * least 20, or all of them when fewer than 20 were asked. So a 25-input case may leave 2 inputs
 * unjudged, a 15-input case none; a handful of judged inputs never stands in for a whole case.
 */
export function judgedFloor(asked: number): number {
  return Math.max(Math.ceil(JUDGED_SHARE * asked), Math.min(asked, JUDGED_MINIMUM));
}

export function newStats(): FuzzStats {
  return {
    generated: 0,
    judged: 0,
    notJudged: { rejected: 0, declined: 0, unclaimed: 0, generator: 0, attributed: 0 },
    adapterCalls: 0,
    reasons: {},
  };
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

function isDecline(err: unknown): err is AdapterNotImplemented | AdapterSkipped {
  return err instanceof AdapterNotImplemented || err instanceof AdapterSkipped;
}

/**
 * One input, judged or not: its own contract first (a malformed input never reaches the adapter),
 * then the property; an adapter decline becomes a not-judged verdict and is handed to `onDecline`.
 */
export async function judgeInput<I>(
  prop: FuzzProperty<I>,
  env: ExecEnv,
  input: I,
  onDecline?: (err: AdapterNotImplemented | AdapterSkipped) => void,
): Promise<Verdict> {
  const bad = prop.malformed(input);
  if (bad !== undefined) return malformedInput(bad);
  try {
    return await prop.execute(env, input);
  } catch (err) {
    if (!isDecline(err)) throw err;
    onDecline?.(err);
    return notJudged('declined', `${err.method} declined: ${err.reason}`);
  }
}

/** `instantiate rejected: other at / (25); subagent declined: ... (3)`: most frequent first, then by name. */
function reasonList(reasons: Record<string, number>): string {
  return Object.entries(reasons)
    .sort(([a, m], [b, n]) => n - m || (a < b ? -1 : a > b ? 1 : 0))
    .map(([reason, n]) => `${reason} (${n})`)
    .join('; ');
}

function mostFrequent(reasons: Record<string, number>): string | undefined {
  return Object.entries(reasons).sort(([a, m], [b, n]) => n - m || (a < b ? -1 : a > b ? 1 : 0))[0]?.[0];
}

export async function checkProperty<I>(ctx: CaseContext, prop: FuzzProperty<I>, plan: CheckPlan): Promise<void> {
  const stats = newStats();
  // The ID that judges each refusal reason: the most frequent one names the case's cause.
  const causeIds = new Map<string, string>();
  const env = execEnv(ctx, stats);
  let fatal: unknown;
  let firstDecline: AdapterNotImplemented | AdapterSkipped | undefined;
  let failures = 0;
  let shrinkRuns = 0;
  let lastViolation: Violation | undefined;

  const predicate = async (input: I): Promise<boolean> => {
    if (fatal !== undefined) return true;
    // Once shrinking has spent its budget every candidate "passes" without touching the adapter,
    // which makes fast-check stop at the smallest failure found so far.
    if (failures > 0 && shrinkRuns >= plan.shrinkBudget) return true;
    const counting = failures === 0;
    if (counting) stats.generated++;
    else shrinkRuns++;
    let verdict: Verdict;
    try {
      verdict = await judgeInput(prop, env, input, (err) => {
        if (counting) firstDecline ??= err;
      });
    } catch (err) {
      fatal = err;
      return true;
    }
    if (verdict.kind === 'not-judged') {
      // Not judged is never "holds": it is counted, and the case decides on the judged count.
      if (counting) {
        stats.notJudged[verdict.cause]++;
        stats.reasons[verdict.reason] = (stats.reasons[verdict.reason] ?? 0) + 1;
        if (verdict.causeId) causeIds.set(verdict.reason, verdict.causeId);
      }
      return true;
    }
    if (counting) stats.judged++;
    if (verdict.kind === 'violated') {
      failures++;
      lastViolation = verdict.violation;
      return false;
    }
    return true;
  };

  const details = await fc.check(fc.asyncProperty(prop.arbitrary(), predicate), { seed: plan.caseSeed, numRuns: plan.numRuns });
  const offered = stats.generated - stats.notJudged.unclaimed;
  const asked = offered - stats.notJudged.declined;
  const floor = judgedFloor(asked);
  ctx.note('fuzz', {
    property: prop.name,
    seed: plan.runSeed,
    case_seed: plan.caseSeed,
    generated: stats.generated,
    asked,
    judged: stats.judged,
    floor,
    not_judged: Object.fromEntries(NOT_JUDGED_CAUSES.map((c) => [c, stats.notJudged[c]])),
    adapter_calls: stats.adapterCalls,
    reasons: stats.reasons,
  });
  if (fatal !== undefined) throw fatal;
  if (!details.failed || details.counterexample === null) {
    if (offered > 0 && asked === 0 && firstDecline) throw firstDecline;
    if (asked > 0 && stats.judged >= floor) return;
    const judged = asked === 0 ? 'no generated input is in an encoding the harness claims' : `${stats.judged} of ${asked} inputs judged`;
    throw new CaseInconclusive(
      `${prop.name}: ${judged}; a pass needs ${floor} (at least ${JUDGED_SHARE * 100}% and at least ${JUDGED_MINIMUM}, or all of fewer)`,
      `not judged: ${reasonList(stats.reasons)}`,
      causeIds.get(mostFrequent(stats.reasons) ?? ''),
    );
  }

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
        const v = await judgeInput(prop, env, cand);
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
  const confirm = await judgeInput(prop, env, input);
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
  ctx.note('counterexample', { property: prop.name, input, num_shrinks: details.numShrinks + extraShrinks, reproduced });
  throw new FindingFailure(
    `${prop.name}: ${violation.message} (shrunk counterexample: ${file})`,
    violation.expected,
    violation.observed,
    file,
    violation.differences,
  );
}

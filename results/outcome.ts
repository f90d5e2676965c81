import { checkBaseline, describeEntry, type Baseline, type BaselineCheck } from './baseline.js';
import { buildConformanceResult, type ConformanceResult } from './conformance-result.js';
import { reportDigest } from './digest.js';
import type { RunReport } from './model.js';
import { missingCases } from './manifest.js';
import { normalizeReport } from './normalize.js';
import { isSuiteFault } from './predicates.js';
import { type SentenceVerdict, sentenceVerdicts } from './sentences.js';
import { buildStatement, type ConformanceStatement } from './statement.js';
import {
  advisoryRecords,
  attainedLevel,
  checkClaim,
  computeVerdicts,
  isComplete,
  partialRun,
  type ClaimCheck,
  type Verdicts,
} from './verdicts.js';

/**
 * Everything a formatter may show, computed once here. Formatters only render; none of them judges
 * anything itself.
 */
export interface RunOutcome {
  report: RunReport;
  verdicts: Verdicts;
  /** What the run says about each normative sentence of the spec, in document order (the spec view). */
  sentences: SentenceVerdict[];
  result: ConformanceResult;
  statement: ConformanceStatement;
  /** The claim for the run's level (header.level). */
  claim: ClaimCheck;
  attained: 0 | 1 | 2 | 3;
  /** Complete run, claim holds, and no disallowed dirty fixture checkout. */
  certified: boolean;
  /** Dirty fixture checkout without --allow-dirty: the result is written but cannot certify. */
  dirtyBlocked: boolean;
  /** How the run ended; the CLI maps it to the process exit code. */
  ending: RunEnding;
  /** Set for a run over part of the suite (`--filter`, one shard, a partial merge): never a claim. */
  partial?: string;
  /** One per reason the run did not end `ok`. */
  reasons: ExitReason[];
  baseline?: BaselineCheck;
}

/**
 * ok: nothing to report; failures: a reason below; adapter-failed and interrupted say why the run
 * stopped; suite-fault: one of our own checks is broken (a bug to report, never the adapter's fault).
 */
type RunEnding = 'ok' | 'failures' | 'adapter-failed' | 'interrupted' | 'suite-fault';

/** Why a run does not end `ok`: a stable code and one line. */
interface ExitReason {
  code: string;
  message: string;
}

export const LEVEL_NAMES = { 1: 'Read', 2: 'Read/Write', 3: 'Full' } as const;

/** The levels a run judged: its level and below. */
export function judgedLevels(outcome: Pick<RunOutcome, 'report'>): (1 | 2 | 3)[] {
  return ([1, 2, 3] as const).filter((l) => l <= outcome.report.header.level);
}

export interface EvaluateOptions {
  baseline?: Baseline | undefined;
  allowDirty?: boolean | undefined;
  now?: Date | undefined;
}

/**
 * Judges a finished (or interrupted) run: verdicts, result, statement, exit code and its reasons.
 * Exit codes: 3 when the adapter could not be run, 130 when interrupted, 1 for every other reason
 * (claim does not hold, truncated report, dirty fixtures without --allow-dirty, or with a baseline
 * an unexpected failure or a stale entry), else 0.
 */
export function evaluateRun(input: RunReport, opts: EvaluateOptions = {}): RunOutcome {
  const normalized = normalizeReport(input);
  const verdicts = computeVerdicts(normalized.cases);
  // Advisories are judged here with the requirements and carried in report.json (so the digest
  // covers them); they never gate and verify ignores them for claims.
  const { advisories: _stale, ...rest } = normalized;
  const advisories = advisoryRecords(verdicts, normalized.header.level);
  const report: RunReport = advisories.length > 0 ? { ...rest, advisories } : rest;
  const attained = attainedLevel(verdicts, report);
  const claim = checkClaim(report.header.level, verdicts);
  const allowDirty = opts.allowDirty ?? false;
  const result = buildConformanceResult({
    report,
    verdicts,
    attained,
    reportDigest: reportDigest(report),
    generatedAt: opts.now ?? new Date(),
    allowDirty,
  });
  const statement = buildStatement(report.header, attained);
  const dirtyBlocks = report.header.fixture_dirty && !allowDirty;
  const complete = isComplete(report);
  const partial = partialRun(report);

  const reasons: ExitReason[] = [];
  const why = (code: string, message: string) => reasons.push({ code, message });
  if (report.footer.adapter_error) why('adapter-failed', `adapter could not be run: ${report.footer.adapter_error}`);
  else if (report.footer.interrupted) why('interrupted', 'run interrupted: partial result, not a claim');
  else if (!report.footer.complete) why('incomplete', 'run did not complete');
  if (dirtyBlocks)
    why(
      'dirty-fixtures',
      'the checkout has uncommitted changes to files that can change a verdict: not a certifying result (--allow-dirty to accept)',
    );
  const missing = partial === undefined ? missingCases(report) : [];
  if (missing.length > 0) {
    why(
      'incomplete-cases',
      `${missing.length} case(s) of the manifest have no record, so the result covers part of the suite: ${listIds(missing)}`,
    );
  }
  const suiteFaults = report.cases.filter(isSuiteFault);
  if (suiteFaults.length > 0) {
    why(
      'suite-fault',
      `${suiteFaults.length} case(s) hit a bug in oap-conform's own checks (never counted against the adapter; please report it): ${listIds(suiteFaults.map((c) => c.id))}`,
    );
  }

  const baseline = opts.baseline ? checkBaseline(opts.baseline, report, verdicts) : undefined;
  if (baseline) {
    if (baseline.unexpected.length > 0) {
      why(
        'unexpected-failures',
        `${baseline.unexpected.length} failure(s) not in the baseline: ${listIds(baseline.unexpected.map((c) => `${c.id} [${c.requirements.join(',')}]`))}`,
      );
    }
    if (baseline.stale.length > 0) {
      why(
        'stale-baseline',
        `${baseline.stale.length} baseline entr${baseline.stale.length === 1 ? 'y is' : 'ies are'} stale (now passing), remove: ${listIds(baseline.stale.map((s) => describeEntry(s.entry)))}`,
      );
    }
  } else if (partial !== undefined) {
    // A partial run (one shard, a filter) is judged on what it ran: an ID whose cases failed or
    // could not judge the adapter fails it; IDs it did not reach say nothing.
    const bad = [...verdicts.byId.values()].filter(
      (v) => v.requirement.level <= report.header.level && (v.verdict === 'fail' || v.verdict === 'errored'),
    );
    if (bad.length > 0) why('failures', `partial run (${partial}): ${listIds(bad.map((v) => `${v.id} ${v.verdict}`))}`);
  } else if (!claim.holds) {
    why(
      'claim-not-held',
      `level ${report.header.level} claim does not hold: ${listIds(claim.problems.map((p) => `${p.id} ${p.why.split(':')[0]}`))}`,
    );
  }

  let ending: RunEnding = reasons.length > 0 ? 'failures' : 'ok';
  if (suiteFaults.length > 0) ending = 'suite-fault';
  if (report.footer.interrupted) ending = 'interrupted';
  if (report.footer.adapter_error) ending = 'adapter-failed';

  const certified = complete && claim.holds && !dirtyBlocks && partial === undefined && missing.length === 0 && suiteFaults.length === 0;
  const outcome: RunOutcome = {
    report,
    verdicts,
    sentences: sentenceVerdicts(report.cases, report.header.level),
    result,
    statement,
    claim,
    attained,
    certified,
    dirtyBlocked: dirtyBlocks,
    ending,
    reasons,
  };
  if (baseline) outcome.baseline = baseline;
  if (partial !== undefined) outcome.partial = partial;
  return outcome;
}

function listIds(items: string[], max = 8): string {
  return items.length <= max ? items.join(', ') : `${items.slice(0, max).join(', ')} and ${items.length - max} more`;
}

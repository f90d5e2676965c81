import type { ExitReason, RunOutcome } from '../../reports/outcome.js';
import { EXIT } from '../cli/exit-codes.js';
import { checkBaseline, describeEntry, type Baseline } from './baseline.js';
import { buildConformanceResult } from './conformance-result.js';
import { reportDigest } from './digest.js';
import type { RunReport } from './model.js';
import { normalizeReport } from './normalize.js';
import { buildStatement } from './statement.js';
import { attainedLevel, checkClaim, computeVerdicts, isComplete, partialRun } from './verdicts.js';

export interface EvaluateOptions {
  baseline?: Baseline;
  allowDirty?: boolean;
  now?: Date;
}

/**
 * Judges a finished (or interrupted) run: verdicts, result, statement, exit code and its reasons.
 * Exit codes: 3 when the adapter could not be run, 130 when interrupted, 1 for every other reason
 * (claim does not hold, truncated report, dirty fixtures without --allow-dirty, or with a baseline
 * an unexpected failure or a stale entry), else 0.
 */
export function evaluateRun(input: RunReport, opts: EvaluateOptions = {}): RunOutcome {
  const report = normalizeReport(input);
  const verdicts = computeVerdicts(report.cases);
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
  if (!report.footer) why('report-truncated', 'report truncated: the run ended without writing its footer');
  else if (report.footer.adapter_error) why('adapter-failed', `adapter could not be run: ${report.footer.adapter_error}`);
  else if (report.footer.interrupted) why('interrupted', 'run interrupted: partial result, not a claim');
  else if (!report.footer.complete) why('incomplete', 'run did not complete');
  if (dirtyBlocks) why('dirty-fixtures', 'fixture checkout has uncommitted changes under fixtures/ or suites/: not a certifying result (--allow-dirty to accept)');

  const baseline = opts.baseline ? checkBaseline(opts.baseline, report, verdicts) : undefined;
  if (baseline) {
    if (baseline.unexpected.length > 0) {
      why('unexpected-failures', `${baseline.unexpected.length} failure(s) not in the baseline: ${listIds(baseline.unexpected.map((c) => `${c.id} [${c.requirements.join(',')}]`))}`);
    }
    if (baseline.stale.length > 0) {
      why('stale-baseline', `${baseline.stale.length} baseline entr${baseline.stale.length === 1 ? 'y is' : 'ies are'} stale (now passing), remove: ${listIds(baseline.stale.map((s) => describeEntry(s.entry)))}`);
    }
  } else if (partial !== undefined) {
    // A partial run (one shard, a filter) is judged on what it ran: an ID whose cases failed or
    // could not judge the adapter fails it; IDs it did not reach say nothing.
    const bad = [...verdicts.byId.values()].filter((v) => v.requirement.level <= report.header.level && (v.verdict === 'fail' || v.verdict === 'errored'));
    if (bad.length > 0) why('failures', `partial run (${partial}): ${listIds(bad.map((v) => `${v.id} ${v.verdict}`))}`);
  } else if (!claim.holds) {
    why('claim-not-held', `level ${report.header.level} claim does not hold: ${listIds(claim.problems.map((p) => `${p.id} ${p.why.split(':')[0]}`))}`);
  }

  let exitCode: number = reasons.length > 0 ? EXIT.FAILURES : EXIT.OK;
  if (report.footer?.interrupted) exitCode = EXIT.INTERRUPTED;
  if (report.footer?.adapter_error) exitCode = EXIT.ADAPTER;

  const certified = complete && claim.holds && !dirtyBlocks && partial === undefined;
  const outcome: RunOutcome = { report, verdicts, result, statement, claim, attained, certified, dirtyBlocked: dirtyBlocks, exitCode, reasons };
  if (baseline) outcome.baseline = baseline;
  return outcome;
}

function listIds(items: string[], max = 8): string {
  return items.length <= max ? items.join(', ') : `${items.slice(0, max).join(', ')} and ${items.length - max} more`;
}

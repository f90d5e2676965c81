import { isAdvisoryId } from '../spec/requirements.js';
import type { CaseRecord, RunReport } from './model.js';
import { isNotPassing } from './predicates.js';
import { schemaProblems } from './schemas.js';
import type { Verdicts } from './verdicts.js';

/**
 * Expected-failure baselines (results-schema/baseline.schema.json). A harness that is not yet
 * conformant gates its CI on "no new failures": a run exits 1 on a failure the baseline does not
 * list, and on a listed entry that now passes (stale), so the baseline can only shrink.
 */
export type BaselineEntry = { requirement: string; reason?: string } | { case: string; reason?: string };

export interface Baseline {
  schema: 'oap-conform.baseline.v1';
  fixture_revision?: string;
  implementation?: string;
  expected_failures: BaselineEntry[];
}

class BaselineError extends Error {
  readonly code = 'bad-baseline';
}

export function parseBaseline(value: unknown, source: string): Baseline {
  const problems = schemaProblems('baseline', value);
  if (problems.length > 0) throw new BaselineError(`${source} is not a valid baseline: ${problems[0]}`);
  return value as Baseline;
}

export interface BaselineCheck {
  /** Non-passing cases no entry covers. */
  unexpected: CaseRecord[];
  /** Entries whose case or requirement ran and now passes: remove them from the baseline. */
  stale: { entry: BaselineEntry; why: string }[];
  /** Entries that match nothing in this run (filtered out, another shard, or a removed case); reported, not gating. */
  unmatched: BaselineEntry[];
  /** Non-passing cases the baseline covers. */
  expected: CaseRecord[];
}

export function checkBaseline(baseline: Baseline, report: RunReport, verdicts: Verdicts): BaselineCheck {
  const caseEntries = new Map<string, BaselineEntry>();
  const reqEntries = new Map<string, BaselineEntry>();
  for (const e of baseline.expected_failures) {
    if ('case' in e) caseEntries.set(e.case, e);
    else reqEntries.set(e.requirement, e);
  }
  const out: BaselineCheck = { unexpected: [], stale: [], unmatched: [], expected: [] };
  for (const c of report.cases) {
    // An advisory (a spec MUST without a requirement ID) is reported, never gated: no entry needed.
    if (!isNotPassing(c) || c.requirements.every(isAdvisoryId)) continue;
    const covered = caseEntries.has(c.id) || c.requirements.some((id) => reqEntries.has(id));
    (covered ? out.expected : out.unexpected).push(c);
  }
  const byCaseId = new Map(report.cases.map((c) => [c.id, c]));
  for (const [id, entry] of caseEntries) {
    const c = byCaseId.get(id);
    if (!c) out.unmatched.push(entry);
    else if (c.status === 'pass') out.stale.push({ entry, why: `case ${id} now passes` });
  }
  for (const [id, entry] of reqEntries) {
    const v = verdicts.byId.get(id);
    if (!v || v.caseIds.length === 0) out.unmatched.push(entry);
    else if (v.verdict === 'pass') out.stale.push({ entry, why: `requirement ${id} now passes` });
  }
  return out;
}

/**
 * The current failures as a baseline, one entry per non-passing case (the precise form, so that a
 * second failure of the same requirement is still caught); advisory cases never gate, so they get
 * none. Reasons of matching old entries carry over.
 */
export function baselineFromReport(report: RunReport, previous?: Baseline): Baseline {
  const reasons = new Map<string, string>();
  for (const e of previous?.expected_failures ?? []) if ('case' in e && e.reason) reasons.set(e.case, e.reason);
  const entries: BaselineEntry[] = report.cases
    .filter((c) => isNotPassing(c) && !c.requirements.every(isAdvisoryId))
    .map((c) => c.id)
    .sort()
    .map((id) => {
      const reason = reasons.get(id);
      return reason ? { case: id, reason } : { case: id };
    });
  return {
    schema: 'oap-conform.baseline.v1',
    fixture_revision: report.header.fixture_revision,
    implementation: report.header.adapter.handshake.implementation.name,
    expected_failures: entries,
  };
}

export function describeEntry(e: BaselineEntry): string {
  return 'case' in e ? `case ${e.case}` : `requirement ${e.requirement}`;
}

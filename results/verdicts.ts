import { REQUIREMENTS, REQUIREMENT_IDS, requiredIdsUpTo, type Requirement } from '../suites/requirements.js';
import type { CaseStatus } from '../suites/framework/types.js';
import type { CaseRecord, RunReport } from './model.js';

/**
 * Per-requirement verdicts and level claims (conformance.md 5.4).
 *
 * A requirement passes only on positive evidence: at least one applicable case, and every
 * applicable case passed. Skips, errors, crashes and timeouts are never evidence of conformance.
 * `not-applicable` cases (the adapter's conformance statement rules them out, e.g. an encoding it
 * does not claim) are left out of the judgement; a requirement whose cases are all not-applicable
 * is `skipped`, never passed.
 */
export type Verdict = 'pass' | 'fail' | 'errored' | 'skipped' | 'untested';

export interface CaseCounts {
  pass: number;
  fail: number;
  /** error, crash and timeout: the case could not judge the adapter. */
  error: number;
  /** skipped and not-applicable. */
  skip: number;
}

export interface RequirementVerdict {
  id: string;
  requirement: Requirement;
  verdict: Verdict;
  counts: CaseCounts;
  caseIds: string[];
  /** One line for every verdict other than pass: which cases decided it and why. */
  reason?: string;
}

export interface Verdicts {
  /** Every manifest ID in manifest order. */
  byId: Map<string, RequirementVerdict>;
  /** Tested and passed, MUST and SHOULD alike, in requirement order. */
  passed: string[];
  /** At least one case failed, in requirement order. */
  failed: string[];
  /** Requirement IDs named by cases but absent from the manifest (a suite bug; never judged). */
  unknown: string[];
}

const BUCKET: Record<CaseStatus, keyof CaseCounts> = {
  pass: 'pass',
  fail: 'fail',
  error: 'error',
  crash: 'error',
  timeout: 'error',
  skipped: 'skip',
  'not-applicable': 'skip',
};

/** Orders requirement IDs by level, then section letter, then number (L1-I2 before L1-I10). */
export function compareRequirementIds(a: string, b: string): number {
  const pa = /^L(\d)-([A-Z])(\d+)$/.exec(a);
  const pb = /^L(\d)-([A-Z])(\d+)$/.exec(b);
  if (!pa || !pb) return a < b ? -1 : a > b ? 1 : 0;
  return Number(pa[1]) - Number(pb[1]) || (pa[2]! < pb[2]! ? -1 : pa[2]! > pb[2]! ? 1 : 0) || Number(pa[3]) - Number(pb[3]);
}

export function sortRequirementIds(ids: Iterable<string>): string[] {
  return [...new Set(ids)].sort(compareRequirementIds);
}

export function computeVerdicts(cases: readonly CaseRecord[]): Verdicts {
  const grouped = new Map<string, CaseRecord[]>();
  const unknown = new Set<string>();
  for (const c of cases) {
    for (const id of c.requirements) {
      if (!REQUIREMENT_IDS.has(id)) {
        unknown.add(id);
        continue;
      }
      const list = grouped.get(id) ?? [];
      list.push(c);
      grouped.set(id, list);
    }
  }
  const byId = new Map<string, RequirementVerdict>();
  for (const q of REQUIREMENTS) byId.set(q.id, judge(q, grouped.get(q.id) ?? []));
  const pick = (v: Verdict) => sortRequirementIds([...byId.values()].filter((r) => r.verdict === v).map((r) => r.id));
  return { byId, passed: pick('pass'), failed: pick('fail'), unknown: sortRequirementIds(unknown) };
}

function judge(requirement: Requirement, cases: CaseRecord[]): RequirementVerdict {
  const counts: CaseCounts = { pass: 0, fail: 0, error: 0, skip: 0 };
  for (const c of cases) counts[BUCKET[c.status]]++;
  const base = { id: requirement.id, requirement, counts, caseIds: cases.map((c) => c.id) };
  const first = (statuses: CaseStatus[]) => cases.find((c) => statuses.includes(c.status));
  const describe = (c: CaseRecord | undefined) => (c ? `${c.id}: ${c.status}${c.message ? ` (${c.message})` : ''}` : '');

  if (cases.length === 0) return { ...base, verdict: 'untested', reason: 'no case ran for it' };
  if (counts.fail > 0)
    return { ...base, verdict: 'fail', reason: `${counts.fail} of ${cases.length} case(s) failed; ${describe(first(['fail']))}` };
  if (counts.error > 0) {
    return {
      ...base,
      verdict: 'errored',
      reason: `${counts.error} case(s) could not judge the adapter; ${describe(first(['error', 'crash', 'timeout']))}`,
    };
  }
  const applicable = cases.filter((c) => c.status !== 'not-applicable');
  if (applicable.length === 0)
    return { ...base, verdict: 'skipped', reason: `not applicable to this implementation; ${describe(cases[0])}` };
  if (counts.pass === applicable.length) return { ...base, verdict: 'pass' };
  return { ...base, verdict: 'skipped', reason: `${applicable.length - counts.pass} case(s) skipped; ${describe(first(['skipped']))}` };
}

export interface ClaimCheck {
  level: 1 | 2 | 3;
  holds: boolean;
  /** Why it does not hold: one line per offending ID. */
  problems: { id: string; why: string }[];
}

/**
 * conformance.md 5.4: a claim for `level` is valid only when `failed` is empty and every REQUIRED
 * (MUST) ID of that level and below is in `passed`. SHOULD IDs are reported but never required;
 * a skipped or errored required ID is therefore never in `passed` and breaks the claim.
 */
export function checkClaim(level: 1 | 2 | 3, verdicts: Pick<Verdicts, 'passed' | 'failed'> & { byId?: Verdicts['byId'] }): ClaimCheck {
  const problems: ClaimCheck['problems'] = [];
  for (const id of verdicts.failed) problems.push({ id, why: 'failed' });
  const passed = new Set(verdicts.passed);
  for (const id of requiredIdsUpTo(level)) {
    if (passed.has(id) || verdicts.failed.includes(id)) continue;
    const v = verdicts.byId?.get(id);
    problems.push({ id, why: v ? `${v.verdict}${v.reason ? `: ${v.reason}` : ''}` : 'required but not in passed' });
  }
  return { level, holds: problems.length === 0, problems };
}

/** The highest level whose claim would hold; 0 when none does. An incomplete report attains nothing. */
export function attainedLevel(verdicts: Verdicts, report?: Pick<RunReport, 'footer' | 'header'>): 0 | 1 | 2 | 3 {
  if (report && (!isComplete(report) || partialRun(report) !== undefined)) return 0;
  for (const level of [3, 2, 1] as const) if (checkClaim(level, verdicts).holds) return level;
  return 0;
}

/**
 * A run over part of the suite (`--filter`, or one `--shard` before `merge`) proves what it ran but
 * cannot certify: a claim is judged over every case of the suite, not over a chosen subset.
 */
export function partialRun(report: Pick<RunReport, 'header'>): string | undefined {
  const o = report.header?.options;
  if (o?.filter !== undefined) return `--filter ${o.filter}`;
  if (o?.shard !== undefined) return `--shard ${o.shard.index}/${o.shard.count}`;
  return undefined;
}

/** A report is complete when its footer is present (not truncated) and says the run finished. */
export function isComplete(report: Pick<RunReport, 'footer'>): boolean {
  return report.footer?.complete === true && !report.footer.interrupted;
}

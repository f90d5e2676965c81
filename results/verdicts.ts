import {
  ADVISORIES,
  type Advisory,
  type Clause,
  isAdvisoryId,
  REQUIREMENTS,
  REQUIREMENT_IDS,
  requiredIdsUpTo,
  type Requirement,
} from '../spec/requirements.js';
import { sentenceById } from '../spec/sentences.js';
import type { CaseStatus } from './record.js';
import { missingCases } from './manifest.js';
import type { AdvisoryRecord, CaseRecord, RunReport } from './model.js';

/**
 * Per-requirement verdicts and level claims (conformance.md 5.4), judged per clause. An ID's text is
 * split into clauses (spec/requirements.ts) and every case names the clauses it observes. An ID
 * passes only on positive evidence for each clause: every clause has a passing case, or every case
 * of it is a confirmed not-applicable (the harness declared, and a probe confirmed, that it lacks a
 * capability the spec lets a level omit; the record names the sentence that lets it), and no case of
 * the ID failed or ended otherwise. When every clause is such a not-applicable, the requirement is
 * satisfied vacuously and still passes, with a `vacuous:` note. `fail` puts a MUST ID in `failed`;
 * `inconclusive`, `skipped`, `error` and `timeout`, and a clause no case observed, keep an ID out of
 * both lists, with the clause and the cause in the reason.
 */
export type Verdict = 'pass' | 'fail' | 'errored' | 'inconclusive' | 'skipped' | 'untested';

interface CaseCounts {
  pass: number;
  fail: number;
  /** error and timeout: the case could not judge the adapter. */
  error: number;
  inconclusive: number;
  skipped: number;
  notApplicable: number;
}

/** One clause as this run observed it: `not-applicable` only through a confirmed, permitted omission. */
export interface ClauseVerdict {
  id: string;
  text: string;
  verdict: Verdict | 'not-applicable';
  counts: CaseCounts;
  caseIds: string[];
  /** For every verdict but pass: which case decided it and why (for not-applicable, the sentence that permits it). */
  reason?: string;
}

export interface RequirementVerdict {
  id: string;
  requirement: Requirement;
  verdict: Verdict;
  /** Passed with no case of its own passing: every case was a confirmed not-applicable. */
  vacuous: boolean;
  counts: CaseCounts;
  caseIds: string[];
  /** Each clause of the ID, in manifest order. */
  clauses: ClauseVerdict[];
  /** One line for every verdict other than a plain pass: which clause and cases decided it and why. */
  reason?: string;
}
export interface Verdicts {
  /** Every manifest ID in manifest order. */
  byId: Map<string, RequirementVerdict>;
  /** Passed, MUST and SHOULD alike, in requirement order. */
  passed: string[];
  /** MUST IDs with at least one failing case, in requirement order. */
  failed: string[];
  /** SHOULD IDs with a failing case: reported, never in `failed`, never gating a claim. */
  shouldNotMet: string[];
  /** Advisories (spec MUSTs without a conformance ID), judged like requirements, never gating. */
  advisories: Map<string, AdvisoryVerdict>;
  /** Requirement IDs named by cases but absent from the manifest (a suite bug; never judged). */
  unknown: string[];
}

interface AdvisoryVerdict {
  id: string;
  advisory: Advisory;
  verdict: Verdict;
  counts: CaseCounts;
  caseIds: string[];
  clauses: ClauseVerdict[];
  reason?: string;
}

const BUCKET: Record<CaseStatus, keyof CaseCounts> = {
  pass: 'pass',
  fail: 'fail',
  error: 'error',
  timeout: 'error',
  inconclusive: 'inconclusive',
  skipped: 'skipped',
  'not-applicable': 'notApplicable',
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
      if (!REQUIREMENT_IDS.has(id) && !isAdvisoryId(id)) {
        unknown.add(id);
        continue;
      }
      const list = grouped.get(id) ?? [];
      list.push(c);
      grouped.set(id, list);
    }
  }
  const byId = new Map<string, RequirementVerdict>();
  for (const q of REQUIREMENTS) byId.set(q.id, { requirement: q, ...judge(q.id, q.clauses, grouped.get(q.id) ?? []) });
  const advisories = new Map<string, AdvisoryVerdict>();
  for (const a of ADVISORIES) {
    const { vacuous: _vacuous, ...judged } = judge(a.id, a.clauses, grouped.get(a.id) ?? []);
    advisories.set(a.id, { advisory: a, ...judged });
  }
  const ids = (keep: (v: RequirementVerdict) => boolean) => sortRequirementIds([...byId.values()].filter(keep).map((v) => v.id));
  return {
    byId,
    passed: ids((v) => v.verdict === 'pass'),
    failed: ids((v) => v.verdict === 'fail' && v.requirement.strength === 'MUST'),
    shouldNotMet: ids((v) => v.verdict === 'fail' && v.requirement.strength === 'SHOULD'),
    advisories,
    unknown: sortRequirementIds(unknown),
  };
}

/** `<case>: <status> (<message>; cause: <cause>)`, one line, for a verdict's reason. */
function describeCase(c: CaseRecord | undefined): string {
  if (!c) return '';
  if (c.status === 'pass') return `${c.id}: pass`;
  const cause = c.status === 'inconclusive' && c.cause ? `; cause: ${c.cause}` : '';
  return `${c.id}: ${c.status} (${c.message}${cause})`;
}

function countStatuses(cases: readonly CaseRecord[]): CaseCounts {
  const counts: CaseCounts = { pass: 0, fail: 0, error: 0, inconclusive: 0, skipped: 0, notApplicable: 0 };
  for (const c of cases) counts[BUCKET[c.status]]++;
  return counts;
}

/** Why every case of a clause is not applicable: the first one's message and probe, and the sentence that lets a harness omit the capability. */
function omission(cases: readonly CaseRecord[]): string {
  const na = cases.find((c) => c.status === 'not-applicable');
  if (na?.status !== 'not-applicable') return '';
  const sentences = na.permitted_by.map((id) => {
    const s = sentenceById(id);
    return s ? `${id} "${s.text}"` : id;
  });
  return `${na.message}; probe: ${na.probe}; permitted by ${sentences.join(' and ')}`;
}

/** The verdict of one clause from the cases that name it (same precedence as an ID). */
export function judgeClause(clause: Clause, cases: readonly CaseRecord[]): ClauseVerdict {
  const counts = countStatuses(cases);
  const base = { id: clause.id, text: clause.text, counts, caseIds: cases.map((c) => c.id) };
  const first = (...statuses: CaseStatus[]) => describeCase(cases.find((c) => statuses.includes(c.status)));
  const of = (n: number, what: string) => `${n} of ${cases.length} case(s) ${what}`;
  if (cases.length === 0) return { ...base, verdict: 'untested', reason: 'no case observed it' };
  if (counts.fail > 0) return { ...base, verdict: 'fail', reason: `${of(counts.fail, 'failed')}; ${first('fail')}` };
  if (counts.error > 0)
    return { ...base, verdict: 'errored', reason: `${of(counts.error, 'could not judge the adapter')}; ${first('error', 'timeout')}` };
  if (counts.inconclusive > 0)
    return { ...base, verdict: 'inconclusive', reason: `${of(counts.inconclusive, 'could not observe it')}; ${first('inconclusive')}` };
  if (counts.skipped > 0)
    return { ...base, verdict: 'skipped', reason: `${of(counts.skipped, 'declined by the adapter')}; ${first('skipped')}` };
  if (counts.pass > 0) return { ...base, verdict: 'pass' };
  return { ...base, verdict: 'not-applicable', reason: omission(cases) };
}

/**
 * The one judgement of an ID (requirement or advisory) from its cases, clause by clause. The ID's
 * verdict is its worst case's (fail, then errored, inconclusive, skipped); with none of those, a
 * clause no case observed makes it untested; otherwise it passes, vacuously when every clause is
 * not applicable. The reason names the clause that decided it.
 */
function judge(id: string, clauses: readonly Clause[], cases: CaseRecord[]): Omit<RequirementVerdict, 'requirement'> {
  const counts = countStatuses(cases);
  const clauseVerdicts = clauses.map((q) =>
    judgeClause(
      q,
      cases.filter((c) => c.clauses.includes(q.id)),
    ),
  );
  const base = { id, counts, caseIds: cases.map((c) => c.id), clauses: clauseVerdicts, vacuous: false };
  if (cases.length === 0) return { ...base, verdict: 'untested', reason: 'no case ran for it' };
  for (const worst of ['fail', 'errored', 'inconclusive', 'skipped'] as const) {
    const hit = clauseVerdicts.filter((q) => q.verdict === worst);
    if (hit.length > 0) return { ...base, verdict: worst, reason: clauseReason(hit, clauseVerdicts) };
    // A case that names no clause of this ID (a record from before clauses) still counts against it.
    const stray = cases.find((c) => !clauses.some((q) => c.clauses.includes(q.id)) && verdictOfStatus(c.status) === worst);
    if (stray) return { ...base, verdict: worst, reason: `${describeCase(stray)} (names no clause of ${id})` };
  }
  const unobserved = clauseVerdicts.filter((q) => q.verdict === 'untested');
  if (unobserved.length > 0) return { ...base, verdict: 'untested', reason: clauseReason(unobserved, clauseVerdicts) };
  const notApplicable = clauseVerdicts.filter((q) => q.verdict === 'not-applicable');
  if (notApplicable.length === clauseVerdicts.length)
    return { ...base, verdict: 'pass', vacuous: true, reason: `satisfied vacuously: ${notApplicable[0]!.reason ?? ''}` };
  if (notApplicable.length > 0) return { ...base, verdict: 'pass', reason: clauseReason(notApplicable, clauseVerdicts) };
  return { ...base, verdict: 'pass' };
}

function verdictOfStatus(status: CaseStatus): Verdict | 'not-applicable' {
  const bucket = BUCKET[status];
  return bucket === 'error' ? 'errored' : bucket === 'notApplicable' ? 'not-applicable' : bucket;
}

/** `clause <id> (<text>) <verdict>: <reason>`, for the first of `hit`, and how many clauses share its verdict. */
function clauseReason(hit: readonly ClauseVerdict[], all: readonly ClauseVerdict[]): string {
  const q = hit[0]!;
  const what = q.verdict === 'untested' ? 'not observed' : q.verdict;
  const more =
    hit.length > 1
      ? ` (and ${hit.length - 1} more of its ${all.length} clauses: ${hit
          .slice(1)
          .map((h) => h.id)
          .join(', ')})`
      : '';
  return `clause ${q.id} (${q.text}) ${what}: ${q.reason ?? ''}${more}`;
}

export interface ClaimCheck {
  level: 1 | 2 | 3;
  holds: boolean;
  /** Why it does not hold: one line per offending ID. */
  problems: { id: string; why: string }[];
}

/**
 * conformance.md 5.4: a claim for `level` is valid only when `failed` is empty and every REQUIRED
 * (MUST) ID of that level and below is in `passed`. SHOULD IDs are reported but never required and
 * never in `failed`; an inconclusive, skipped or errored required ID is never in `passed` and so
 * breaks the claim.
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

/**
 * The highest level whose claim would hold; 0 when none does. An incomplete report (interrupted,
 * partial, or missing a case of the manifest) attains nothing.
 */
export function attainedLevel(verdicts: Verdicts, report?: Pick<RunReport, 'footer' | 'header' | 'cases'>): 0 | 1 | 2 | 3 {
  if (report && (!isComplete(report) || partialRun(report) !== undefined || missingCases(report).length > 0)) return 0;
  for (const level of [3, 2, 1] as const) if (checkClaim(level, verdicts).holds) return level;
  return 0;
}

/**
 * A run over part of the suite (`--filter`, or one `--shard` before `merge`) proves what it ran but
 * cannot certify: a claim is judged over every case of the suite, not over a chosen subset.
 */
export function partialRun(report: Pick<RunReport, 'header'>): string | undefined {
  const o = report.header?.options;
  if (o?.case !== undefined) return `--case ${o.case.join(' --case ')}`;
  if (o?.filter !== undefined) return `--filter ${o.filter}`;
  if (o?.shard !== undefined) return `--shard ${o.shard.index}/${o.shard.count}`;
  if (o?.partial !== undefined) return o.partial;
  return undefined;
}

/** A report is complete when its footer says the run finished (a run without a footer is never read). */
export function isComplete(report: Pick<RunReport, 'footer'>): boolean {
  return report.footer.complete && !report.footer.interrupted;
}

/** The advisories a run at `level` judged, as report.json carries them (untested ones included, so a reader sees what was not checked). */
export function advisoryRecords(verdicts: Pick<Verdicts, 'advisories'>, level: 1 | 2 | 3): AdvisoryRecord[] {
  return [...verdicts.advisories.values()]
    .filter((a) => a.advisory.level <= level)
    .map((a) => ({
      id: a.id,
      level: a.advisory.level,
      area: a.advisory.area,
      title: a.advisory.title,
      rests_on: a.advisory.restsOn,
      verdict: a.verdict,
      cases: a.caseIds,
      ...(a.reason !== undefined ? { reason: a.reason } : {}),
    }));
}

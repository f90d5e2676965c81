import type { CaseRecord, RunReport } from './model.js';
import type { CaseStatus } from './record.js';
import { isAdvisoryCase, isNotPassing } from './predicates.js';
import { schemaProblems } from './schemas.js';
import type { Verdicts } from './verdicts.js';

/**
 * Expected-failure baselines (results-schema/baseline.schema.json). A harness that is not yet
 * conformant gates its CI on "no new failures": a run exits 1 on a failure the baseline does not
 * list, and on a listed entry that now passes (stale), so the baseline can only shrink.
 */
export type BaselineEntry = { requirement: string; reason?: string } | { case: string; reason?: string } | FuzzEntry;

/**
 * A fuzz failure by what it is: the property that found it and the first place its answer departs
 * (`difference`), or its status when it has none. A fuzz case ID is a slot (`#0`, `#1`, ...) that a
 * different defect fills as soon as the first is fixed, so a slot never names a failure.
 */
interface FuzzEntry {
  fuzz: string;
  difference?: string;
  status?: Exclude<CaseStatus, 'pass' | 'not-applicable'>;
  /** The run seed it was found at: another seed generates other inputs. */
  seed: number;
  reason?: string;
}

const isFuzzEntry = (e: BaselineEntry): e is FuzzEntry => 'fuzz' in e;

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
  const baseline = value as Baseline;
  const slot = baseline.expected_failures.find((e) => 'case' in e && e.case.startsWith(FUZZ_PREFIX));
  if (slot && 'case' in slot)
    throw new BaselineError(
      `${source}: the entry for case ${slot.case} names a fuzz slot, which another defect fills once this one is fixed; list fuzz failures by property and difference ({"fuzz": "<property>", "difference": "<pointer>", "seed": N}), as \`oap-conform baseline update\` writes them`,
    );
  return baseline;
}

/** Fuzz case IDs are `fuzz/<requirement>/<property>#<n>` (fuzz/index.ts). */
const FUZZ_PREFIX = 'fuzz/';

/** The fuzz property of a fuzz case record: its expectation says, else its ID does. */
function fuzzPropertyOf(c: CaseRecord): string | undefined {
  if (c.origin !== 'fuzz') return undefined;
  const named = (c.expectation as { property?: unknown } | undefined)?.property;
  return typeof named === 'string' ? named : /^fuzz\/[^/]+\/([^#]+)#/.exec(c.id)?.[1];
}

/** What a non-passing fuzz record is, as a baseline entry would name it (without seed and reason). */
function fuzzKeyOf(c: CaseRecord): Pick<FuzzEntry, 'fuzz' | 'difference' | 'status'> | undefined {
  const property = fuzzPropertyOf(c);
  if (property === undefined || c.status === 'pass' || c.status === 'not-applicable') return undefined;
  const pointer = c.status === 'fail' ? c.differences?.[0]?.pointer : undefined;
  return pointer !== undefined ? { fuzz: property, difference: pointer } : { fuzz: property, status: c.status };
}

function fuzzMatches(e: FuzzEntry, c: CaseRecord): boolean {
  const key = fuzzKeyOf(c);
  return key !== undefined && key.fuzz === e.fuzz && key.difference === e.difference && key.status === e.status;
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
  /** Not gating, to be read: fuzz entries found at another seed than this run's. */
  warnings: string[];
}

export function checkBaseline(baseline: Baseline, report: RunReport, verdicts: Verdicts): BaselineCheck {
  const caseEntries = new Map<string, BaselineEntry>();
  const reqEntries = new Map<string, BaselineEntry>();
  const fuzzEntries: FuzzEntry[] = [];
  for (const e of baseline.expected_failures) {
    if (isFuzzEntry(e)) fuzzEntries.push(e);
    else if ('case' in e) caseEntries.set(e.case, e);
    else reqEntries.set(e.requirement, e);
  }
  const seed = report.header.seed;
  // A fuzz entry found at another seed says nothing about this run's inputs: reported, never gating.
  const sameSeed = fuzzEntries.filter((e) => e.seed === seed);
  const out: BaselineCheck = { unexpected: [], stale: [], unmatched: [], expected: [], warnings: [] };
  for (const e of fuzzEntries)
    if (e.seed !== seed)
      out.warnings.push(
        `baseline ${describeEntry(e)} was found at seed ${e.seed} and this run used seed ${seed}: its inputs differ, so the entry neither excuses nor goes stale here (run with --seed ${e.seed}, or update the baseline)`,
      );
  for (const c of report.cases) {
    // An advisory (a spec MUST without a requirement ID) is reported, never gated: no entry needed.
    if (!isNotPassing(c) || isAdvisoryCase(c)) continue;
    const covered =
      (c.origin !== 'fuzz' && caseEntries.has(c.id)) ||
      c.requirements.some((id) => reqEntries.has(id)) ||
      sameSeed.some((e) => fuzzMatches(e, c));
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
  for (const entry of fuzzEntries) {
    const ran = report.cases.some((c) => fuzzPropertyOf(c) === entry.fuzz);
    if (entry.seed !== seed) continue; // warned about above
    if (!ran) out.unmatched.push(entry);
    else if (!report.cases.some((c) => fuzzMatches(entry, c)))
      out.stale.push({
        entry,
        why: `fuzz property ${entry.fuzz} no longer fails ${entry.difference ? `at ${entry.difference}` : `with ${entry.status}`}`,
      });
  }
  return out;
}

/**
 * The current failures as a baseline: one entry per non-passing fixture case (the precise form, so
 * that a second failure of the same requirement is still caught), and one per fuzz failure by
 * property and first difference with the run's seed (however many slots it fills); advisory cases
 * never gate, so they get none. Reasons of matching old entries carry over.
 */
export function baselineFromReport(report: RunReport, previous?: Baseline): Baseline {
  const reasons = new Map<string, string>();
  for (const e of previous?.expected_failures ?? []) if (e.reason) reasons.set(entryKey(e), e.reason);
  const gating = report.cases.filter((c) => isNotPassing(c) && !isAdvisoryCase(c));
  const fixtures: BaselineEntry[] = gating
    .filter((c) => c.origin !== 'fuzz')
    .map((c) => c.id)
    .sort()
    .map((id) => ({ case: id }));
  const fuzz = new Map<string, FuzzEntry>();
  for (const c of gating) {
    const key = fuzzKeyOf(c);
    if (key) fuzz.set(entryKey({ ...key, seed: report.header.seed }), { ...key, seed: report.header.seed });
  }
  const entries = [...fixtures, ...[...fuzz.keys()].sort().map((k) => fuzz.get(k)!)].map((e) => {
    const reason = reasons.get(entryKey(e));
    return reason ? { ...e, reason } : e;
  });
  return {
    schema: 'oap-conform.baseline.v1',
    fixture_revision: report.header.fixture_revision,
    implementation: report.header.adapter.handshake.implementation.name,
    expected_failures: entries,
  };
}

/** What an entry names, without its reason: the key under which a reason carries over. */
function entryKey(e: BaselineEntry): string {
  if (isFuzzEntry(e)) return JSON.stringify(['fuzz', e.fuzz, e.difference ?? null, e.status ?? null]);
  return 'case' in e ? JSON.stringify(['case', e.case]) : JSON.stringify(['requirement', e.requirement]);
}

export function describeEntry(e: BaselineEntry): string {
  if (isFuzzEntry(e)) return `fuzz ${e.fuzz} ${e.difference !== undefined ? `at ${e.difference}` : `ending ${e.status}`} (seed ${e.seed})`;
  return 'case' in e ? `case ${e.case}` : `requirement ${e.requirement}`;
}

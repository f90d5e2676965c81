import { NOTE, noteValue, type ConformanceResult } from './conformance-result.js';
import type { CaseRecord, RunReport } from './model.js';
import { isNotPassing, messageOf } from './predicates.js';
import { computeVerdicts, sortRequirementIds, type Verdict } from './verdicts.js';

/**
 * `verify --reproduce`: a published claim checked by anyone who has the harness. The claimed level
 * is run again (at the claim's seed, so the fuzz inputs are the same) and every ID the claim lists
 * as passed must pass again; each one that does not is named with the case that shows it.
 */

/** A claimed-passed ID the reproduction does not pass, and the case that shows it. */
export interface Unreproduced {
  id: string;
  verdict: Verdict;
  /** The first case of the ID that failed, or else did not pass. */
  case?: string;
  /** That case's message, or the verdict's reason when no case of the ID ran. */
  why: string;
}

/** The parameters of the run that reproduces `result`: its level, and its seed when it recorded one. */
export function reproductionOf(result: ConformanceResult): { level: 1 | 2 | 3; seed?: number } {
  const seed = Number(noteValue(result, NOTE.seed));
  return { level: result.level, ...(Number.isSafeInteger(seed) && seed >= 0 ? { seed } : {}) };
}

/** Every ID `result` claims passed that `report` (the reproduction) does not pass. */
export function unreproduced(result: ConformanceResult, report: RunReport): Unreproduced[] {
  const verdicts = computeVerdicts(report.cases);
  const out: Unreproduced[] = [];
  for (const id of sortRequirementIds(new Set(result.passed))) {
    const v = verdicts.byId.get(id);
    if (v?.verdict === 'pass') continue;
    const mine = report.cases.filter((c) => c.requirements.includes(id));
    const shows: CaseRecord | undefined = mine.find((c) => c.status === 'fail') ?? mine.find(isNotPassing);
    out.push({
      id,
      verdict: v?.verdict ?? 'untested',
      ...(shows ? { case: shows.id } : {}),
      why: (shows && messageOf(shows)) ?? v?.reason ?? 'no case of this ID ran',
    });
  }
  return out;
}

/** Where the reproduction ran something other than what the claim names (not fatal: said as warnings). */
export function reproductionWarnings(result: ConformanceResult, report: RunReport): string[] {
  const out: string[] = [];
  const impl = report.header.adapter.handshake.implementation;
  if (impl.name !== result.implementation || impl.version !== result.implementation_version)
    out.push(
      `the claim is for ${result.implementation} ${result.implementation_version}; the adapter given is ${impl.name} ${impl.version}`,
    );
  if (report.header.fixture_revision !== result.fixture_revision)
    out.push(
      `the claim was made with suite revision ${result.fixture_revision}; this oap-conform is at ${report.header.fixture_revision}, so its cases may differ`,
    );
  return out;
}

/**
 * The runs the hider tests share (tests/evidence/hiders-*.test.ts): the suite's in-process cases at
 * Level 3 against a hider (or a mutant), and what a run is read for. Three files rather than one, so
 * their seven runs spread over the test workers.
 */
import { createHiderAdapter, type HiderName } from '../../harnesses/hiders/index.js';
import { computeVerdicts, type Verdicts } from '../../results/verdicts.js';
import type { CaseOutcome } from '../../results/record.js';
import type { AdapterFactory } from '../../sdk/ts/types.js';
import type { CaseDef } from '../../suites/kit/types.js';
import { recordsOf, runSuiteInProcess } from './run-suite.js';

export interface Run {
  outcomes: CaseOutcome[];
  verdicts: Verdicts;
}

/**
 * Every run here is over the in-process cases. The process cases (the L2-A5 and L2-A12 crash points
 * and write paths) spawn the adapter under test as a process and kill or trace it while it applies
 * a delta to, or writes back, a private profile. No assertion here is about them, and every adapter
 * of these files passed all four, calibrated or not, while they were in these runs, at about 5 s of
 * CPU per run (strace and the spawned processes). As tests/mutants.test.ts does for a mutant that
 * breaks none of their IDs, they are left out; the reference's pass of them is proved by its Level 3
 * certification in tests/suites/upstream.test.ts, and the mutants of their IDs fail them in
 * tests/mutants.test.ts.
 */
const IN_PROCESS = { level: 3 as const, filter: (c: CaseDef) => !c.needs?.process };

/** The in-process Level 3 run of an adapter, and its verdicts. */
export async function inProcessRun(factory: AdapterFactory, calibrate = true): Promise<Run> {
  const outcomes = await runSuiteInProcess(factory, { ...IN_PROCESS, calibrate });
  return { outcomes, verdicts: computeVerdicts(recordsOf(outcomes)) };
}

/** The in-process Level 3 run of a hider, with or without calibration. */
export function hiderRun(name: HiderName, calibrate: boolean): Promise<Run> {
  return inProcessRun(() => createHiderAdapter(name), calibrate);
}

/** No ID with a case that could not observe it is in `passed`: the IDs that are. */
export function cutShortButPassed(r: Run): string[] {
  const cutShort = new Set(r.outcomes.filter((o) => o.status === 'inconclusive').flatMap((o) => o.requirements));
  return r.verdicts.passed.filter((id) => cutShort.has(id));
}

/** The share of the cases outside `owner` that ended inconclusive. */
export function inconclusiveOutside(r: Run, owner: string): { share: number; ids: string[] } {
  const outside = r.outcomes.filter((o) => !o.requirements.includes(owner));
  const ids = outside.filter((o) => o.status === 'inconclusive').map((o) => o.id);
  return { share: ids.length / outside.length, ids };
}

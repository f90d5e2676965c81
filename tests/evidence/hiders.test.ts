/**
 * No pass without an observation, and one defect, one failure.
 *
 * The reference harness behind a quirk that keeps cases from observing their requirement
 * (harnesses/hiders) must not get those requirements into `passed`: each cut-short case ends
 * inconclusive with the refusal as its cause, so an implementer sees the one defect that hid the
 * rest. And with calibration (the default), a hider whose quirk refuses a legal form fails exactly
 * the ID that form belongs to, while at most 5% of the cases outside that ID end inconclusive: the
 * rest of the harness is judged (issue 21's acceptance).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createHiderAdapter, type HiderName } from '../../harnesses/hiders/index.js';
import { computeVerdicts, type Verdicts } from '../../results/verdicts.js';
import type { CaseOutcome } from '../../results/record.js';
import { createMutantAdapter } from '../../harnesses/mutants/index.js';
import type { CaseDef } from '../../suites/kit/types.js';
import { failedIds, recordsOf, runSuiteInProcess } from '../support/run-suite.js';

interface Run {
  outcomes: CaseOutcome[];
  verdicts: Verdicts;
}

const strict = new Map<HiderName, Run>();
const calibrated = new Map<HiderName, Run>();

/** Each hider's quirk, and the one ID whose case owns the legal form it refuses. */
const HIDDEN: ReadonlyArray<{ hider: HiderName; owner: string }> = [
  { hider: 'requires-revision', owner: 'L1-P2' },
  { hider: 'refuses-append', owner: 'ADV-pointer-paths' },
  { hider: 'zero-target-digest', owner: 'L2-A4' },
];

/**
 * A narrowing miss that composition merely carries: the mutant permission-profile-wins lets a
 * profile's stated permission stand over the policy's for every top-level profile, flat or
 * inheriting. It is the reference with one rule replaced, so its parent and subagent sessions
 * agree (a wrapper at the protocol boundary could only rewrite the answers, and a subagent would
 * then be narrowed against a parent other than the one reported).
 */
const NARROWING_MISS = { mutant: 'permission-profile-wins', owner: 'L1-I3' } as const;
let narrowingMiss: Run;

/**
 * Every run here is over the in-process cases. The process cases (the L2-A5 and L2-A12 crash points
 * and write paths) spawn the adapter under test as a process and kill or trace it while it applies
 * a delta to, or writes back, a private profile. No assertion here is about them, and every adapter
 * of this file passed all four, calibrated or not, while they were in these runs, at about 5 s of
 * CPU per run (strace and the spawned processes). As tests/mutants.test.ts does for a mutant that
 * breaks none of their IDs, they are left out; the reference's pass of them is proved by its Level 3
 * certification in tests/suites/upstream.test.ts, and the mutants of their IDs fail them in
 * tests/mutants.test.ts.
 */
const IN_PROCESS = { level: 3 as const, filter: (c: CaseDef) => !c.needs?.process };

async function run(name: HiderName, calibrate: boolean): Promise<Run> {
  const outcomes = await runSuiteInProcess(() => createHiderAdapter(name), { ...IN_PROCESS, calibrate });
  return { outcomes, verdicts: computeVerdicts(recordsOf(outcomes)) };
}

/**
 * The skill-pin hider's run, and the verdicts of the same run had its declined cases passed: what
 * the reference gets over these cases (it passes every one; tests/suites/upstream.test.ts certifies
 * it), without running it a second time here.
 */
let skillPins: Run;
let reference: Verdicts;

beforeAll(async () => {
  for (const name of ['refuses-narrowing', 'requires-revision'] as const) strict.set(name, await run(name, false));
  for (const { hider } of HIDDEN) calibrated.set(hider, await run(hider, true));
  const missed = await runSuiteInProcess(() => createMutantAdapter(NARROWING_MISS.mutant), IN_PROCESS);
  narrowingMiss = { outcomes: missed, verdicts: computeVerdicts(recordsOf(missed)) };
  const outcomes = await runSuiteInProcess(() => createHiderAdapter('declines-skill-pins'), IN_PROCESS);
  skillPins = { outcomes, verdicts: computeVerdicts(recordsOf(outcomes)) };
  const passedInstead = outcomes.map(
    (o): CaseOutcome => (o.status === 'skipped' ? { id: o.id, requirements: o.requirements, status: 'pass', durationMs: o.durationMs } : o),
  );
  reference = computeVerdicts(recordsOf(passedInstead));
}, 900_000);

/** No ID with a case that could not observe it is in `passed`. */
function cutShortButPassed(r: Run): string[] {
  const cutShort = new Set(r.outcomes.filter((o) => o.status === 'inconclusive').flatMap((o) => o.requirements));
  return r.verdicts.passed.filter((id) => cutShort.has(id));
}

describe('a harness that refuses every instantiation it would have to narrow', () => {
  it.each(['L1-I2', 'L1-I3', 'L1-I9', 'L3-E2'])('does not get %s into passed: it is inconclusive, with the refusal as the cause', (id) => {
    const { verdicts } = strict.get('refuses-narrowing')!;
    expect(verdicts.passed).not.toContain(id);
    expect(verdicts.failed).not.toContain(id);
    const v = verdicts.byId.get(id)!;
    expect(v.verdict).toBe('inconclusive');
    expect(v.reason).toMatch(/cause: .*rejected: other at \/spec\//);
  });

  it('passes no requirement any of whose cases was cut short', () => {
    expect(cutShortButPassed(strict.get('refuses-narrowing')!)).toEqual([]);
  });
});

describe('a harness that wrongly requires metadata.revision, without calibration (--no-calibrate)', () => {
  it('fails the requirements that oblige it to accept a valid document (L1-P1, L1-P2)', () => {
    const { verdicts } = strict.get('requires-revision')!;
    expect(verdicts.failed).toEqual(expect.arrayContaining(['L1-P1', 'L1-P2']));
  });

  it('cuts the other cases short instead of failing their requirements, naming /metadata/revision and L1-P2', () => {
    const { outcomes } = strict.get('requires-revision')!;
    const inconclusive = outcomes.filter((o) => o.status === 'inconclusive');
    expect(inconclusive.length).toBeGreaterThan(20);
    for (const o of inconclusive) if (o.status === 'inconclusive' && o.cause) expect(o.cause, o.id).toMatch(/\/metadata\/revision/);
    // The refusal rule names the ID that judges the refusal on every one of them.
    for (const o of inconclusive)
      if (o.status === 'inconclusive' && o.cause?.includes('/metadata/revision')) expect(o.cause_id, o.id).toBe('L1-P2');
    const l1Failures = outcomes.filter((o) => o.status === 'fail' && o.requirements.some((id) => id.startsWith('L1-')));
    expect([...new Set(l1Failures.flatMap((o) => o.requirements))].sort()).toEqual(['L1-P1', 'L1-P2']);
  });

  it('passes no requirement any of whose cases was cut short', () => {
    expect(cutShortButPassed(strict.get('requires-revision')!)).toEqual([]);
  });
});

/** The share of the cases outside `owner` that ended inconclusive. */
function inconclusiveOutside(r: Run, owner: string): { share: number; ids: string[] } {
  const outside = r.outcomes.filter((o) => !o.requirements.includes(owner));
  const ids = outside.filter((o) => o.status === 'inconclusive').map((o) => o.id);
  return { share: ids.length / outside.length, ids };
}

describe.each(HIDDEN)('calibrated, the $hider hider', ({ hider, owner }) => {
  it(`fails exactly ${owner}`, () => {
    expect(failedIds(calibrated.get(hider)!.outcomes)).toEqual([owner]);
  });

  it(`leaves at most 5% of the cases outside ${owner} inconclusive`, () => {
    const { share, ids } = inconclusiveOutside(calibrated.get(hider)!, owner);
    expect(share, ids.join(', ')).toBeLessThanOrEqual(0.05);
  });

  it('records on each case the accommodations that changed its inputs, and passes no requirement any of whose cases was cut short', () => {
    const { outcomes } = calibrated.get(hider)!;
    expect(outcomes.some((o) => o.accommodations?.length)).toBe(true);
    expect(cutShortButPassed(calibrated.get(hider)!)).toEqual([]);
  });
});

/**
 * Issue 22: an ID passes only when every clause has a passing case. A harness that cannot pin skills
 * and says so (its handshake lists the feature as unimplemented, and it declines every profile that
 * pins a skill by digest) passes every L3-G2 case but the skills one, so before clauses L3-G2 passed
 * for it; now its `pin-skills` clause has no pass and L3-G2 stays out of `passed`, by name.
 */
describe('a harness that declines skill pins', () => {
  it('declines exactly the cases whose profile pins a skill by digest, and passes every other case', () => {
    const { outcomes } = skillPins;
    expect(outcomes.filter((o) => o.status !== 'pass').map((o) => `${o.id}:${o.status}`)).toEqual([
      'L3-K1/digest-pin-mismatch-required:skipped',
      'L3-K1/digest-pin-mismatch-never-present:skipped',
      'L3-G2/skills-pin-by-digest-honoured:skipped',
    ]);
    for (const o of outcomes) if (o.status === 'skipped') expect(o.message).toMatch(/not implemented.*spec\.tools\.skills\.digest_pinning/);
  });

  it('does not get L3-G2 into passed, and the reason names the clause', () => {
    const { verdicts } = skillPins;
    const g2 = verdicts.byId.get('L3-G2')!;
    expect(verdicts.passed).not.toContain('L3-G2');
    expect(verdicts.failed).not.toContain('L3-G2');
    expect(g2.verdict).toBe('skipped');
    expect(g2.reason).toMatch(
      /^clause L3-G2\.pin-skills \(Pinning by digest in skills\) skipped: 1 of 1 case\(s\) declined by the adapter/,
    );
    expect(g2.clauses.map((q) => `${q.id}:${q.verdict}`)).toEqual([
      'L3-G2.profile-digest:pass',
      'L3-G2.spec-digest:pass',
      'L3-G2.pin-extends:pass',
      'L3-G2.pin-skills:skipped',
    ]);
  });

  it('changes nothing unrelated: every other ID is judged as the reference is, and L3-K1 only in its declined clause', () => {
    const { verdicts } = skillPins;
    const verdictOf = (v: Verdicts) => [...v.byId.values()].map((r) => `${r.id}:${r.verdict}`);
    const differing = verdictOf(verdicts).filter((line, i) => line !== verdictOf(reference)[i]);
    expect(differing).toEqual(['L3-K1:skipped', 'L3-G2:skipped']);
    expect([...verdicts.advisories.values()].map((a) => a.verdict)).toEqual([...reference.advisories.values()].map((a) => a.verdict));
    const k1 = verdicts.byId.get('L3-K1')!;
    expect(k1.clauses.map((q) => `${q.id}:${q.verdict}`)).toEqual([
      'L3-K1.support:pass',
      'L3-K1.verify-digest:skipped',
      'L3-K1.no-install:pass',
    ]);
  });
});

describe('a narrowing miss that composition merely carries (attribution by difference)', () => {
  it(`fails exactly ${NARROWING_MISS.owner}, never L3-E2`, () => {
    expect(failedIds(narrowingMiss.outcomes)).toEqual([NARROWING_MISS.owner]);
  });

  it('leaves the L3-E2 cases whose flat profile shows the same miss inconclusive, naming L1-I3', () => {
    const e2 = narrowingMiss.outcomes.filter((o) => o.requirements.includes('L3-E2') && o.status === 'inconclusive');
    expect(e2.length).toBeGreaterThan(0);
    for (const o of e2) expect(o.status === 'inconclusive' && o.cause_id, o.id).toBe('L1-I3');
  });

  it(`leaves at most 5% of the cases outside ${NARROWING_MISS.owner} inconclusive`, () => {
    const { share, ids } = inconclusiveOutside(narrowingMiss, NARROWING_MISS.owner);
    expect(share, ids.join(', ')).toBeLessThanOrEqual(0.05);
  });
});

/**
 * No pass without an observation: the reference harness behind a quirk that keeps cases from
 * observing their requirement (harnesses/hiders) must not get those requirements into `passed`.
 * Each cut-short case ends inconclusive with the refusal as its cause, so an implementer sees the
 * one defect that hid the rest.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createHiderAdapter, type HiderName } from '../../harnesses/hiders/index.js';
import { computeVerdicts, type Verdicts } from '../../results/verdicts.js';
import type { CaseOutcome } from '../../results/record.js';
import { createReferenceAdapter } from '../../harnesses/reference/index.js';
import type { CaseDef } from '../../suites/kit/types.js';
import { recordsOf, runSuiteInProcess } from '../support/run-suite.js';

const runs = new Map<HiderName, { outcomes: CaseOutcome[]; verdicts: Verdicts }>();
/** The reference's verdicts over the same cases as the skill-pin hider's. */
let reference: Verdicts;

beforeAll(async () => {
  for (const name of ['refuses-narrowing', 'requires-revision'] as const) {
    const outcomes = await runSuiteInProcess(() => createHiderAdapter(name), { level: 3 });
    runs.set(name, { outcomes, verdicts: computeVerdicts(recordsOf(outcomes)) });
  }
  // The process cases spawn adapters of their own (builtin specs), never the one under test: left
  // out of both runs that are compared.
  const inProcess = { level: 3 as const, filter: (c: CaseDef) => !c.needs?.process };
  const outcomes = await runSuiteInProcess(() => createHiderAdapter('declines-skill-pins'), inProcess);
  runs.set('declines-skill-pins', { outcomes, verdicts: computeVerdicts(recordsOf(outcomes)) });
  reference = computeVerdicts(recordsOf(await runSuiteInProcess(() => createReferenceAdapter(), inProcess)));
}, 300_000);

/** No ID with a case that could not observe it is in `passed`. */
function cutShortButPassed(name: HiderName): string[] {
  const { outcomes, verdicts } = runs.get(name)!;
  const cutShort = new Set(outcomes.filter((o) => o.status === 'inconclusive').flatMap((o) => o.requirements));
  return verdicts.passed.filter((id) => cutShort.has(id));
}

describe('a harness that refuses every instantiation it would have to narrow', () => {
  it.each(['L1-I2', 'L1-I3', 'L1-I9', 'L3-E2'])('does not get %s into passed: it is inconclusive, with the refusal as the cause', (id) => {
    const { verdicts } = runs.get('refuses-narrowing')!;
    expect(verdicts.passed).not.toContain(id);
    expect(verdicts.failed).not.toContain(id);
    const v = verdicts.byId.get(id)!;
    expect(v.verdict).toBe('inconclusive');
    expect(v.reason).toMatch(/cause: .*rejected: other at \/spec\//);
  });

  it('passes no requirement any of whose cases was cut short', () => {
    expect(cutShortButPassed('refuses-narrowing')).toEqual([]);
  });
});

describe('a harness that wrongly requires metadata.revision', () => {
  it('fails the requirements that oblige it to accept a valid document (L1-P1, L1-P2)', () => {
    const { verdicts } = runs.get('requires-revision')!;
    expect(verdicts.failed).toEqual(expect.arrayContaining(['L1-P1', 'L1-P2']));
  });

  it('cuts the other cases short instead of failing their requirements, naming /metadata/revision', () => {
    const { outcomes } = runs.get('requires-revision')!;
    const inconclusive = outcomes.filter((o) => o.status === 'inconclusive');
    expect(inconclusive.length).toBeGreaterThan(20);
    for (const o of inconclusive) if (o.status === 'inconclusive' && o.cause) expect(o.cause, o.id).toMatch(/\/metadata\/revision|spawned/);
    const l1Failures = outcomes.filter((o) => o.status === 'fail' && o.requirements.some((id) => id.startsWith('L1-')));
    expect([...new Set(l1Failures.flatMap((o) => o.requirements))].sort()).toEqual(['L1-P1', 'L1-P2']);
  });

  it('passes no requirement any of whose cases was cut short', () => {
    expect(cutShortButPassed('requires-revision')).toEqual([]);
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
    const { outcomes } = runs.get('declines-skill-pins')!;
    expect(outcomes.filter((o) => o.status !== 'pass').map((o) => `${o.id}:${o.status}`)).toEqual([
      'L3-K1/digest-pin-mismatch-required:skipped',
      'L3-K1/digest-pin-mismatch-never-present:skipped',
      'L3-G2/skills-pin-by-digest-honoured:skipped',
    ]);
    for (const o of outcomes) if (o.status === 'skipped') expect(o.message).toMatch(/not implemented.*spec\.tools\.skills\.digest_pinning/);
  });

  it('does not get L3-G2 into passed, and the reason names the clause', () => {
    const { verdicts } = runs.get('declines-skill-pins')!;
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
    const { verdicts } = runs.get('declines-skill-pins')!;
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

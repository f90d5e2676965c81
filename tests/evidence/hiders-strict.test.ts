/**
 * No pass without an observation, without calibration (--no-calibrate): the reference harness
 * behind a quirk that keeps cases from observing their requirement (harnesses/hiders) must not get
 * those requirements into `passed`. Each cut-short case ends inconclusive with the refusal as its
 * cause, so an implementer sees the one defect that hid the rest.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { HiderName } from '../../harnesses/hiders/index.js';
import { cutShortButPassed, hiderRun, type Run } from '../support/hider-runs.js';

const strict = new Map<HiderName, Run>();

beforeAll(async () => {
  for (const name of ['refuses-narrowing', 'requires-revision'] as const) strict.set(name, await hiderRun(name, false));
}, 900_000);

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

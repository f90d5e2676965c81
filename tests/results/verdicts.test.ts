import { describe, expect, it } from 'vitest';
import { attainedLevel, checkClaim, compareRequirementIds, computeVerdicts } from '../../results/verdicts.js';
import { requiredIdsUpTo } from '../../spec/requirements.js';
import { makeCase, makeReport } from './make-report.js';

describe('requirement verdicts', () => {
  it('passes an ID only when it has a case and every case passed', () => {
    const v = computeVerdicts([makeCase('a', ['L1-P1']), makeCase('b', ['L1-P1'])]);
    expect(v.byId.get('L1-P1')!.verdict).toBe('pass');
    expect(v.passed).toContain('L1-P1');
    expect(v.byId.get('L1-P2')!.verdict).toBe('untested');
    expect(v.passed).not.toContain('L1-P2');
  });

  it('never counts a skip as a pass, even beside passing cases', () => {
    const v = computeVerdicts([makeCase('a', ['L1-P1']), makeCase('b', ['L1-P1'], 'skipped', { message: 'declined' })]);
    expect(v.byId.get('L1-P1')!.verdict).toBe('skipped');
    expect(v.byId.get('L1-P1')!.reason).toContain('declined');
    expect(v.passed).not.toContain('L1-P1');
    expect(v.failed).not.toContain('L1-P1');
  });

  it.each([
    ['error', 'errored'],
    ['timeout', 'errored'],
    ['inconclusive', 'inconclusive'],
    ['skipped', 'skipped'],
  ] as const)('never counts %s as a pass (nor as a failure), even beside passing cases', (status, verdict) => {
    const v = computeVerdicts([makeCase('a', ['L1-I3']), makeCase('b', ['L1-I3'], status)]);
    expect(v.byId.get('L1-I3')!.verdict).toBe(verdict);
    expect(v.passed).not.toContain('L1-I3');
    expect(v.failed).not.toContain('L1-I3');
  });

  it('names the root cause of an inconclusive ID in its reason', () => {
    const v = computeVerdicts([makeCase('a', ['L1-I3'], 'inconclusive', { message: 'control profile rejected' })]);
    expect(v.byId.get('L1-I3')!.reason).toContain('cause: control profile rejected: schema at /metadata/revision');
  });

  it('fails an ID when any case failed, whatever else happened', () => {
    const v = computeVerdicts([makeCase('a', ['L1-I3'], 'error'), makeCase('b', ['L1-I3'], 'fail'), makeCase('c', ['L1-I3'])]);
    expect(v.byId.get('L1-I3')!.verdict).toBe('fail');
    expect(v.failed).toEqual(['L1-I3']);
  });

  it('passes an ID beside confirmed not-applicable cases, and vacuously on them alone', () => {
    const mixed = computeVerdicts([makeCase('yaml', ['L1-P1']), makeCase('md', ['L1-P1'], 'not-applicable')]);
    expect(mixed.byId.get('L1-P1')).toMatchObject({ verdict: 'pass', vacuous: false });
    const only = computeVerdicts([makeCase('user-over-project', ['L1-D3'], 'not-applicable')]);
    expect(only.byId.get('L1-D3')).toMatchObject({ verdict: 'pass', vacuous: true });
    expect(only.byId.get('L1-D3')!.reason).toMatch(/^satisfied vacuously: .*probe: discover did not list/);
    expect(only.passed).toContain('L1-D3');
  });

  it('a not-applicable case never outweighs an inconclusive one', () => {
    const v = computeVerdicts([makeCase('a', ['L1-D3'], 'not-applicable'), makeCase('b', ['L1-D3'], 'inconclusive')]);
    expect(v.byId.get('L1-D3')!.verdict).toBe('inconclusive');
  });

  it('judges a case proving several IDs for each of them', () => {
    const v = computeVerdicts([makeCase('x', ['L2-A5', 'L2-A12'], 'fail')]);
    expect(v.failed).toEqual(['L2-A5', 'L2-A12']);
  });

  it('sorts IDs by level, section and number', () => {
    expect(['L1-I10', 'L2-A1', 'L1-I2', 'L1-D4'].sort(compareRequirementIds)).toEqual(['L1-D4', 'L1-I2', 'L1-I10', 'L2-A1']);
  });
});

describe('level claims', () => {
  it('holds for an all-pass run at every level up to the run level', () => {
    const v = computeVerdicts(makeReport({ level: 3 }).cases);
    for (const level of [1, 2, 3] as const) expect(checkClaim(level, v).holds).toBe(true);
    expect(attainedLevel(v, makeReport({ level: 3 }))).toBe(3);
  });

  it('does not require SHOULD IDs', () => {
    const report = makeReport({ level: 3, statuses: { 'L2-G5': 'skipped', 'L2-A14': 'error', 'L3-M2': 'skipped' } });
    const v = computeVerdicts(report.cases);
    expect(checkClaim(3, v).holds).toBe(true);
    expect(v.passed).not.toContain('L2-G5');
    expect(attainedLevel(v, report)).toBe(3);
  });

  it('reports a failed SHOULD ID apart and never lets it gate a claim', () => {
    const v = computeVerdicts(makeReport({ level: 3, statuses: { 'L3-M2': 'fail', 'L2-G5': 'fail' } }).cases);
    expect(v.failed).toEqual([]);
    expect(v.shouldNotMet).toEqual(['L2-G5', 'L3-M2']);
    expect(checkClaim(3, v).holds).toBe(true);
    expect(attainedLevel(v)).toBe(3);
  });

  it('a skipped required ID breaks the claim for its level and above only', () => {
    const v = computeVerdicts(makeReport({ level: 3, statuses: { 'L2-A5': 'skipped' } }).cases);
    expect(checkClaim(1, v).holds).toBe(true);
    expect(checkClaim(2, v).holds).toBe(false);
    expect(checkClaim(2, v).problems.map((p) => p.id)).toEqual(['L2-A5']);
    expect(attainedLevel(v)).toBe(1);
  });

  it('an errored required level-1 ID leaves no level attained', () => {
    const v = computeVerdicts(makeReport({ level: 3, statuses: { 'L1-I3': 'timeout' } }).cases);
    expect(attainedLevel(v)).toBe(0);
  });

  it('a level-1 run cannot attain level 2', () => {
    const report = makeReport({ level: 1 });
    expect(attainedLevel(computeVerdicts(report.cases), report)).toBe(1);
    expect(requiredIdsUpTo(1).every((id) => computeVerdicts(report.cases).passed.includes(id))).toBe(true);
  });

  it('an interrupted report attains nothing', () => {
    const interrupted = makeReport({ footer: { interrupted: true, complete: false } });
    expect(attainedLevel(computeVerdicts(interrupted.cases), interrupted)).toBe(0);
  });
});

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

  it('passes an ID only when every clause has a passing case: a clause no case observed keeps it out, by name', () => {
    const g2 = ['L3-G2.profile-digest', 'L3-G2.spec-digest', 'L3-G2.pin-extends'];
    const v = computeVerdicts([makeCase('digests', ['L3-G2'], 'pass', { clauses: g2 })]);
    expect(v.byId.get('L3-G2')).toMatchObject({ verdict: 'untested', vacuous: false });
    expect(v.byId.get('L3-G2')!.reason).toMatch(
      /^clause L3-G2\.pin-skills \(Pinning by digest in skills\) not observed: no case observed it/,
    );
    expect(v.passed).not.toContain('L3-G2');
    expect(v.byId.get('L3-G2')!.clauses.map((q) => [q.id, q.verdict])).toEqual([
      ['L3-G2.profile-digest', 'pass'],
      ['L3-G2.spec-digest', 'pass'],
      ['L3-G2.pin-extends', 'pass'],
      ['L3-G2.pin-skills', 'untested'],
    ]);
  });

  it('a clause whose only cases were declined keeps its ID out of passed and the reason names it (a harness that declines skills)', () => {
    const v = computeVerdicts([
      makeCase('digests', ['L3-G2'], 'pass', { clauses: ['L3-G2.profile-digest', 'L3-G2.spec-digest', 'L3-G2.pin-extends'] }),
      makeCase('skills', ['L3-G2'], 'skipped', { clauses: ['L3-G2.pin-skills'], message: 'instantiate declined: skills unsupported' }),
    ]);
    expect(v.byId.get('L3-G2')!.verdict).toBe('skipped');
    expect(v.byId.get('L3-G2')!.reason).toMatch(
      /^clause L3-G2\.pin-skills .* skipped: 1 of 1 case\(s\) declined by the adapter; skills: skipped/,
    );
    expect(checkClaim(3, v).problems.map((p) => p.id)).toContain('L3-G2');
  });

  it('a clause is not applicable only on confirmed omissions, and its reason quotes the sentence that permits them', () => {
    const v = computeVerdicts([
      makeCase('precedence', ['L1-D3'], 'pass', { clauses: ['L1-D3.precedence'] }),
      makeCase('reported', ['L1-D3'], 'not-applicable', { clauses: ['L1-D3.reported'] }),
    ]);
    const d3 = v.byId.get('L1-D3')!;
    expect(d3).toMatchObject({ verdict: 'pass', vacuous: false });
    expect(d3.clauses[1]).toMatchObject({ id: 'L1-D3.reported', verdict: 'not-applicable' });
    expect(d3.reason).toContain('permitted by CONF-2.2-1 "**L1-D1** MUST support at least the project discovery root."');
  });

  it('a case naming no clause of an ID still counts against it', () => {
    const v = computeVerdicts([makeCase('all', ['L1-P1']), makeCase('stray', ['L1-P1'], 'fail', { clauses: [] })]);
    expect(v.byId.get('L1-P1')!.verdict).toBe('fail');
    expect(v.byId.get('L1-P1')!.reason).toContain('names no clause of L1-P1');
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

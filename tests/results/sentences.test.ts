import { describe, expect, it } from 'vitest';
import { sentenceVerdict } from '../../results/sentences.js';
import { sentenceById } from '../../spec/sentences.js';
import { makeCase } from './make-report.js';

const s = (id: string) => {
  const found = sentenceById(id);
  if (!found) throw new Error(`no sentence ${id}`);
  return found;
};

describe('sentence verdicts', () => {
  it('a sentence passes when every clause it rests on has a passing case, and fails with a failing one', () => {
    const both = s('SPEC-2.1-3'); // L3-G1.md-both-rejected
    expect(sentenceVerdict(both, [makeCase('md', ['L3-G1'], 'pass', { clauses: ['L3-G1.md-both-rejected'] })], 3).verdict).toBe('pass');
    const failed = sentenceVerdict(both, [makeCase('md', ['L3-G1'], 'fail', { clauses: ['L3-G1.md-both-rejected'] })], 3);
    expect(failed).toMatchObject({ verdict: 'fail', caseIds: ['md'] });
    expect(failed.reason).toMatch(/^clause L3-G1\.md-both-rejected failed/);
  });

  it('is not observed while one of its clauses has no pass, and names that clause', () => {
    const g2 = s('CONF-4-10'); // every clause of L3-G2
    const v = sentenceVerdict(
      g2,
      [
        makeCase('digests', ['L3-G2'], 'pass', { clauses: ['L3-G2.profile-digest', 'L3-G2.spec-digest', 'L3-G2.pin-extends'] }),
        makeCase('skills', ['L3-G2'], 'skipped', { clauses: ['L3-G2.pin-skills'] }),
      ],
      3,
    );
    expect(v.verdict).toBe('not-observed');
    expect(v.reason).toMatch(/^clause L3-G2\.pin-skills not observed \(skipped: /);
  });

  it('says so when the clause belongs to a level above the run', () => {
    expect(sentenceVerdict(s('CONF-4-1'), [], 2).reason).toBe("clause L3-E1.resolve not observed (its level (3) is above the run's (2))");
  });

  it('is observed through its advisory, shows an exclusion as such, and leaves an unmapped SHOULD unchecked', () => {
    const params = sentenceVerdict(s('SPEC-3.3-2'), [makeCase('p', ['ADV-model-parameters'])], 1);
    expect(params).toMatchObject({ verdict: 'pass', caseIds: ['p'] });
    expect(sentenceVerdict(s('SPEC-1.4-1'), [], 3)).toMatchObject({ verdict: 'excluded' });
    expect(sentenceVerdict(s('SEC-T3-2'), [], 3)).toMatchObject({ verdict: 'not-observed', reason: 'a SHOULD no case checks' });
  });

  it('counts only the cases a sentence names: the behavioural tests are thirteen cases, not every case of their IDs', () => {
    const named = makeCase('L1-I3/shell-allow-under-policy-deny', ['L1-I3'], 'pass', { clauses: ['L1-I3.permissions'] });
    const other = makeCase('L1-I3/budgets-take-the-smaller-limit', ['L1-I3'], 'fail', { clauses: ['L1-I3.budgets', 'L1-I3.permissions'] });
    const v = sentenceVerdict(s('CONF-5.2-1'), [named, other], 3);
    expect(v.caseIds).toEqual(['L1-I3/shell-allow-under-policy-deny']);
    expect(v.verdict).toBe('not-observed');
  });

  it('is not applicable only when every clause is, quoting the sentence that permits the omission', () => {
    const v = sentenceVerdict(s('SPEC-5.1-2'), [makeCase('d3', ['L1-D3'], 'not-applicable')], 1);
    expect(v.verdict).toBe('not-applicable');
    expect(v.reason).toContain('permitted by CONF-2.2-1');
  });
});

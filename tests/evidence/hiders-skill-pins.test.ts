import { beforeAll, describe, expect, it } from 'vitest';
import type { CaseOutcome } from '../../results/record.js';
import { computeVerdicts, type Verdicts } from '../../results/verdicts.js';
import { hiderRun, type Run } from '../support/hider-runs.js';
import { recordsOf } from '../support/run-suite.js';

/**
 * The skill-pin hider's run, and the verdicts of the same run had its declined cases passed: what
 * the reference gets over these cases (it passes every one; tests/suites/upstream.test.ts certifies
 * it), without running it a second time here.
 */
let skillPins: Run;
let reference: Verdicts;

beforeAll(async () => {
  skillPins = await hiderRun('declines-skill-pins', true);
  const passedInstead = skillPins.outcomes.map(
    (o): CaseOutcome => (o.status === 'skipped' ? { id: o.id, requirements: o.requirements, status: 'pass', durationMs: o.durationMs } : o),
  );
  reference = computeVerdicts(recordsOf(passedInstead));
}, 900_000);

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

/**
 * A narrowing miss that composition merely carries: the mutant permission-profile-wins lets a
 * profile's stated permission stand over the policy's for every top-level profile, flat or
 * inheriting. It is the reference with one rule replaced, so its parent and subagent sessions
 * agree (a wrapper at the protocol boundary could only rewrite the answers, and a subagent would
 * then be narrowed against a parent other than the one reported). It fails L1-I3 alone; the L3-E2
 * cases showing the same miss are attributed by difference (their flat twin) and name L1-I3.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createMutantAdapter } from '../../harnesses/mutants/index.js';
import { inconclusiveOutside, inProcessRun, type Run } from '../support/hider-runs.js';
import { failedIds } from '../support/run-suite.js';

const NARROWING_MISS = { mutant: 'permission-profile-wins', owner: 'L1-I3' } as const;
let narrowingMiss: Run;

beforeAll(async () => {
  narrowingMiss = await inProcessRun(() => createMutantAdapter(NARROWING_MISS.mutant));
}, 900_000);

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

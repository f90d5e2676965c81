/**
 * The Level 2 suite against the reference harness and its mutants:
 *  (a) the reference passes every Level 2 case, crash and race cases included (spawned processes):
 *      its certification run in tests/suites/upstream.test.ts;
 *  (b, c) each mutant failing exactly its `breaks` is asserted in tests/mutants.test.ts;
 *  (d) an adapter that implements nothing passes no Level 2 case;
 * plus coverage: every Level 2 requirement has a case, every one has a mutant, fixtures are used.
 */
import { describe, expect, it } from 'vitest';
import { MUTANTS } from '../../harnesses/mutants/index.js';
import { cases as level2 } from '../../suites/level-2/index.js';
import { fixtures } from '../../fixtures/index.js';
import { isAdvisoryId, levelOfId, REQUIREMENTS } from '../../spec/requirements.js';
import { decliningAdapter } from '../support/declining-adapter.js';
import { runSuiteInProcess } from '../support/run-suite.js';

const L2_IDS = REQUIREMENTS.filter((r) => r.level === 2).map((r) => r.id);
const isL2 = (id: string): boolean => id.startsWith('L2-');
const isL2OrAdvisory = (id: string): boolean => isL2(id) || (isAdvisoryId(id) && levelOfId(id) === 2);

describe('Level 2 suite', () => {
  it('covers every Level 2 requirement and uses every Level 2 fixture', () => {
    const covered = new Set(level2.flatMap((c) => c.requirements));
    expect(L2_IDS.filter((id) => !covered.has(id))).toEqual([]);
    // One ID per case: a Level 2 requirement, or a Level 2 advisory (never gating).
    expect(level2.filter((c) => !(c.requirements.length === 1 && c.requirements.every(isL2OrAdvisory))).map((c) => c.id)).toEqual([]);
    const used = new Set(level2.flatMap((c) => c.fixtures ?? []));
    expect(
      fixtures('level-2')
        .map((f) => f.id)
        .filter((id) => !used.has(id)),
    ).toEqual([]);
  });

  it('every Level 2 requirement (MUST and SHOULD) has a mutant that breaks it', () => {
    const broken = new Set(MUTANTS.flatMap((m) => m.breaks));
    expect(L2_IDS.filter((id) => !broken.has(id))).toEqual([]);
  });

  // (a): the reference passing every case of every level, crash and race cases included, is proved
  // once, by its Level 3 certification through the CLI in tests/suites/upstream.test.ts
  // ("oap-conform run --fixtures DIR"), whose workers spawn the adapter processes those cases kill.

  // (b)/(c): each mutant's exact failing IDs over the whole suite are asserted once, in
  // tests/mutants.test.ts, which subsumes both per-level checks.

  it('(d) an adapter that implements nothing passes no Level 2 case', async () => {
    const out = await runSuiteInProcess(() => decliningAdapter(2), { level: 2, cases: level2 });
    expect(out.filter((o) => o.status === 'pass').map((o) => o.id)).toEqual([]);
    expect(out.filter((o) => o.status === 'fail').map((o) => o.id)).toEqual([]);
  });
});

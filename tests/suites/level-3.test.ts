/**
 * The Level 3 suite against the reference harness and its mutants:
 *  (a) the reference passes every Level 3 case (its certification run in tests/suites/upstream.test.ts);
 *  (b) every mutant that breaks a Level 3 ID fails exactly its `breaks` at level 3 (whole suite);
 *  (c) no mutant makes a Level 3 case fail for an ID it does not break (isolation, L3 cases only);
 *  (d) an adapter that implements nothing passes no Level 3 case;
 * plus coverage: every Level 3 requirement has a case and every MUST has a mutant.
 */
import { describe, expect, it } from 'vitest';
import { MUTANTS } from '../../harnesses/mutants/index.js';
import { cases as level3 } from '../../suites/level-3/index.js';
import { REQUIREMENTS } from '../../spec/requirements.js';
import { decliningAdapter } from '../support/declining-adapter.js';
import { runSuiteInProcess } from '../support/run-suite.js';

const L3_IDS = REQUIREMENTS.filter((r) => r.level === 3).map((r) => r.id);
const isL3 = (id: string): boolean => id.startsWith('L3-');

describe('Level 3 suite', () => {
  it('covers every Level 3 requirement', () => {
    const covered = new Set(level3.flatMap((c) => c.requirements));
    expect(L3_IDS.filter((id) => !covered.has(id))).toEqual([]);
    expect(level3.every((c) => c.requirements.every(isL3))).toBe(true);
  });

  // (a): the reference passing every case of every level is proved once, by its Level 3
  // certification through the CLI in tests/suites/upstream.test.ts ("oap-conform run --fixtures DIR").

  it('every Level 3 MUST has a mutant that breaks it', () => {
    const musts = REQUIREMENTS.filter((r) => r.level === 3 && r.strength === 'MUST').map((r) => r.id);
    const broken = new Set(MUTANTS.flatMap((m) => m.breaks));
    expect(musts.filter((id) => !broken.has(id))).toEqual([]);
  });

  // (b)/(c): each mutant's exact failing IDs over the whole suite at level 3 are asserted once, in
  // tests/mutants.test.ts, which subsumes both per-level checks.

  it('(d) an adapter that implements nothing passes no Level 3 case', async () => {
    const out = await runSuiteInProcess(() => decliningAdapter(3), { level: 3, cases: level3 });
    expect(out.filter((o) => o.status === 'pass').map((o) => o.id)).toEqual([]);
    expect(out.filter((o) => o.status === 'fail').map((o) => o.id)).toEqual([]);
  });
});

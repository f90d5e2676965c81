/**
 * One defect, one failure: with calibration (the default), a hider whose quirk refuses a legal form
 * fails exactly the ID that form belongs to, while at most 5% of the cases outside that ID end
 * inconclusive: the rest of the harness is judged (issue 21's acceptance).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { HiderName } from '../../harnesses/hiders/index.js';
import { cutShortButPassed, hiderRun, inconclusiveOutside, type Run } from '../support/hider-runs.js';
import { failedIds } from '../support/run-suite.js';

const calibrated = new Map<HiderName, Run>();

/** Each hider's quirk, and the one ID whose case owns the legal form it refuses. */
const HIDDEN: ReadonlyArray<{ hider: HiderName; owner: string }> = [
  { hider: 'requires-revision', owner: 'L1-P2' },
  { hider: 'refuses-append', owner: 'ADV-pointer-paths' },
  { hider: 'zero-target-digest', owner: 'L2-A4' },
];

beforeAll(async () => {
  for (const { hider } of HIDDEN) calibrated.set(hider, await hiderRun(hider, true));
}, 900_000);

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

/**
 * The suite against the reference harness: every case must pass (or be not-applicable). The mutant
 * sweep (each mutant must fail exactly the IDs it claims to break) runs every suite case 60+ times,
 * so it is opt-in: OAP_MUTANT_SWEEP=1 npx vitest run tests/reference/suite.test.ts
 */
import { describe, expect, it } from 'vitest';
import { createReferenceAdapter } from '../../adapters/reference/index.js';
import { createMutantAdapter, MUTANTS } from '../../adapters/reference/mutants.js';
import { failedIds, runSuiteInProcess } from '../support/run-suite.js';

describe('suite vs reference harness', () => {
  it('passes every case at level 3', async () => {
    const out = await runSuiteInProcess(() => createReferenceAdapter(), { level: 3 });
    const bad = out.filter((o) => o.status !== 'pass' && o.status !== 'not-applicable').map((o) => `${o.status} ${o.id}: ${o.message ?? ''}`);
    expect(bad).toEqual([]);
  }, 300_000);
});

describe.skipIf(!process.env['OAP_MUTANT_SWEEP'])('mutant sweep', () => {
  for (const m of MUTANTS) {
    it(`${m.name} fails exactly ${m.breaks.join(', ')}`, async () => {
      const out = await runSuiteInProcess(() => createMutantAdapter(m.name), { level: 3 });
      expect(failedIds(out)).toEqual([...m.breaks].sort());
    }, 300_000);
  }
});

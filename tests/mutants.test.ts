/**
 * The proof that the suite is not vacuous: every mutant of the reference harness fails exactly the
 * requirement IDs it is documented to break, and the reference itself fails nothing. Each run is
 * the whole fixture suite (all levels) in-process.
 *
 * The crash, race and write-path cases need adapter processes (spawned through dist/adapters/host.js)
 * and cost ~20 s a run, so they run against the reference and against every mutant that breaks an
 * ID those cases prove (L2-A3, L2-A5, L2-A12). They only ever call apply_delta on a private profile,
 * so no other mutant's deviation can reach them; for those mutants they are not-applicable, which
 * counts neither as a pass nor as a fail.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createReferenceAdapter } from '../adapters/reference/index.js';
import { MUTANTS, createMutantAdapter } from '../adapters/reference/mutants.js';
import { allCases } from '../suites/index.js';
import { REQUIREMENTS } from '../suites/requirements.js';
import { failedIds, passedIds, runSuiteInProcess } from './support/run-suite.js';
import { canSpawnBuiltins, killSpawnedBuiltins, spawnBuiltinForTests } from './support/spawn-builtin.js';

afterAll(killSpawnedBuiltins);

const PROCESS_CASE_IDS = new Set(allCases().filter((c) => c.needs?.process).flatMap((c) => c.requirements));
const spawnFor = (spec: string) => (canSpawnBuiltins() ? { spawnAdapter: () => spawnBuiltinForTests(spec) } : {});

describe('reference harness', () => {
  it('passes every requirement ID at level 3, with no case failing, erroring or skipped', async () => {
    const outcomes = await runSuiteInProcess(() => createReferenceAdapter(), { level: 3, ...spawnFor('builtin:reference') });
    const bad = outcomes.filter((o) => o.status !== 'pass').map((o) => `${o.id}: ${o.status}: ${o.message ?? ''}`);
    expect(bad).toEqual([]);
    expect(passedIds(outcomes)).toEqual(REQUIREMENTS.map((r) => r.id).sort());
  }, 300_000);
});

describe('mutant catalogue', () => {
  it('every one of the 59 requirement IDs has a mutant that breaks it', () => {
    const killed = new Set(MUTANTS.flatMap((m) => m.breaks));
    expect(REQUIREMENTS.map((r) => r.id).filter((id) => !killed.has(id))).toEqual([]);
  });
});

describe.each(MUTANTS.map((m) => [m.name, m] as const))('mutant %s', (name, mutant) => {
  it(`fails exactly ${mutant.breaks.join(', ')}`, async () => {
    const needsProcess = mutant.breaks.some((id) => PROCESS_CASE_IDS.has(id));
    const outcomes = await runSuiteInProcess(() => createMutantAdapter(name), {
      level: 3,
      ...(needsProcess ? spawnFor(`builtin:mutant/${name}`) : {}),
    });
    expect(failedIds(outcomes)).toEqual([...mutant.breaks].sort());
    // A mutant may make its own IDs' cases error (an adapter that throws), never anyone else's.
    const stray = outcomes.filter((o) => ['error', 'crash', 'timeout'].includes(o.status) && !o.requirements.every((id) => mutant.breaks.includes(id)));
    expect(stray.map((o) => `${o.id}: ${o.status}: ${o.message ?? ''}`)).toEqual([]);
  }, 300_000);
});

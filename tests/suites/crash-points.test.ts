/**
 * The crash-point cases (L2-A5/killed-apply-never-partial, L2-A12/killed-write-never-torn) catch
 * the three write-path mutants on every run, whatever the seed: `write-in-place` and
 * `rename-without-fsync` fail the L2-A12 case, `non-atomic-ops` (a save after each operation)
 * fails the L2-A5 case, each judged by strace crash points. Over SEEDS seeds: 20 in the full
 * sweep (`npm run sweep`, run by CI, whose mutant sweep runs these cases against the same mutants
 * once more), 1 in `npm test` (whose sample of mutants need not include these three, so this is
 * where `npm test` proves they are caught). Needs strace and the built host; without
 * them the cases cannot use crash points and this test says so instead of passing.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createMutantAdapter } from '../../harnesses/mutants/index.js';
import { allCases } from '../../suites/index.js';
import { straceAvailable } from '../../suites/level-2/support/write-evidence.js';
import { runSuiteInProcess } from '../support/run-suite.js';
import { canSpawnBuiltins, killSpawnedBuiltins, spawnBuiltinForTests } from '../support/spawn-builtin.js';

const SEEDS = process.env.OAP_SWEEP === 'full' ? 20 : 1;
const CASE = { a5: 'L2-A5/killed-apply-never-partial', a12: 'L2-A12/killed-write-never-torn' } as const;
const CATCHES = [
  ['write-in-place', CASE.a12],
  ['rename-without-fsync', CASE.a12],
  ['non-atomic-ops', CASE.a5],
] as const;

afterAll(killSpawnedBuiltins);

describe.each(CATCHES)('crash points catch %s', (mutant, caseId) => {
  const cases = allCases().filter((c) => c.id === caseId);

  it(`${caseId} fails with strace crash points on each of ${SEEDS} seeds`, async () => {
    // Documented environment requirement, not a skip: CI installs strace (.ci/run).
    expect(straceAvailable() && canSpawnBuiltins(), 'strace and a built dist/ (npm run build) are needed').toBe(true);
    const seen: string[] = [];
    for (let seed = 1; seed <= SEEDS; seed++) {
      const [out] = await runSuiteInProcess(() => createMutantAdapter(mutant), {
        level: 3,
        cases,
        seed,
        spawnAdapter: () => spawnBuiltinForTests(`builtin:mutant/${mutant}`),
      });
      seen.push(`${seed}:${out!.status}:${String(out!.notes?.['method'])}`);
    }
    expect(seen).toEqual(Array.from({ length: SEEDS }, (_, i) => `${i + 1}:fail:strace-crash-points`));
  }, 600_000);
});

import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The test files that keep a worker longest (about 5 s or more each on the 2-core development
 * machine, longest first). vitest starts files by the durations it cached from the previous run,
 * longest first; a clean clone (CI) has no such cache and starts them by size, so a long file could
 * start last and leave one worker running it alone at the end. A file missing from the list only
 * costs packing, never a result.
 */
const HEAVIEST = [
  'tests/mutants.test.ts',
  'tests/e2e/package.test.ts',
  'tests/suites/upstream.test.ts',
  'tests/evidence/hiders-calibrated.test.ts',
  'tests/cli/robustness.test.ts',
  'tests/evidence/hiders-strict.test.ts',
  'tests/results/verify.test.ts',
  'tests/engine/chaos.test.ts',
  'tests/e2e/compare.test.ts',
  'tests/fuzz/evidence.test.ts',
  'tests/evidence/hiders-skill-pins.test.ts',
  'tests/evidence/narrowing-miss.test.ts',
];

/** vitest's order, with the heaviest files moved to the front in the order listed. */
export class HeaviestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification): number => {
      const i = HEAVIEST.findIndex((path) => f.moduleId.endsWith(path));
      return i < 0 ? HEAVIEST.length : i;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

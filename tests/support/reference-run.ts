/**
 * The reference's Level 1 certification through the CLI in this process (--fuzz 0, seed
 * REFERENCE_SEED), run once per vitest worker and shared by the test files that only read what it
 * writes: the end-to-end certification (tests/e2e/certify.test.ts), compare
 * (tests/e2e/compare.test.ts), the emitted schemas (tests/results/emitted-schemas.test.ts) and the
 * unsharded run that shards are merged against (tests/cli/robustness.test.ts). Each of them ran
 * this same certification for itself, about 2.5 s of CPU each. Test files share their worker's
 * module cache (vitest.config.ts, isolate: false), so the first file to ask runs it and the others
 * in that worker get its directory; it lives in the run's shared directory (./shared-dir.ts).
 */
import { join } from 'node:path';
import { inject } from 'vitest';
import { runCli } from './cli.js';

/** The seed of the shared run: a file that compares another run with it runs that one at this seed. */
export const REFERENCE_SEED = '3';

let run: Promise<string> | undefined;

/** The output directory of the shared run (result.json, report.json, journal.ndjson, ...): read it, never write into it. */
export function referenceLevel1(): Promise<string> {
  run ??= (async () => {
    const out = join(inject('sharedDir'), `reference-level-1-${process.pid}`);
    const args = ['run', '--adapter', 'builtin:reference', '--level', '1', '--fuzz', '0', '--seed', REFERENCE_SEED];
    const r = await runCli([...args, '--quiet', '--allow-dirty', '--out', out]);
    if (r.status !== 0) throw new Error(`the shared reference certification exited ${r.status}: ${r.stderr}`);
    return out;
  })();
  return run;
}

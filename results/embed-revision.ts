/**
 * Build step (package.json "postbuild"): `node dist/runner/results/embed-revision.js` writes
 * dist/fixture-revision.json so that an installed package, which has no .git, still reports the
 * fixture revision it was built from.
 */
import { writeEmbeddedRevision } from './revision.js';

try {
  const { revision, dirty } = writeEmbeddedRevision();
  process.stdout.write(`fixture revision ${revision}${dirty ? ' (dirty)' : ''} embedded\n`);
} catch (err) {
  process.stderr.write(`embed-revision: ${(err as Error).message}\n`);
  process.exitCode = 2;
}

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { packageRoot } from '../spec/package-root.js';

/**
 * The Git commit that identifies the suite's fixtures, recorded as `fixture_revision` in every
 * result. In a checkout it is read from Git; an installed package has no .git, so the build embeds
 * it in dist/fixture-revision.json (see embed-revision.ts).
 */
export interface FixtureRevision {
  revision: string;
  /** Uncommitted changes to a file that can change a verdict (VERDICT_PATHS): such a run cannot certify. */
  dirty: boolean;
}

/**
 * Every path whose change can change a verdict: the spec model, the fixtures, the checks, the result
 * model and the runner (engine, fuzz budget defaults), the protocol, and the dependency lock.
 * Reports and docs only render; the reference harness is an implementation under test.
 */
const VERDICT_PATHS = ['protocol', 'spec', 'fixtures', 'suites', 'fuzz', 'results', 'runner', 'package.json', 'package-lock.json'];

const EMBEDDED_REVISION_FILE = join('dist', 'fixture-revision.json');
const FULL_SHA = /^[0-9a-f]{40}$/;

class RevisionUnavailableError extends Error {
  readonly code = 'fixture-revision-unavailable';
}

export function fixtureRevision(root: string = packageRoot): FixtureRevision {
  return revisionFromGit(root) ?? revisionFromEmbedded(root);
}

/**
 * Only when our package root IS the top of a Git work tree: installed under a harness's own
 * repository (node_modules/oap-conform), `git rev-parse HEAD` would name the harness's commit.
 */
function revisionFromGit(root: string): FixtureRevision | undefined {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    if (realpathSync(git('rev-parse', '--show-toplevel')) !== realpathSync(root)) return undefined;
    const revision = git('rev-parse', 'HEAD');
    if (!FULL_SHA.test(revision)) return undefined;
    const dirty = git('status', '--porcelain', '--', ...VERDICT_PATHS) !== '';
    return { revision, dirty };
  } catch {
    return undefined; // git missing, not a work tree, or no commit yet
  }
}

function revisionFromEmbedded(root: string): FixtureRevision {
  const file = join(root, EMBEDDED_REVISION_FILE);
  if (!existsSync(file)) {
    throw new RevisionUnavailableError(
      `cannot identify the fixture revision: ${root} is not a Git checkout and ${EMBEDDED_REVISION_FILE} is missing (rebuild the package)`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw new RevisionUnavailableError(`${EMBEDDED_REVISION_FILE} is not valid JSON`);
  }
  const { revision, dirty } = (parsed ?? {}) as Partial<FixtureRevision>;
  if (typeof revision !== 'string' || !FULL_SHA.test(revision) || typeof dirty !== 'boolean') {
    throw new RevisionUnavailableError(`${EMBEDDED_REVISION_FILE} must hold {"revision": <40 hex>, "dirty": <boolean>}`);
  }
  return { revision, dirty };
}

/** Build step: record the checkout's revision for installs that have no .git. */
export function writeEmbeddedRevision(root: string = packageRoot): FixtureRevision {
  const found = revisionFromGit(root);
  if (!found)
    throw new RevisionUnavailableError(`cannot embed the fixture revision: ${root} is not the top of a Git checkout with a commit`);
  const file = join(root, EMBEDDED_REVISION_FILE);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(found, null, 2)}\n`);
  return found;
}

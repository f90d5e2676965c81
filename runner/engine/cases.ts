/**
 * Every case a run can have, composed in this one place: the fixture suites of the three levels,
 * the upstream-layout replay (`--fixtures DIR`) and the fuzzer (`--fuzz N`). The main thread and
 * every worker thread build the same, deterministic list from the run's config and seed.
 */
import { fuzzCases } from '../../fuzz/index.js';
import { allCases } from '../../suites/index.js';
import type { CaseDef } from '../../suites/kit/types.js';
import { loadUpstream, UpstreamLayoutError, type UpstreamReplay } from '../../suites/upstream/index.js';
import { findingsDirOf, type RunConfig } from './config.js';
import { EngineError } from './errors.js';

/** The cases of one run: the fixture suites, then the upstream replay when given, then the fuzz cases. */
export function runCases(config: Pick<RunConfig, 'fuzz' | 'out'>, seed: number, upstream?: UpstreamReplay): CaseDef[] {
  return [
    ...allCases(),
    ...(upstream?.cases ?? []),
    ...(config.fuzz > 0 ? fuzzCases({ budget: config.fuzz, seed, findingsDir: findingsDirOf(config) }) : []),
  ];
}

/** Read and check a --fixtures tree; a tree that cannot be replayed is a usage error (exit 2, one line). */
export function readReplay(dir: string): UpstreamReplay {
  try {
    return loadUpstream(dir);
  } catch (err) {
    if (err instanceof UpstreamLayoutError) throw new EngineError('usage', err.code, err.message);
    throw err;
  }
}

/**
 * The replay of a --fixtures tree read before (its cases hold functions, which cannot cross to a
 * thread, so each thread reads it again); a tree that changed in between is refused.
 */
export function replayOf(tree: { root: string; digest: string }): UpstreamReplay {
  const replay = readReplay(tree.root);
  if (replay.digest !== tree.digest)
    throw new EngineError('usage', 'fixtures-changed', `the fixture tree ${tree.root} changed after the run started`);
  return replay;
}

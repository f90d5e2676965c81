/**
 * The case sources every run has besides the fixture suites: the upstream-layout replay
 * (`--fixtures DIR`) and the fuzzer (`--fuzz N`, `--seed S`). Imported for its side effect by the
 * run command.
 */
import { join } from 'node:path';
import { fuzzCases } from '../fuzz/index.js';
import { loadUpstreamCases, UpstreamLayoutError } from '../../suites/upstream/index.js';
import { CliError, EXIT } from '../cli/exit-codes.js';
import { registerCaseSource } from './case-sources.js';

registerCaseSource(async (o) => {
  if (!o.fixturesDir) return [];
  try {
    return loadUpstreamCases(o.fixturesDir);
  } catch (err) {
    if (err instanceof UpstreamLayoutError) throw new CliError('fixtures.layout', err.message, EXIT.USAGE);
    throw err;
  }
}, 'upstream');

registerCaseSource(
  async (o) => (o.fuzz > 0 ? fuzzCases({ budget: o.fuzz, seed: o.seed, findingsDir: join(o.outDir ?? './oap-conform-results', 'findings') }) : []),
  'fuzz',
);

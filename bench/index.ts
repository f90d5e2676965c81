/**
 * `npm run bench`: every benchmark of the project, in one run. Figures are printed as tables;
 * targets (from the issues) are printed beside the measurements so a regression is visible.
 */
import { benchOracle } from './oracle.js';
import { benchEngine, formatEngineBench } from './engine.js';
import { benchFuzz } from './fuzz.js';
import { benchSuite } from './suite.js';
import { benchLimits, formatLimits } from './limits.js';

const only = process.argv[2];
const suites: Array<[string, () => Promise<unknown>]> = [
  ['oracle', benchOracle],
  [
    'engine',
    async () => {
      // Per request, pipelined in batches as cases with concurrent calls and --jobs do.
      for (const batch of [1, 10, 100]) process.stdout.write(formatEngineBench(await benchEngine({ batch })));
    },
  ],
  ['fuzz', benchFuzz],
  ['suite', benchSuite],
  ['limits', async () => process.stdout.write(formatLimits(benchLimits()))],
];
for (const [name, run] of suites) {
  if (only && only !== name) continue;
  process.stdout.write(`\n## ${name}\n`);
  await run();
}

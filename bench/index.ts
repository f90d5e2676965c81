/**
 * `npm run bench`: every benchmark of the project, in one run. Figures are printed as tables;
 * targets (from the issues) are printed beside the measurements so a regression is visible.
 */
import { benchOracle } from './oracle.js';
import { benchEngine } from './engine.js';
import { benchFuzz } from './fuzz.js';

const only = process.argv[2];
const suites: Array<[string, () => Promise<unknown>]> = [
  ['oracle', benchOracle],
  ['engine', benchEngine],
  ['fuzz', benchFuzz],
];
for (const [name, run] of suites) {
  if (only && only !== name) continue;
  process.stdout.write(`\n## ${name}\n`);
  await run();
}

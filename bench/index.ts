/**
 * `npm run bench`: every benchmark of the project, in one run, ending with the list of targets
 * (issue 17), each with its measured figure, its ratio to the bound or to a baseline measured in
 * the same run, and whether it is met. Timing benchmarks, never timed tests: the machine they run on
 * decides the figures, so they are read, not asserted.
 *
 *   npm run bench                     everything (several minutes)
 *   npm run bench -- certify          one section (oracle, engine, fuzz, suite, limits, certify, validate, races)
 *   npm run bench -- --full           the --fuzz 100000 memory run too (many minutes)
 *   npm run bench -- races --runs 10  fewer race runs than the 50 the target asks for
 *   npm run bench -- races --subjects reference,blind-write-on-conflict
 */
import { benchOracle } from './oracle.js';
import { benchEngine, formatEngineBench } from './engine.js';
import { benchFuzz } from './fuzz.js';
import { benchSuite } from './suite.js';
import { benchLimits, formatLimits } from './limits.js';
import { benchCertify } from './certify.js';
import { benchValidate } from './validate.js';
import { benchRaces } from './races.js';
import { formatTargets, type Target } from './measure.js';

const args = process.argv.slice(2);
const only = args.find((a, i) => !a.startsWith('--') && !['--runs', '--subjects'].includes(args[i - 1] ?? ''));
const full = args.includes('--full');
const runsAt = args.indexOf('--runs');
const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : undefined;
const subjectsAt = args.indexOf('--subjects');
const subjects = subjectsAt >= 0 ? args[subjectsAt + 1]!.split(',') : undefined;

const targets: Target[] = [];
const sections: Array<[string, () => Promise<unknown>]> = [
  ['oracle', benchOracle],
  [
    'engine',
    async () => {
      // Runner overhead per request over a raw line-echo adapter, pipelined in batches as cases
      // with concurrent calls and --jobs do; the echo is measured in the same run.
      for (const batch of [1, 10, 100]) {
        const r = await benchEngine({ batch });
        process.stdout.write(formatEngineBench(r));
        targets.push({
          name: `runner overhead per request over a raw line echo, batch ${batch}`,
          figure: `${(r.enginePerRequestMs * 1000).toFixed(1)} µs vs ${(r.rawPerRequestMs * 1000).toFixed(1)} µs`,
          target: '≤ 1.5x',
          ratio: `${r.ratio.toFixed(2)}x`,
          met: r.met.ratio,
          how: 'median of 10 interleaved rounds',
        });
      }
    },
  ],
  ['fuzz', benchFuzz],
  ['suite', benchSuite],
  [
    'limits',
    async () => {
      const rows = benchLimits();
      process.stdout.write(formatLimits(rows));
      const worst = rows.reduce((a, b) => (b.ratio > a.ratio ? b : a));
      targets.push({
        name: 'hostile inputs refused within their bounds (tests/oracle/limits.test.ts)',
        figure: `${rows.filter((r) => r.met).length}/${rows.length} within bound; slowest ${worst.input} ${worst.medianMs.toFixed(0)} ms`,
        target: `each within its bound (${worst.boundMs} ms for the slowest)`,
        ratio: `${(worst.ratio * 100).toFixed(0)}% of its bound`,
        met: rows.every((r) => r.met),
        how: 'median of 5 each',
      });
    },
  ],
  ['certify', async () => targets.push(...(await benchCertify({ full })))],
  ['validate', async () => targets.push(...(await benchValidate()))],
  [
    'races',
    async () => targets.push(...(await benchRaces({ ...(runs !== undefined ? { runs } : {}), ...(subjects ? { subjects } : {}) }))),
  ],
];
for (const [name, run] of sections) {
  if (only && only !== name) continue;
  process.stdout.write(`\n## ${name}\n`);
  await run();
}
if (targets.length > 0) process.stdout.write(`\n## targets\n${formatTargets(targets)}`);

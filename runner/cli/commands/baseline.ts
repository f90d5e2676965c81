import { messageOf } from '../../../results/predicates.js';
import { existsSync, writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { EXIT } from '../../exit-codes.js';
import { baselineFromReport, checkBaseline, describeEntry, parseBaseline, type Baseline } from '../../../results/baseline.js';
import { DEFAULT_BASELINE_FILE, DEFAULT_OUT_DIR, withInputErrors } from '../support.js';
import { readJsonFile } from '../../../results/load.js';
import { readRun } from '../../../results/run-stream.js';
import { computeVerdicts } from '../../../results/verdicts.js';

/**
 * `oap-conform baseline update`: record the current failures as expected.
 * `oap-conform baseline check`: gate an existing run directory against a baseline (what
 * `run --baseline` does at the end of a run), e.g. after `merge`.
 */
export function register(program: Command): void {
  const baseline = program.command('baseline').description('manage the baseline of expected failures used by --baseline');
  baseline
    .command('update')
    .description('write the failures of a finished run as the baseline (reasons of entries kept are preserved)')
    .option('--out <dir>', 'result directory of the run', DEFAULT_OUT_DIR)
    .option('--baseline <file>', 'baseline file to write', DEFAULT_BASELINE_FILE)
    .action(async (opts: { out: string; baseline: string }) => {
      await withInputErrors(() => {
        const report = readRun(opts.out);
        const previous = existsSync(opts.baseline) ? parseBaseline(readJsonFile(opts.baseline), opts.baseline) : undefined;
        const next = baselineFromReport(report, previous);
        writeFileSync(opts.baseline, `${JSON.stringify(next, null, 2)}\n`);
        process.stdout.write(`wrote ${opts.baseline}: ${next.expected_failures.length} expected failure(s)\n`);
      });
    });
  baseline
    .command('check')
    .description('exit 1 when a run has a failure the baseline does not list, or a baseline entry that now passes')
    .option('--out <dir>', 'result directory of the run', DEFAULT_OUT_DIR)
    .option('--baseline <file>', 'baseline file', DEFAULT_BASELINE_FILE)
    .action(async (opts: { out: string; baseline: string }) => {
      await withInputErrors(() => {
        const report = readRun(opts.out);
        const base: Baseline = parseBaseline(readJsonFile(opts.baseline), opts.baseline);
        const check = checkBaseline(base, report, computeVerdicts(report.cases));
        for (const c of check.unexpected)
          process.stderr.write(
            `oap-conform: unexpected-failure: ${c.id} [${c.requirements.join(', ')}] ${c.status}${messageOf(c) ? `: ${messageOf(c)}` : ''}\n`,
          );
        for (const s of check.stale) process.stderr.write(`oap-conform: stale-baseline: ${describeEntry(s.entry)}: ${s.why}\n`);
        for (const w of check.warnings) process.stderr.write(`oap-conform: warning: ${w}\n`);
        for (const e of check.unmatched)
          process.stderr.write(`oap-conform: warning: baseline ${describeEntry(e)} matches nothing in this run\n`);
        process.stdout.write(
          `${check.expected.length} expected failure(s), ${check.unexpected.length} unexpected, ${check.stale.length} stale\n`,
        );
        process.exitCode = check.unexpected.length > 0 || check.stale.length > 0 ? EXIT.FAILURES : EXIT.OK;
      });
    });
}

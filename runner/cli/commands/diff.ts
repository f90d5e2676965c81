import type { Command } from 'commander';
import { EXIT } from '../../exit-codes.js';
import { withInputErrors } from '../support.js';
import { diffReports, formatDiff, hasRegressions } from '../../../results/diff.js';
import { loadReport } from '../../../results/load.js';

/** `oap-conform diff A B`: what changed from run A to run B. Exit 1 on new failures, else 0. */
export function register(program: Command): void {
  program
    .command('diff')
    .description(
      'compare two runs (result directories or report.json files): new failures, fixes, added/removed checks, requirement changes',
    )
    .argument('<a>', 'the earlier run')
    .argument('<b>', 'the later run')
    .option('--json', 'print the diff as JSON')
    .action(async (a: string, b: string, opts: { json?: boolean }) => {
      await withInputErrors(() => {
        const diff = diffReports(loadReport(a), loadReport(b));
        process.stdout.write(opts.json ? `${JSON.stringify(diff, null, 2)}\n` : formatDiff(diff));
        process.exitCode = hasRegressions(diff) ? EXIT.FAILURES : EXIT.OK;
      });
    });
}

import type { Command } from 'commander';
import { EXIT } from '../../exit-codes.js';
import { withInputErrors } from '../support.js';
import { diffReports, formatDiff, hasRegressions } from '../../../results/diff.js';
import { readRunOrResult } from '../../../results/run-stream.js';
import { oneLine } from '../../../reports/text.js';

/** `oap-conform diff A B`: what changed from run A to run B. Exit 1 on new failures of MUST IDs, else 0. */
export function register(program: Command): void {
  program
    .command('diff')
    .description(
      'compare two runs (result directories, report.json, journal.ndjson or result.json files): new failures, fixes, added/removed checks, requirement changes',
    )
    .argument('<a>', 'the earlier run')
    .argument('<b>', 'the later run')
    .option('--json', 'print the diff as JSON')
    .action(async (a: string, b: string, opts: { json?: boolean }) => {
      await withInputErrors(() => {
        const [ra, rb] = [readRunOrResult(a), readRunOrResult(b)];
        // A diff of two different harnesses, or of two levels, is rarely what was meant: say so, then diff anyway.
        const who = (r: typeof ra) =>
          `${r.header.adapter.handshake.implementation.name} ${r.header.adapter.handshake.implementation.version}`;
        if (ra.header.adapter.handshake.implementation.name !== rb.header.adapter.handshake.implementation.name)
          process.stderr.write(
            `oap-conform: warning: the runs are of different implementations (${oneLine(who(ra))} vs ${oneLine(who(rb))})\n`,
          );
        if (ra.header.level !== rb.header.level)
          process.stderr.write(
            `oap-conform: warning: the runs judged different levels (${ra.header.level} vs ${rb.header.level}): cases above the lower level show as added or removed\n`,
          );
        const diff = diffReports(ra, rb);
        process.stdout.write(opts.json ? `${JSON.stringify(diff, null, 2)}\n` : formatDiff(diff));
        process.exitCode = hasRegressions(diff) ? EXIT.FAILURES : EXIT.OK;
      });
    });
}

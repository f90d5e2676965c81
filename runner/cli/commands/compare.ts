import { writeFileSync } from 'node:fs';
import { prepareOutputDirectory } from '../../../results/make-directory.js';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { renderCompareHtml, renderCompareMarkdown } from '../../../reports/compare.js';
import { compareRuns } from '../../../results/compare.js';
import { EXIT } from '../../exit-codes.js';
import { withInputErrors } from '../support.js';

/**
 * `oap-conform compare RESULT... --out DIR`: several harnesses' results (result directories,
 * result.json or report.json files) as one static page, DIR/compare.html, and a Markdown table,
 * DIR/compare.md. Exit 0, or 2 for unreadable input.
 */
export function register(program: Command): void {
  program
    .command('compare')
    .description("put several implementations' results side by side: compare.html and compare.md, disagreements first")
    .argument('<results...>', 'result directories, result.json or report.json files (two or more)')
    .option('--out <dir>', 'where to write compare.html and compare.md', 'oap-conform-compare')
    .action(async (sources: string[], opts: { out: string }) => {
      await withInputErrors(() => {
        const cmp = compareRuns(sources);
        const out = resolve(opts.out);
        prepareOutputDirectory(out);
        writeFileSync(join(out, 'compare.html'), renderCompareHtml(cmp, out));
        writeFileSync(join(out, 'compare.md'), renderCompareMarkdown(cmp));
        const disagree = cmp.rows.filter((r) => r.disagree).length;
        process.stdout.write(
          `compared ${cmp.columns.length} runs: ${disagree} of ${cmp.rows.length} IDs get different verdicts; wrote ${join(out, 'compare.html')} and compare.md\n`,
        );
        process.exitCode = EXIT.OK;
      });
    });
}

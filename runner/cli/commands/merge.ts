import type { Command } from 'commander';
import { collect, DEFAULT_OUT_DIR, withInputErrors } from '../support.js';
import { CliError, EXIT } from '../../exit-codes.js';
import { finalizeRun } from '../../finalize.js';
import { reportPathOf } from '../../../results/load.js';
import { readRun } from '../../../results/run-stream.js';
import { mergeReports, missingShards } from '../../../results/merge.js';

/**
 * `oap-conform merge DIR...`: joins `run --shard k/n` outputs into one result and every format.
 * Each shard is read through the run-stream reader (a shard without its footer is refused); shards
 * whose headers differ (suite, adapter, level, seed, options: the field is named) or that record a
 * case twice are refused (exit 2). Exit codes otherwise as for `run`.
 */
export function register(program: Command): void {
  program
    .command('merge')
    .description('merge the result directories of sharded runs into one result')
    .argument('<dirs...>', 'result directories (or their report.json or journal.ndjson) of the shards')
    .option('--out <dir>', 'where to write the merged outputs', DEFAULT_OUT_DIR)
    .option('--format <names>', 'formats to write (repeatable or comma-separated); result and report are always written', collect)
    .option('--baseline <file>', 'gate on a baseline of expected failures')
    .option('--sign <key>', 'sign result.json with this ed25519 private key (PEM)')
    .option('--allow-dirty', 'accept shards run from a dirty fixture checkout (not certifying)')
    .option('--allow-partial', 'merge an incomplete shard set into a result marked partial, which never certifies')
    .option('--quiet', 'no summary on stdout')
    .action(
      async (
        dirs: string[],
        opts: {
          out: string;
          format?: string[];
          baseline?: string;
          sign?: string;
          allowDirty?: boolean;
          allowPartial?: boolean;
          quiet?: boolean;
        },
      ) => {
        await withInputErrors(async () => {
          const shards = dirs.map((d) => ({ source: reportPathOf(d), report: readRun(d) }));
          const merged = mergeReports(shards);
          const missing = missingShards(shards);
          if (missing.length > 0) {
            const count = shards[0]?.report.header.options.shard?.count ?? missing.length;
            const what = `shard(s) ${missing.join(', ')} of ${count} missing`;
            // An incomplete shard set must never read as a certification of the whole suite.
            if (!opts.allowPartial)
              throw new CliError(
                'incomplete-shards',
                `${what}; give every shard, or --allow-partial for a result that never certifies`,
                EXIT.USAGE,
              );
            merged.header.options.partial = `merged with ${what}`;
          }
          const { exitCode } = await finalizeRun(merged, opts.out, {
            formats: opts.format,
            baseline: opts.baseline,
            sign: opts.sign,
            allowDirty: opts.allowDirty,
            quiet: opts.quiet,
          });
          process.exitCode = exitCode;
        });
      },
    );
}

import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { DEFAULT_FUZZ_BUDGET } from '../../../fuzz/index.js';

import type { Command } from 'commander';
import type { CliEmbedding } from '../embedding.js';
import { CASE_STATUSES } from '../../../results/record.js';
import { createProgressReporter } from '../../../reports/progress.js';
import { killAllSync } from '../../engine/process-registry.js';
import { DEFAULT_TIMEOUT_MS, readReplay, runEngine } from '../../engine/run.js';
import { describeUpstream, type UpstreamReplay } from '../../../suites/upstream/index.js';
import { parseShard, type Shard } from '../../engine/selection.js';
import { parseAccommodations, parseIntIn, parseLevel, parseList, parseSeed } from '../../engine/options.js';
import type { Accommodation } from '../../../suites/kit/accommodations.js';
import { CliError, EXIT } from '../../exit-codes.js';
import { finalizeRun, interruptedName, prepareFinalize, type FinalizeOptions } from '../../finalize.js';
import { ADAPTER_ENV_HELP, collect } from '../support.js';
import { DEFAULT_MAX_RESTARTS, type RunConfig } from '../../engine/config.js';
import { adapterEnvSetting } from '../../engine/env.js';
import { invocationOf } from '../../../results/rerun.js';

/** One worker per core, up to 4: each worker is one adapter process, and cases are CPU-bound. */
const DEFAULT_JOBS = Math.max(1, Math.min(availableParallelism(), 4));

interface RunFlags {
  adapter?: string;
  level?: 1 | 2 | 3;
  out: string;
  jobs: number;
  filter?: string;
  case?: string[];
  timeout: number;
  keepWorkspaces?: boolean;
  resume?: boolean;
  seed?: number | 'random';
  process?: boolean;
  checkProtocol?: boolean;
  fuzz: number;
  fixtures?: string;
  baseline?: string;
  sign?: string;
  format?: string[];
  shard?: string;
  allowDirty?: boolean;
  quiet?: boolean;
  adapterEnv?: string[];
  maxRestarts?: number;
  /** Commander's `--no-calibrate`: false when given. */
  calibrate: boolean;
  accommodate?: Accommodation[];
}

/**
 * The run's one config, from the flags (a bad --adapter-env or --shard is a usage error, exit 2).
 * Everything below (engine, workers, threads, header, rerun line, --resume) reads this object.
 */
function runConfigOf(adapter: string, flags: RunFlags, upstream: UpstreamReplay | undefined): RunConfig {
  if (!flags.calibrate && flags.accommodate)
    throw new CliError(
      'usage',
      '--accommodate gives the accommodations calibration would learn; it cannot go with --no-calibrate',
      EXIT.USAGE,
    );
  let shard: Shard | undefined;
  if (flags.shard) {
    try {
      shard = parseShard(flags.shard);
    } catch (err) {
      throw new CliError('usage', (err as Error).message, EXIT.USAGE);
    }
  }
  return {
    adapter,
    ...(flags.adapterEnv?.length ? { adapterEnv: adapterEnvSetting(flags.adapterEnv) } : {}),
    ...(flags.level ? { level: flags.level } : {}),
    ...(flags.seed !== undefined ? { seed: flags.seed } : {}),
    jobs: flags.jobs,
    timeoutMs: flags.timeout,
    fuzz: flags.fuzz,
    ...(flags.filter ? { filter: flags.filter } : {}),
    ...(flags.case?.length ? { caseIds: flags.case } : {}),
    ...(shard ? { shard } : {}),
    process: !!flags.process,
    checkProtocol: !!flags.checkProtocol,
    ...(upstream ? { fixtures: { root: upstream.root, digest: upstream.digest } } : {}),
    out: resolve(flags.out),
    keepWorkspaces: !!flags.keepWorkspaces,
    resume: !!flags.resume,
    ...(flags.maxRestarts !== undefined ? { maxRestarts: flags.maxRestarts } : {}),
    invokedAs: invocationOf(process.env),
    ...(flags.calibrate ? {} : { calibrate: false }),
    ...(flags.accommodate ? { accommodate: flags.accommodate } : {}),
  };
}

/**
 * `oap-conform [run] --adapter SPEC …`: the default command. SIGINT/SIGTERM stop the run cleanly
 * (adapters killed, partial results written and marked interrupted, exit 130); a second signal
 * kills everything at once.
 */
export function register(program: Command, embed: CliEmbedding = {}): void {
  program
    .command('run', { isDefault: true })
    .description('run the conformance suite against an adapter')
    .option('--adapter <spec>', 'builtin:NAME, a module (.js/.mjs/.ts), or a command line spoken to over stdio')
    .option('--adapter-env <NAME[=VALUE]>', ADAPTER_ENV_HELP, collect, [])
    .option('--level <n>', "level to judge (default: the adapter's claim)", parseLevel)
    .option('--out <dir>', 'results directory', './oap-conform-results/')
    .option('--jobs <n>', 'adapter workers (one per CPU, at most 4)', parseIntIn('--jobs', 1, 256), DEFAULT_JOBS)
    .option('--filter <pattern>', 'glob or substring over case IDs and requirement IDs (comma = or)')
    .option('--case <id>', "exactly this case ID (repeatable), as a report's rerun line prints it", collect)
    .option('--timeout <ms>', 'per-request timeout', parseIntIn('--timeout', 1, 3_600_000), DEFAULT_TIMEOUT_MS)
    .option(
      '--max-restarts <n>',
      `restarts of a crashed, hung or misbehaving adapter per worker before its remaining cases are recorded as errors (default ${DEFAULT_MAX_RESTARTS})`,
      parseIntIn('--max-restarts', 0, 100_000),
    )
    .option('--keep-workspaces', 'keep case workspaces under OUT/workspaces/')
    .option(
      '--resume',
      'continue the unfinished run in OUT/journal.ndjson (interrupted, or its runner killed); its seed and --adapter-env are reused',
    )
    .option('--seed <n>', 'run seed, or random (default: derived from the fixture revision and level, so runs are reproducible)', parseSeed)
    .option('--process', 'run builtin and module adapters as a process over stdio')
    .option('--check-protocol', 'validate every message, requests too, against the protocol JSON Schemas')
    .option('--fuzz <n>', `fuzz budget: generated inputs (0 = off)`, parseIntIn('--fuzz', 0, 10_000_000), DEFAULT_FUZZ_BUDGET)
    .option('--fixtures <dir>', 'also replay a directory laid out like the OAP specification repository (examples/, tests/deltas/)')
    .option('--baseline <file>', 'expected failures (per ID or case): exit 1 on an unexpected failure or a stale entry')
    .option('--sign <key>', 'sign the result with this key')
    .option('--format <list>', 'output formats, comma-separated', parseList)
    .option('--shard <k/n>', 'run shard k of n of the ID-sorted cases')
    .option('--allow-dirty', 'allow a certification result from a checkout with uncommitted fixture changes')
    .option('--quiet', 'no per-case progress lines')
    .option('--no-calibrate', 'no calibration: build every case in its plain forms (strict; for comparison)')
    .option(
      '--accommodate <list>',
      'use these accommodations instead of calibrating (comma-separated, or none), as a rerun line repeats them',
      parseAccommodations,
    )
    .action(async (flags: RunFlags) => {
      if (!flags.adapter) throw new CliError('usage', 'missing --adapter SPEC (e.g. --adapter builtin:reference)', EXIT.USAGE);
      // The fixture tree is read and checked before anything is written or started; say what it holds.
      const upstream = flags.fixtures ? readReplay(flags.fixtures) : undefined;
      if (upstream) for (const line of describeUpstream(upstream)) process.stderr.write(`oap-conform: ${line}\n`);
      const config = runConfigOf(flags.adapter, flags, upstream);
      const finalOptions: FinalizeOptions = {
        allowDirty: !!flags.allowDirty,
        ...(flags.format ? { formats: flags.format } : {}),
        ...(flags.baseline ? { baseline: flags.baseline } : {}),
        ...(flags.sign ? { sign: flags.sign } : {}),
      };
      // Input problems are found before the adapter starts, not after every case has run.
      try {
        prepareFinalize(finalOptions);
      } catch (err) {
        const code = (err as { code?: unknown }).code;
        if (err instanceof Error && typeof code === 'string') throw new CliError(code, err.message, EXIT.USAGE);
        throw err;
      }
      const controller = new AbortController();
      let signals = 0;
      const onSignal = (sig: NodeJS.Signals): void => {
        signals++;
        if (signals > 1) {
          killAllSync();
          process.exit(EXIT.INTERRUPTED);
        }
        process.stderr.write(`oap-conform: ${sig}: stopping; finished cases are kept (resume with --resume)\n`);
        controller.abort();
      };
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
      try {
        const result = await runEngine(config, {
          ...(upstream ? { upstream } : {}),
          signal: controller.signal,
          onWarning: (m) => process.stderr.write(`oap-conform: warning: ${m}\n`),
          ...(embed.cases ? { cases: embed.cases } : {}),
          ...(flags.quiet ? {} : { reporters: [createProgressReporter(process.stderr)] }),
        });
        const fin = await finalizeRun(result.report, result.outDir, finalOptions);
        const c = result.report.footer.counts;
        const interrupted = result.report.footer.interrupted;
        const where = interrupted
          ? `partial results in ${join(result.outDir, interruptedName('report.json'))} and beside it (a finished run's result.json is kept; --resume continues)`
          : `results in ${result.outDir}`;
        process.stderr.write(
          `${interrupted ? 'interrupted' : 'done'}: ${c.total} cases: ${CASE_STATUSES.map((st) => `${c[st]} ${st}`).join(', ')}; ${where}\n`,
        );
        process.exitCode = interrupted ? EXIT.INTERRUPTED : fin.exitCode;
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
    });
}

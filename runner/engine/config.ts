import { join } from 'node:path';
import type { RunHeader, RunOptions } from '../../results/model.js';
import { RUN_STREAM_FILE } from '../../results/run-stream.js';
import { adapterEnvSetting, type AdapterEnvSetting } from './env.js';
import { EngineError } from './errors.js';
import type { Shard } from './selection.js';
import { type Accommodation, isAccommodation } from '../../suites/kit/accommodations.js';
import type { Calibration } from '../../suites/calibration/calibrate.js';

/**
 * One run's parameters, built once from the flags (runner/cli/commands/run.ts) and carried as it
 * is to the engine, every worker and every worker thread (it is plain data, so it crosses to a
 * thread whole), recorded in the run header (`header.options`, from which the rerun line repeats
 * the run), and compared with the stream's header on --resume, which also fills in what the flags
 * left out. A new parameter is added here, to `recordedOptions` when it can change a verdict or
 * select a case, and nowhere else.
 */
export interface RunConfig {
  /** `--adapter SPEC`. */
  adapter: string;
  /** `--adapter-env`, as given and as the variables it adds; none when absent. */
  adapterEnv?: AdapterEnvSetting;
  /** `--level`; default: the level the adapter claims. */
  level?: 1 | 2 | 3;
  /** `--seed`; default derived from the fixture revision and the judged level (a resumed run: the stream's). */
  seed?: number | 'random';
  /** `--jobs`: workers, each with its own adapter (threads when the package is built). */
  jobs: number;
  /** `--timeout`: per request, in milliseconds. */
  timeoutMs: number;
  /** `--fuzz`: generated inputs (0: no fuzz cases). */
  fuzz: number;
  /** `--filter PATTERN` over case IDs and requirement IDs. */
  filter?: string;
  /** `--case ID` (repeatable): exactly these cases; an unknown ID is a usage error. */
  caseIds?: string[];
  /** `--shard k/n`. */
  shard?: Shard;
  /** `--process`: builtin and module adapters run as processes over stdio. */
  process: boolean;
  /** `--check-protocol`: every message checked against the protocol JSON Schemas. */
  checkProtocol: boolean;
  /** `--fixtures DIR`, already read and checked: its root and digest (a thread reads it again and checks the digest). */
  fixtures?: { root: string; digest: string };
  /** `--out DIR`: the run stream, every output, findings and kept workspaces go here. */
  out: string;
  /** `--keep-workspaces`: case workspaces under OUT/workspaces/. */
  keepWorkspaces: boolean;
  /** `--resume`: continue the unfinished run in OUT's run stream. */
  resume: boolean;
  /** How the runner was invoked (`npx oap-conform`), recorded in the header for the rerun lines. */
  invokedAs?: string;
  /** `--max-restarts`: adapter restarts a worker allows before it records its remaining cases as errors (default 5). */
  maxRestarts?: number;
  /** False with `--no-calibrate`: no calibration phase, every case in its plain forms (default true). */
  calibrate?: boolean;
  /** `--accommodate LIST`: these accommodations instead of calibrating (a rerun line gives the run's). */
  accommodate?: Accommodation[];
  /**
   * What the engine learned by calibrating (or was given, or read from the resumed stream's header),
   * set before the cases: the accommodations every worker and thread gives its cases.
   */
  calibration?: Calibration;
}

/** How many times a worker restarts a faulted adapter unless `--max-restarts` says otherwise. */
export const DEFAULT_MAX_RESTARTS = 5;

/** The accommodations the run's cases take. */
export const runAccommodations = (config: Pick<RunConfig, 'calibration'>): Accommodation[] => config.calibration?.accommodations ?? [];

/** The parameters the run header records: everything that selects a case or can change a verdict, and --jobs. */
export function recordedOptions(config: RunConfig): RunOptions {
  return {
    jobs: config.jobs,
    timeout_ms: config.timeoutMs,
    fuzz: config.fuzz,
    ...(config.filter ? { filter: config.filter } : {}),
    ...(config.caseIds?.length ? { case: [...new Set(config.caseIds)] } : {}),
    ...(config.checkProtocol ? { check_protocol: true } : {}),
    ...(config.process ? { process: true } : {}),
    ...(config.shard ? { shard: config.shard } : {}),
    ...(config.fixtures ? { fixtures_dir: config.fixtures.root, fixtures_digest: config.fixtures.digest } : {}),
    ...(config.adapterEnv?.given.length ? { adapter_env: [...config.adapterEnv.given] } : {}),
    // The budget decides whether the cases after a crashing one run at all.
    ...(config.maxRestarts !== undefined && config.maxRestarts !== DEFAULT_MAX_RESTARTS ? { max_restarts: config.maxRestarts } : {}),
    ...(config.calibrate === false ? { calibrate: false as const } : {}),
    ...(config.accommodate ? { accommodate: [...config.accommodate] } : {}),
  };
}

/**
 * --resume goes on with the run its stream holds: the seed, `--adapter-env` and `--max-restarts` the flags leave out
 * are the stream's (a pass-through NAME is read from the environment again). Anything the flags
 * give that differs from the stream's header is refused once the header is known.
 */
export function resumedConfig(config: RunConfig, header: RunHeader, streamPath: string): RunConfig {
  const recorded = header.options.adapter_env;
  let adapterEnv = config.adapterEnv;
  if (!adapterEnv?.given.length && recorded) {
    const unset = recorded.find((given) => !given.includes('=') && process.env[given] === undefined);
    if (unset !== undefined)
      throw new EngineError(
        'usage',
        'resume-adapter-env',
        `cannot resume ${streamPath}: its run passed ${unset} through to the adapter (--adapter-env ${unset}) and ${unset} is not set now; set it as the run had it`,
      );
    adapterEnv = adapterEnvSetting(recorded);
  }
  const maxRestarts = config.maxRestarts ?? header.options.max_restarts;
  // The resumed cases take the accommodations the run's first cases took, never a new calibration's.
  const recordedCalibration = header.calibration;
  const unknown = recordedCalibration?.accommodations.find((a) => !isAccommodation(a));
  if (unknown !== undefined)
    throw new EngineError(
      'usage',
      'resume-calibration',
      `cannot resume ${streamPath}: its run used accommodation ${unknown}, which this runner does not know`,
    );
  const calibration = recordedCalibration as Calibration | undefined;
  return {
    ...config,
    seed: config.seed ?? header.seed,
    ...(adapterEnv ? { adapterEnv } : {}),
    ...(maxRestarts !== undefined ? { maxRestarts } : {}),
    ...(calibration ? { calibration } : {}),
  };
}

/** The run stream of the run's output directory. */
export const streamPathOf = (config: Pick<RunConfig, 'out'>): string => join(config.out, RUN_STREAM_FILE);

/** Where fuzz cases write their finding files. */
export const findingsDirOf = (config: Pick<RunConfig, 'out'>): string => join(config.out, 'findings');

/** Where kept case workspaces go (`--keep-workspaces`); undefined: in the worker's own temporary directory. */
export const keptWorkspacesOf = (config: Pick<RunConfig, 'out' | 'keepWorkspaces'>): string | undefined =>
  config.keepWorkspaces ? join(config.out, 'workspaces') : undefined;

import { defaultWorkspaceParent } from '../../suites/kit/workspace.js';
import { createHash, randomInt } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { makeDirectory, prepareOutputDirectory } from '../../results/make-directory.js';
import { join, resolve } from 'node:path';
import type { HandshakeT } from '../../protocol/messages.js';
import type { CaseDef } from '../../suites/kit/types.js';
import { caseLevel } from '../../suites/index.js';
import type { UpstreamReplay } from '../../suites/upstream/index.js';
import type { CaseRecord, RunFooter, RunHeader, RunReport } from '../../results/model.js';
import type { RunReporter } from '../../results/reporter.js';
import { countStatuses } from '../../results/predicates.js';
import { InputError } from '../../results/load.js';
import { headerDifference, readRunStream, RunStreamWriter, wholeRun, type UnfinishedRun } from '../../results/run-stream.js';
import { packageVersion } from '../../spec/package-root.js';
import { resolveAdapter } from './adapter-spec.js';
import { fixtureRevision } from '../../results/revision.js';
import { runCases, replayOf } from './cases.js';
import { keptWorkspacesOf, recordedOptions, resumedConfig, runAccommodations, streamPathOf, type RunConfig } from './config.js';
import type { Calibration } from '../../suites/calibration/calibrate.js';
import { EngineError } from './errors.js';
import { HandshakeError } from './handshake.js';
import { manifestCases, manifestDigest } from '../../results/manifest.js';
import { ProtocolChecker } from './protocol-check.js';
import { byId, caseMatcher, nearestIds, selectShard } from './selection.js';
import { startForLoop, workLoop } from './work-loop.js';
import { Worker } from './worker.js';
import { runPool, startThreads, threadsAvailable, type Threads } from './thread-pool.js';

/** What a run reports to and takes from its caller besides its config: none of it is recorded. */
export interface EngineHooks {
  /** Aborting stops the run: adapters killed, the footer written as interrupted (the CLI exits 130). */
  signal?: AbortSignal;
  /** Listeners to the run (progress, tests); the engine formats nothing itself. */
  reporters?: readonly RunReporter[];
  /** Called with the pid of every adapter process started (tests check for orphans). */
  onSpawn?: (pid: number) => void;
  /** One-line warnings about the adapter before the run starts (e.g. stale compiled TypeScript). */
  onWarning?: (message: string) => void;
  /** Replace the suite's cases (tests, and embedders of the CLI): the run has exactly these, on the main thread. */
  cases?: CaseDef[];
  /** The `--fixtures` tree of `config.fixtures`, already read (the CLI reads it first to print what it will replay). */
  upstream?: UpstreamReplay;
}

export interface EngineResult {
  /** The run the stream holds (its header, its records sorted by ID, its footer). */
  report: RunReport;
  outDir: string;
  journalPath: string;
}

export { DEFAULT_TIMEOUT_MS } from '../../results/rerun.js';
export { readReplay } from './cases.js';

/**
 * A conformance run: resolve the adapter, shake hands (the claimed level is judged unless
 * --level says otherwise), gather and select the cases, run them on N workers with every record
 * appended to the run stream (OUT/journal.ndjson) as it comes, end the stream with its footer and
 * hand back that run. Problems that stop a run are EngineErrors; the CLI maps them to exit codes.
 */
export async function runEngine(given: RunConfig, hooks: EngineHooks = {}): Promise<EngineResult> {
  const reporters = hooks.reporters ?? [];
  let config: RunConfig = { ...given, out: resolve(given.out) };
  // A fixture tree is checked before the output directory or the adapter is touched.
  const upstream = hooks.upstream ?? (config.fixtures ? replayOf(config.fixtures) : undefined);
  const streamPath = streamPathOf(config);
  prepareOutDir(config.out);
  const previous = config.resume ? readUnfinished(streamPath) : undefined;
  if (previous) config = resumedConfig(config, previous.header, streamPath);
  let seed = 0; // set once the judged level is known
  const adapter = await resolveAdapter(config.adapter, { forceProcess: config.process });
  for (const w of adapter.warnings ?? []) hooks.onWarning?.(w);
  // With --jobs N the workers are threads; they load their modules while this one shakes hands.
  const early: Threads | undefined = config.jobs > 1 && !hooks.cases && threadsAvailable() ? startThreads(config.jobs) : undefined;
  const checker = config.checkProtocol ? new ProtocolChecker() : undefined;
  const runDir = mkdtempSync(join(defaultWorkspaceParent(), 'oap-run-'));
  const kept = keptWorkspacesOf(config);
  if (kept) makeDirectory(kept);

  const workers: Worker[] = [];
  const newWorker = (index: number): Worker => {
    const w = new Worker({
      index,
      adapter,
      config,
      runSeed: () => seed,
      accommodations: () => runAccommodations(config),
      dir: join(runDir, `worker-${index}`),
      checker,
      onSpawn: hooks.onSpawn,
    });
    workers.push(w);
    return w;
  };
  let abortPool: (() => void) | undefined;
  const onAbort = (): void => {
    for (const w of workers) void w.abort();
    abortPool?.();
  };
  hooks.signal?.addEventListener('abort', onAbort, { once: true });

  try {
    // ---- handshake (worker 0 doubles as the probe)
    let handshakeResult: HandshakeT;
    try {
      handshakeResult = await newWorker(0).start();
    } catch (err) {
      if (hooks.signal?.aborted) throw new EngineError('interrupted', 'interrupted', 'interrupted before the adapter was ready');
      if (err instanceof HandshakeError) writeAdapterFailure(config, adapter.spec, err.message);
      throw err;
    }
    const level = config.level ?? handshakeResult.level;
    const revision = fixtureRevision();
    seed = config.seed === 'random' ? randomInt(0, 2 ** 31) : (config.seed ?? defaultSeed(revision.revision, level));

    // ---- calibration: which legal forms the harness accepts (a resumed run keeps its stream's)
    if (!config.calibration && config.calibrate !== false) {
      const calibration: Calibration = config.accommodate
        ? { accommodations: [...config.accommodate], probes: [], requests: 0 }
        : await workers[0]!.calibrate(level);
      config = { ...config, calibration };
    }

    // ---- cases
    const all = (hooks.cases ?? runCases(config, seed, upstream)).sort(byId);
    for (let i = 1; i < all.length; i++)
      if (all[i]!.id === all[i - 1]!.id) throw new EngineError('usage', 'duplicate-case', `two cases have the ID ${all[i]!.id}`);
    let selected = config.filter ? all.filter(caseMatcher(config.filter)) : all;
    // A filter that selects nothing is a mistyped filter, not an empty success (as vitest has it).
    if (config.filter && selected.length === 0)
      throw new EngineError('usage', 'no-case-matches', `no case matches --filter ${config.filter}`);
    if (config.caseIds?.length) selected = selectCases(selected, all, config.caseIds);
    if (config.shard) selected = selectShard(selected, config.shard);
    const header: RunHeader = {
      schema: 'oap-conform.report.v1',
      runner: { name: 'oap-conform', version: packageVersion() },
      manifest_digest: manifestDigest(all),
      manifest_cases: manifestCases(all),
      fixture_revision: revision.revision,
      fixture_dirty: revision.dirty,
      adapter: { spec: adapter.spec, handshake: handshakeResult },
      level,
      seed,
      options: recordedOptions(config),
      ...(config.calibration ? { calibration: config.calibration } : {}),
      started_at: new Date().toISOString(),
      ...(config.invokedAs ? { invoked_as: config.invokedAs } : {}),
    };

    // ---- the run stream (new, or the unfinished one resumed: its header stays, its records are kept)
    if (previous) {
      const d = headerDifference(previous.header, header);
      if (d)
        throw new EngineError(
          'usage',
          'resume-mismatch',
          `cannot resume ${streamPath}: its run differs in ${d.field} (${d.was} there, ${d.now} now)`,
        );
    }
    const stream = previous ? RunStreamWriter.resume(streamPath, previous) : RunStreamWriter.create(streamPath, header);
    const records: CaseRecord[] = [...(previous?.cases ?? [])];
    const done = new Set(records.map((r) => r.id));
    const record = (r: CaseRecord): void => {
      stream.case(r);
      records.push(r);
      for (const rep of reporters) rep.onCaseEnd?.(r);
    };

    // Cases above the judged level are not part of this run's question: they are not run or recorded.
    const todo = selected.filter((c) => !done.has(c.id) && caseLevel(c) <= level);
    const jobs = Math.max(1, Math.min(config.jobs, todo.length || 1));
    // With several workers, longest kinds first (the cases that spawn and kill adapter processes),
    // so no worker is left with one long case at the end while the others idle.
    const queue = jobs > 1 ? [...todo.filter((c) => c.needs?.process), ...todo.filter((c) => !c.needs?.process)] : [...todo];

    for (const rep of reporters) rep.onRunStart?.({ header: previous?.header ?? header, resumed: records.length, toRun: todo.length });

    // ---- workers: each runs the one loop over the queue, here or in its own thread
    let exhausted: string[];
    if (jobs > 1 && early !== undefined) {
      // One thread per worker, each with its own adapter: the probe's adapter is done.
      await workers[0]!.close();
      const titles = new Map(queue.map((c) => [c.id, c.title]));
      const pool = runPool(
        early,
        Array.from({ length: jobs }, (_, index) => ({ index, config, seed, dir: join(runDir, `worker-${index}`) })),
        queue.map((c) => c.id),
        {
          onCaseStart: (id) => {
            for (const rep of reporters) rep.onCaseStart?.({ id, title: titles.get(id) ?? id });
          },
          onRecord: record,
          ...(hooks.onSpawn ? { onSpawn: hooks.onSpawn } : {}),
        },
      );
      abortPool = pool.abort;
      if (hooks.signal?.aborted) pool.abort();
      exhausted = await pool.done;
    } else {
      const next = (): CaseDef | undefined => (hooks.signal?.aborted ? undefined : queue.shift());
      const caseStart = (def: CaseDef): void => {
        for (const rep of reporters) rep.onCaseStart?.({ id: def.id, title: def.title });
      };
      await Promise.all(
        Array.from({ length: jobs }, async (_, index) => {
          if (hooks.signal?.aborted) return;
          const w = workers[index] ?? newWorker(index);
          if (index > 0) await startForLoop(w);
          await workLoop(w, { next, caseStart, record });
        }),
      );
      exhausted = workers.map((w) => w.exhaustedReason).filter((r): r is string => r !== undefined);
    }

    // ---- the footer ends the stream; the run is what the stream holds
    const interrupted = !!hooks.signal?.aborted;
    const findings = records.flatMap((r) => (r.status === 'fail' && r.finding ? [r.finding] : [])).sort();
    const footer: RunFooter = {
      finished_at: new Date().toISOString(),
      complete: !interrupted,
      interrupted,
      counts: countStatuses(records),
      ...(exhausted.length > 0 ? { adapter_error: exhausted[0]! } : {}),
      ...(config.fuzz > 0 ? { fuzz: { seed, cases: records.filter((r) => r.origin === 'fuzz').length, findings } } : {}),
    };
    stream.end(footer);
    const report = wholeRun(streamPath, previous?.header ?? header, records.sort(byId), footer);
    for (const rep of reporters) rep.onRunEnd?.(report);
    return { report, outDir: config.out, journalPath: streamPath };
  } finally {
    hooks.signal?.removeEventListener('abort', onAbort);
    await Promise.all(workers.map((w) => w.close().catch(() => {})));
    await early?.terminate(); // the ones not used (fewer cases than --jobs, a refused handshake)
    rmSync(runDir, { recursive: true, force: true });
  }
}

/**
 * The unfinished run --resume continues: none when the stream does not exist or is empty (the
 * runner died before its header). A stream that cannot be read is never started over on top of,
 * since that would discard its cases.
 */
function readUnfinished(path: string): UnfinishedRun | undefined {
  if (!existsSync(path) || statSync(path).size === 0) return undefined;
  try {
    return readRunStream(path, { unfinished: true });
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    throw new EngineError('usage', 'resume-unreadable', `cannot resume: ${err.message} (move it away to start a fresh run)`);
  }
}

/**
 * The default seed: derived from the fixture revision and the judged level, so the same harness at
 * the same revision gets the same cases, fuzz inputs and verdicts (a certification is reproducible).
 */
function defaultSeed(revision: string, level: 1 | 2 | 3): number {
  return createHash('sha256').update(`oap-conform seed:${revision}:level ${level}`).digest().readUInt32BE(0) >>> 1;
}

/** --out must be a directory we can create and write to; anything else is a usage error (exit 2). */
function prepareOutDir(outDir: string): void {
  try {
    prepareOutputDirectory(outDir);
  } catch (err) {
    if (err instanceof InputError) throw new EngineError('usage', err.code, err.message);
    throw err;
  }
}

/**
 * The adapter could not be run at all (no handshake, so no RunHeader can exist): record why in
 * OUT/adapter-error.json for CI logs; the CLI also prints it on one line and exits 3.
 */
function writeAdapterFailure(config: RunConfig, spec: string, reason: string): void {
  makeDirectory(config.out);
  const now = new Date().toISOString();
  const body = { adapter: spec, at: now, adapter_error: reason, options: { jobs: config.jobs, timeout_ms: config.timeoutMs } };
  writeFileSync(join(config.out, 'adapter-error.json'), `${JSON.stringify(body, null, 2)}\n`);
}

/**
 * `--case ID` (repeatable): exactly the cases with these IDs, as a rerun line prints them. An ID no
 * case has is a usage error naming the nearest IDs; one the filter already excluded selects nothing.
 */
function selectCases(selected: CaseDef[], all: CaseDef[], ids: string[]): CaseDef[] {
  const known = new Set(all.map((c) => c.id));
  for (const id of ids) {
    if (!known.has(id)) {
      const near = nearestIds(id, [...known]);
      throw new EngineError('usage', 'no-such-case', `no case has the ID ${id}${near.length ? `; did you mean ${near.join(', ')}?` : ''}`);
    }
  }
  const wanted = new Set(ids);
  const out = selected.filter((c) => wanted.has(c.id));
  if (out.length === 0) throw new EngineError('usage', 'no-case-matches', `--case ${ids.join(', ')} is excluded by --filter`);
  return out;
}

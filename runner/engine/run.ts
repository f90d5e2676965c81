import { defaultWorkspaceParent } from '../../suites/kit/workspace.js';
import { createHash, randomInt } from 'node:crypto';
import { accessSync, constants, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { HandshakeT } from '../../protocol/messages.js';
import type { CaseDef } from '../../suites/kit/types.js';
import { caseLevel } from '../../suites/index.js';
import { runCases } from './cases.js';
import { CliError, EXIT } from '../exit-codes.js';
import type { CaseRecord, RunFooter, RunHeader, RunReport } from '../../results/model.js';
import type { RunReporter } from '../../results/reporter.js';
import { countStatuses } from '../../results/predicates.js';
import { packageVersion } from '../../spec/package-root.js';
import { resolveAdapter } from './adapter-spec.js';
import { loadUpstream, UpstreamLayoutError, type UpstreamReplay } from '../../suites/upstream/index.js';
import { fixtureRevision } from '../../results/revision.js';
import { HandshakeError } from './handshake.js';
import { Journal, readJournal, resumeMismatch } from './journal.js';
import { manifestCases, manifestDigest } from '../../results/manifest.js';
import { ProtocolChecker } from './protocol-check.js';
import { byId, caseMatcher, distribute, nearestIds, selectShard, type Shard } from './selection.js';
import { Worker } from './worker.js';
import { runPool, startThreads, threadsAvailable, type ThreadData, type Threads } from './thread-pool.js';

export interface EngineOptions {
  adapter: string;
  level?: 1 | 2 | 3;
  out: string;
  jobs: number;
  filter?: string;
  /** `--case ID`: exactly these case IDs (no pattern); an unknown ID is a usage error. */
  caseIds?: string[];
  timeoutMs: number;
  keepWorkspaces: boolean;
  resume: boolean;
  /** The run seed; default derived from the fixture revision and the judged level (`'random'` explores). */
  seed?: number | 'random';
  process: boolean;
  checkProtocol: boolean;
  fuzz: number;
  /** An upstream-layout fixture tree to replay (read and checked before anything runs or is written). */
  fixturesDir?: string;
  /** The same, already read and checked (the CLI reads it first to print what it will replay). */
  upstream?: UpstreamReplay;
  shard?: Shard;
  maxRestarts?: number;
  /** Replace the suite's cases (tests, and embedders of the CLI): the run has exactly these. */
  cases?: CaseDef[];
  /** Aborting stops the run: adapters killed, partial results written, exit 130. */
  signal?: AbortSignal;
  onSpawn?: (pid: number) => void;
  /** Listeners to the run (progress, tests); the engine formats nothing itself. */
  reporters?: readonly RunReporter[];
  /** Variables added to the adapter process environment (`--adapter-env`). */
  adapterEnv?: Readonly<Record<string, string>>;
  /** One-line warnings about the adapter before the run starts (e.g. stale compiled TypeScript). */
  onWarning?: (message: string) => void;
}

export interface EngineResult {
  report: RunReport;
  outDir: string;
  journalPath: string;
}

export { DEFAULT_TIMEOUT_MS } from '../../results/rerun.js';

/**
 * A conformance run: resolve the adapter, shake hands (the claimed level is judged unless
 * --level says otherwise), gather and select the cases, run them on N workers with results
 * streamed to OUT/journal.ndjson, then build the RunReport and hand it to results.
 */
export async function runEngine(opts: EngineOptions): Promise<EngineResult> {
  const reporters = opts.reporters ?? [];
  // A fixture tree is checked before the output directory or the adapter is touched.
  const upstream = opts.upstream ?? (opts.fixturesDir ? readReplay(opts.fixturesDir) : undefined);
  const outDir = resolve(opts.out);
  const journalPath = join(outDir, 'journal.ndjson');
  prepareOutDir(outDir);
  const previous = opts.resume ? readJournal(journalPath) : undefined;
  let seed = 0; // set once the judged level is known
  const adapter = await resolveAdapter(opts.adapter, { forceProcess: opts.process });
  for (const w of adapter.warnings ?? []) opts.onWarning?.(w);
  // With --jobs N the workers are threads; they load their modules while this one shakes hands.
  const early: Threads | undefined = opts.jobs > 1 && !opts.cases && threadsAvailable() ? startThreads(opts.jobs) : undefined;
  const checker = opts.checkProtocol ? new ProtocolChecker() : undefined;
  const runDir = mkdtempSync(join(defaultWorkspaceParent(), 'oap-run-'));
  const workspaceParent = opts.keepWorkspaces ? join(outDir, 'workspaces') : undefined;
  if (workspaceParent) mkdirSync(workspaceParent, { recursive: true });

  const workers: Worker[] = [];
  const newWorker = (index: number): Worker => {
    const w = new Worker({
      index,
      adapter,
      timeoutMs: opts.timeoutMs,
      runSeed: () => seed,
      dir: join(runDir, `worker-${index}`),
      keepWorkspaces: opts.keepWorkspaces,
      ...(workspaceParent ? { workspaceParent } : {}),
      ...(opts.maxRestarts !== undefined ? { maxRestarts: opts.maxRestarts } : {}),
      ...(checker ? { checker } : {}),
      ...(opts.onSpawn ? { onSpawn: opts.onSpawn } : {}),
      ...(opts.adapterEnv ? { extraEnv: opts.adapterEnv } : {}),
    });
    workers.push(w);
    return w;
  };
  let abortPool: (() => void) | undefined;
  const onAbort = (): void => {
    for (const w of workers) void w.abort();
    abortPool?.();
  };
  opts.signal?.addEventListener('abort', onAbort, { once: true });

  try {
    // ---- handshake (worker 0 doubles as the probe)
    let handshakeResult: HandshakeT;
    try {
      handshakeResult = await newWorker(0).start();
    } catch (err) {
      if (opts.signal?.aborted) throw new CliError('interrupted', 'interrupted before the adapter was ready', EXIT.INTERRUPTED);
      if (!(err instanceof HandshakeError)) throw err;
      writeAdapterFailure(outDir, opts, adapter.spec, err.message);
      throw new CliError(err.code, err.message, EXIT.ADAPTER);
    }
    const level = opts.level ?? handshakeResult.level;
    const revision = fixtureRevision();
    // A resume without --seed continues with the journal's seed; an explicit different one is refused below.
    seed = opts.seed === 'random' ? randomInt(0, 2 ** 31) : (opts.seed ?? previous?.header.seed ?? defaultSeed(revision.revision, level));

    // ---- cases
    const all = (opts.cases ?? suiteCases(opts, seed, outDir, handshakeResult, upstream)).sort(byId);
    for (let i = 1; i < all.length; i++)
      if (all[i]!.id === all[i - 1]!.id) throw new CliError('duplicate-case', `two cases have the ID ${all[i]!.id}`, EXIT.USAGE);
    const digest = manifestDigest(all);
    let selected = opts.filter ? all.filter(caseMatcher(opts.filter)) : all;
    // A filter that selects nothing is a mistyped filter, not an empty success (as vitest has it).
    if (opts.filter && selected.length === 0) throw new CliError('no-case-matches', `no case matches --filter ${opts.filter}`, EXIT.USAGE);
    if (opts.caseIds?.length) selected = selectCases(selected, all, opts.caseIds);
    if (opts.shard) selected = selectShard(selected, opts.shard);
    const header: RunHeader = {
      schema: 'oap-conform.report.v1',
      runner: { name: 'oap-conform', version: packageVersion() },
      manifest_digest: digest,
      manifest_cases: manifestCases(all),
      fixture_revision: revision.revision,
      fixture_dirty: revision.dirty,
      adapter: { spec: adapter.spec, handshake: handshakeResult },
      level,
      seed,
      options: {
        jobs: opts.jobs,
        timeout_ms: opts.timeoutMs,
        fuzz: opts.fuzz,
        ...(opts.filter ? { filter: opts.filter } : {}),
        ...(opts.caseIds?.length ? { case: [...new Set(opts.caseIds)] } : {}),
        ...(opts.checkProtocol ? { check_protocol: true } : {}),
        ...(opts.process ? { process: true } : {}),
        ...(opts.shard ? { shard: opts.shard } : {}),
        ...(upstream ? { fixtures_dir: upstream.root, fixtures_digest: upstream.digest } : {}),
      },
      started_at: new Date().toISOString(),
    };

    // ---- journal (fresh, or resumed)
    let kept: CaseRecord[] = [];
    let journal: Journal;
    if (previous) {
      const why = resumeMismatch(previous.header, header);
      if (why) throw new CliError('resume-mismatch', `cannot resume ${journalPath}: ${why}`, EXIT.USAGE);
      const wanted = new Set(selected.map((c) => c.id));
      kept = previous.records.filter((r) => wanted.has(r.id));
      journal = Journal.append(journalPath);
      Object.assign(header, { started_at: previous.header.started_at });
    } else {
      journal = Journal.create(journalPath, header);
    }
    const done = new Set(kept.map((r) => r.id));
    const records: CaseRecord[] = [...kept];
    const record = (r: CaseRecord): void => {
      journal.write(r);
      records.push(r);
      for (const rep of reporters) rep.onCaseEnd?.(r);
    };

    // Cases above the judged level are not part of this run's question: they are not run or recorded.
    const todo = selected.filter((c) => !done.has(c.id) && caseLevel(c) <= level);

    for (const rep of reporters) rep.onRunStart?.({ header, resumed: kept.length, toRun: todo.length });

    // ---- workers
    const jobs = Math.max(1, Math.min(opts.jobs, todo.length || 1));
    let exhausted: string[] = [];
    const threaded = jobs > 1 && early !== undefined;
    if (threaded) {
      // One thread per worker, each with its own adapter: the probe's adapter is done.
      await workers[0]!.close();
      const titles = new Map(todo.map((c) => [c.id, c.title]));
      const data = (index: number): ThreadData => ({
        index,
        adapter: opts.adapter,
        forceProcess: opts.process,
        timeoutMs: opts.timeoutMs,
        seed,
        fuzz: opts.fuzz,
        ...(upstream ? { upstream: { root: upstream.root, digest: upstream.digest } } : {}),
        findingsDir: join(outDir, 'findings'),
        handshake: handshakeResult,
        dir: join(runDir, `worker-${index}`),
        ...(workspaceParent ? { workspaceParent } : {}),
        keepWorkspaces: opts.keepWorkspaces,
        ...(opts.maxRestarts !== undefined ? { maxRestarts: opts.maxRestarts } : {}),
        checkProtocol: opts.checkProtocol,
        ...(opts.adapterEnv ? { extraEnv: { ...opts.adapterEnv } } : {}),
      });
      // Longest kinds first (the cases that spawn and kill adapter processes), so no thread is
      // left with one long case at the end while the other idles.
      const ordered = [...todo.filter((c) => c.needs?.process), ...todo.filter((c) => !c.needs?.process)];
      const pool = runPool(
        early,
        Array.from({ length: jobs }, (_, i) => data(i)),
        ordered.map((c) => c.id),
        {
          onCaseStart: (id) => {
            for (const rep of reporters) rep.onCaseStart?.({ id, title: titles.get(id) ?? id });
          },
          onRecord: record,
          ...(opts.onSpawn ? { onSpawn: opts.onSpawn } : {}),
        },
      );
      abortPool = pool.abort;
      if (opts.signal?.aborted) pool.abort();
      exhausted = await pool.done;
    }
    const slices = threaded ? [] : distribute(todo, jobs);
    const runSlice = async (index: number): Promise<void> => {
      if (opts.signal?.aborted) return;
      const w = workers[index] ?? newWorker(index);
      if (index > 0) {
        // Another worker's adapter failing to start is a fault of that worker, replayed per case.
        await w.start().catch((err: unknown) => {
          if (!(err instanceof HandshakeError)) throw err;
        });
      }
      for (const def of slices[index]!) {
        // An in-process adapter can answer a whole run in promise continuations alone, never
        // returning to the event loop, where SIGINT/SIGTERM are delivered: let them in between cases.
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (opts.signal?.aborted) return;
        for (const rep of reporters) rep.onCaseStart?.({ id: def.id, title: def.title });
        const r = await w.run(def);
        if (!r) return;
        record(r);
      }
    };
    await Promise.all(slices.map((_, i) => runSlice(i)));

    // ---- report
    const interrupted = !!opts.signal?.aborted;
    records.sort(byId);
    const footer: RunFooter = {
      finished_at: new Date().toISOString(),
      complete: !interrupted,
      interrupted,
      counts: countStatuses(records),
      ...(workers.some((w) => w.exhaustedReason) || exhausted.length > 0
        ? { adapter_error: [...workers.map((w) => w.exhaustedReason), ...exhausted].find(Boolean)! }
        : {}),
      ...(opts.fuzz > 0 ? { fuzz: { seed, cases: records.filter((r) => r.origin === 'fuzz').length, findings: [] } } : {}),
    };
    const report: RunReport = { header, cases: records, footer };
    for (const rep of reporters) rep.onRunEnd?.(report);
    return { report, outDir, journalPath };
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
    await Promise.all(workers.map((w) => w.close().catch(() => {})));
    await early?.terminate(); // the ones not used (fewer cases than --jobs, a refused handshake)
    rmSync(runDir, { recursive: true, force: true });
  }
}

/**
 * The default seed: derived from the fixture revision and the judged level, so the same harness at
 * the same revision gets the same cases, fuzz inputs and verdicts (a certification is reproducible).
 */
function defaultSeed(revision: string, level: 1 | 2 | 3): number {
  return createHash('sha256').update(`oap-conform seed:${revision}:level ${level}`).digest().readUInt32BE(0) >>> 1;
}

/** The suite's cases for this run. */
function suiteCases(opts: EngineOptions, seed: number, outDir: string, handshake: HandshakeT, upstream?: UpstreamReplay): CaseDef[] {
  return runCases({ seed, fuzz: opts.fuzz, findingsDir: join(outDir, 'findings'), handshake, ...(upstream ? { upstream } : {}) });
}

/** Read and check a --fixtures tree; a tree that cannot be replayed is a usage error (exit 2, one line). */
export function readReplay(dir: string): UpstreamReplay {
  try {
    return loadUpstream(dir);
  } catch (err) {
    if (err instanceof UpstreamLayoutError) throw new CliError(err.code, err.message, EXIT.USAGE);
    throw err;
  }
}

/** --out must be a directory we can create and write to; anything else is a usage error (exit 2). */
function prepareOutDir(outDir: string): void {
  try {
    mkdirSync(outDir, { recursive: true });
    if (!statSync(outDir).isDirectory()) throw new Error('not a directory');
    accessSync(outDir, constants.W_OK);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const why =
      e.code === 'EEXIST' || e.code === 'ENOTDIR'
        ? 'it or one of its parents is a file, not a directory'
        : e.code === 'EACCES' || e.code === 'EPERM' || e.code === 'EROFS'
          ? 'permission denied'
          : e.message;
    throw new CliError('out-dir', `cannot write results to --out ${outDir}: ${why}`, EXIT.USAGE);
  }
}

/**
 * The adapter could not be run at all (no handshake, so no RunHeader can exist): record why in
 * OUT/adapter-error.json for CI logs; the CLI also prints it on one line and exits 3.
 */
function writeAdapterFailure(outDir: string, opts: EngineOptions, spec: string, reason: string): void {
  mkdirSync(outDir, { recursive: true });
  const now = new Date().toISOString();
  const body = { adapter: spec, at: now, adapter_error: reason, options: { jobs: opts.jobs, timeout_ms: opts.timeoutMs } };
  writeFileSync(join(outDir, 'adapter-error.json'), `${JSON.stringify(body, null, 2)}\n`);
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
      throw new CliError('no-such-case', `no case has the ID ${id}${near.length ? `; did you mean ${near.join(', ')}?` : ''}`, EXIT.USAGE);
    }
  }
  const wanted = new Set(ids);
  const out = selected.filter((c) => wanted.has(c.id));
  if (out.length === 0) throw new CliError('no-case-matches', `--case ${ids.join(', ')} is excluded by --filter`, EXIT.USAGE);
  return out;
}

import { defaultWorkspaceParent } from '../../suites/framework/workspace.js';
import { randomInt } from 'node:crypto';
import { accessSync, constants, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { HandshakeT } from '../../adapters/protocol/messages.js';
import type { CaseDef } from '../../suites/framework/types.js';
import { allCases, caseLevel } from '../../suites/index.js';
import { CliError, EXIT } from '../cli/exit-codes.js';
import type { CaseRecord, RunFooter, RunHeader, RunReport } from '../results/model.js';
import { oneLine } from '../../reports/text.js';
import { packageVersion } from '../util/package-root.js';
import { resolveAdapter } from './adapter-spec.js';
import { collectSourceCases } from './case-sources.js';
import { checkFinalizeOptions, finalize, fixtureRevision } from './finalize.js';
import { HandshakeError } from './handshake.js';
import { Journal, readJournal, resumeMismatch } from './journal.js';
import { manifestDigest } from './manifest.js';
import { ProtocolChecker } from './protocol-check.js';
import { byId, caseMatcher, distribute, selectShard, type Shard } from './selection.js';
import { toRecord, Worker } from './worker.js';

export interface EngineOptions {
  adapter: string;
  level?: 1 | 2 | 3;
  out: string;
  jobs: number;
  filter?: string;
  timeoutMs: number;
  keepWorkspaces: boolean;
  resume: boolean;
  seed?: number;
  process: boolean;
  checkProtocol: boolean;
  fuzz: number;
  fixturesDir?: string;
  baseline?: string;
  sign?: string;
  formats?: string[];
  shard?: Shard;
  allowDirty: boolean;
  maxRestarts?: number;
  /** Replace the suite's cases (tests; the CLI always runs the suite plus registered sources). */
  cases?: CaseDef[];
  /** Aborting stops the run: adapters killed, partial results written, exit 130. */
  signal?: AbortSignal;
  onSpawn?: (pid: number) => void;
  onCase?: (record: CaseRecord) => void;
  /** Progress lines (the CLI prints them to stderr). */
  log?: (line: string) => void;
}

export interface EngineResult {
  report: RunReport;
  exitCode: number;
  outDir: string;
  journalPath: string;
  finalizedBy: 'results' | 'fallback';
}

export const DEFAULT_TIMEOUT_MS = 10_000;

function counts(records: CaseRecord[]): RunFooter['counts'] {
  const c: RunFooter['counts'] = { pass: 0, fail: 0, error: 0, crash: 0, timeout: 0, skipped: 0, 'not-applicable': 0, total: records.length };
  for (const r of records) c[r.status]++;
  return c;
}

function notApplicable(def: CaseDef, reason: string): CaseRecord {
  return toRecord(def, { id: def.id, requirements: def.requirements, status: 'not-applicable', message: reason, durationMs: 0 });
}

/**
 * A conformance run: resolve the adapter, shake hands (the claimed level is judged unless
 * --level says otherwise), gather and select the cases, run them on N workers with results
 * streamed to OUT/journal.ndjson, then build the RunReport and hand it to runner/results.
 */
export async function runEngine(opts: EngineOptions): Promise<EngineResult> {
  const log = opts.log ?? (() => {});
  const outDir = resolve(opts.out);
  const journalPath = join(outDir, 'journal.ndjson');
  // Input problems are found before the adapter starts, not after every case has run.
  const finalOptions = {
    allowDirty: opts.allowDirty,
    ...(opts.formats ? { formats: opts.formats } : {}),
    ...(opts.baseline ? { baseline: opts.baseline } : {}),
    ...(opts.sign ? { sign: opts.sign } : {}),
  };
  await checkFinalizeOptions(finalOptions);
  prepareOutDir(outDir);
  const previous = opts.resume ? readJournal(journalPath) : undefined;
  const seed = opts.seed ?? previous?.header.seed ?? randomInt(0, 2 ** 31);
  const adapter = await resolveAdapter(opts.adapter, { forceProcess: opts.process });
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
      runSeed: seed,
      dir: join(runDir, `worker-${index}`),
      keepWorkspaces: opts.keepWorkspaces,
      ...(workspaceParent ? { workspaceParent } : {}),
      ...(opts.maxRestarts !== undefined ? { maxRestarts: opts.maxRestarts } : {}),
      ...(checker ? { checker } : {}),
      ...(opts.onSpawn ? { onSpawn: opts.onSpawn } : {}),
    });
    workers.push(w);
    return w;
  };
  const onAbort = (): void => {
    for (const w of workers) void w.abort();
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
    log(oneLine(`adapter ${handshakeResult.implementation.name} ${handshakeResult.implementation.version} (protocol ${handshakeResult.protocol_version}, claims level ${handshakeResult.level}); judging level ${level}`, 1000));

    // ---- cases
    const extra = await collectSourceCases({ seed, level, fuzz: opts.fuzz, outDir, handshake: handshakeResult, ...(opts.fixturesDir ? { fixturesDir: opts.fixturesDir } : {}) });
    const all = [...(opts.cases ?? allCases()), ...extra].sort(byId);
    for (let i = 1; i < all.length; i++) if (all[i]!.id === all[i - 1]!.id) throw new CliError('duplicate-case', `two cases have the ID ${all[i]!.id}`, EXIT.USAGE);
    const digest = manifestDigest(all);
    let selected = opts.filter ? all.filter(caseMatcher(opts.filter)) : all;
    if (opts.shard) selected = selectShard(selected, opts.shard);

    const revision = await fixtureRevision();
    const header: RunHeader = {
      schema: 'oap-conform.report.v1',
      runner: { name: 'oap-conform', version: packageVersion() },
      manifest_digest: digest,
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
        ...(opts.shard ? { shard: opts.shard } : {}),
        ...(opts.fixturesDir ? { fixtures_dir: opts.fixturesDir } : {}),
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
      log(`resuming: ${kept.length} case(s) already in the journal`);
    } else {
      journal = Journal.create(journalPath, header);
    }
    const done = new Set(kept.map((r) => r.id));
    const records: CaseRecord[] = [...kept];
    const record = (r: CaseRecord): void => {
      journal.write(r);
      records.push(r);
      opts.onCase?.(r);
    };

    const todo: CaseDef[] = [];
    for (const c of selected) {
      if (done.has(c.id)) continue;
      if (caseLevel(c) > level) record(notApplicable(c, `level ${caseLevel(c)} case; level ${level} is judged`));
      else todo.push(c);
    }

    // ---- workers
    const jobs = Math.max(1, Math.min(opts.jobs, todo.length || 1));
    const slices = distribute(todo, jobs);
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
        const r = await w.run(def);
        if (!r) return;
        record(r);
        // Messages quote the adapter: one line each, no terminal control sequences.
        log(`${r.status.padEnd(14)} ${oneLine(r.id, 1000)}${r.message && r.status !== 'pass' ? `  ${oneLine(r.message, 1000)}` : ''}`);
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
      counts: counts(records),
      ...(workers.some((w) => w.exhaustedReason) ? { adapter_error: workers.map((w) => w.exhaustedReason).find(Boolean)! } : {}),
      ...(opts.fuzz > 0 ? { fuzz: { seed, cases: records.filter((r) => r.origin === 'fuzz').length, findings: [] } } : {}),
    };
    const report: RunReport = { header, cases: records, footer };
    const fin = await finalize(report, outDir, finalOptions);
    return { report, exitCode: interrupted ? EXIT.INTERRUPTED : fin.exitCode, outDir, journalPath, finalizedBy: fin.via };
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
    await Promise.all(workers.map((w) => w.close().catch(() => {})));
    rmSync(runDir, { recursive: true, force: true });
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
    const why = e.code === 'EEXIST' || e.code === 'ENOTDIR' ? 'it or one of its parents is a file, not a directory' : e.code === 'EACCES' || e.code === 'EPERM' || e.code === 'EROFS' ? 'permission denied' : e.message;
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

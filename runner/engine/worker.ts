import { mkdirSync } from 'node:fs';
import type { HandshakeT } from '../../protocol/messages.js';
import { AdapterCrashed } from '../../protocol/errors.js';
import { outcomeOf, runCalibration, runCase } from './run-case.js';
import type { Accommodation } from '../../suites/kit/accommodations.js';
import type { Calibration } from '../../suites/calibration/calibrate.js';
import type { AdapterRpc, CaseDef, KillableAdapter } from '../../suites/kit/types.js';
import type { CaseOutcome } from '../../results/record.js';
import { caseLevel } from '../../suites/index.js';
import { fixtureFilesOf } from '../../fixtures/index.js';
import type { CaseRecord } from '../../results/model.js';
import type { ResolvedAdapter } from './adapter-spec.js';
import { DEFAULT_MAX_RESTARTS, keptWorkspacesOf, type RunConfig } from './config.js';
import { CaseHome } from './env.js';
import { handshake, HandshakeError } from './handshake.js';
import { InProcessConnection } from './in-process-connection.js';
import type { ProtocolChecker } from './protocol-check.js';
import { StdioAdapterClient } from './stdio-client.js';

export interface WorkerOptions {
  index: number;
  adapter: ResolvedAdapter;
  /** The run's one config: timeout, restart budget, kept workspaces, `--adapter-env`. */
  config: RunConfig;
  /** The run seed; read when each case starts (it is known only after the handshake). */
  runSeed: () => number;
  /** The run's accommodations; read when each case starts (known only after calibration). */
  accommodations?: () => readonly Accommodation[];
  /** The worker's private temp dir: HOME/XDG/TMPDIR of its adapter (symlinks into the running case), and case workspaces. */
  dir: string;
  checker?: ProtocolChecker | undefined;
  /** Called with the pid of every adapter process this worker starts (tests check for orphans). */
  onSpawn?: ((pid: number) => void) | undefined;
}

type Connection = AdapterRpc & { readonly fault: Error | undefined; close(): Promise<void> };

/**
 * One worker: one adapter (process or in-process instance), its handshake, and the cases assigned
 * to it, run one at a time. A connection that faulted (crash, timeout, protocol error) is replaced
 * before the next case and the handshake replayed, at most `maxRestarts` times; after that the
 * remaining cases are recorded as `error` (kind crash, never ran) with the reason.
 */
export class Worker {
  private conn: Connection | undefined;
  private stdio: StdioAdapterClient | undefined;
  private hs: HandshakeT | undefined;
  private restarts = 0;
  private exhausted: string | undefined;
  private stopped = false;
  private readonly home: CaseHome;
  private readonly spawned = new Set<StdioAdapterClient>();

  constructor(private readonly opts: WorkerOptions) {
    mkdirSync(opts.dir, { recursive: true });
    this.home = new CaseHome(opts.dir, process.env, opts.config.adapterEnv?.vars);
  }

  get handshake(): HandshakeT | undefined {
    return this.hs;
  }

  /** Set once the restart budget is spent: why the adapter could no longer be run. */
  get exhaustedReason(): string | undefined {
    return this.exhausted;
  }

  get restartCount(): number {
    return this.restarts;
  }

  /** Start the adapter and shake hands. Throws HandshakeError when the adapter cannot be run. */
  async start(): Promise<HandshakeT> {
    const { adapter, checker } = this.opts;
    const { timeoutMs } = this.opts.config;
    if (adapter.mode === 'in-process' && adapter.factory) {
      const conn = new InProcessConnection(await createInProcess(adapter.factory), timeoutMs, checker);
      this.conn = conn;
      this.stdio = undefined;
      this.hs = await handshake(conn);
      return this.hs;
    }
    const client = await this.spawnClient().catch((err: unknown) => {
      throw new HandshakeError('spawn-failed', (err as Error).message);
    });
    this.conn = client;
    this.stdio = client;
    try {
      this.hs = await handshake(client, () => client.stderr.tail(2048));
    } catch (err) {
      await client.kill().catch(() => {}); // a refused handshake must not leave the process behind
      throw err;
    }
    return this.hs;
  }

  private async spawnClient(): Promise<StdioAdapterClient> {
    const argv = this.opts.adapter.processArgv;
    if (!argv) throw new AdapterCrashed('this adapter cannot run as a process', null, null);
    const client = await StdioAdapterClient.start({
      argv,
      env: this.home.env,
      cwd: process.cwd(), // relative paths in the command line are the user's
      timeoutMs: this.opts.config.timeoutMs,
      ...(this.opts.checker ? { checker: this.opts.checker } : {}),
    });
    this.opts.onSpawn?.(client.pid);
    return client;
  }

  /** A separately spawned, handshaken adapter process for crash-safety cases; killed after the case. */
  private async spawnKillable(): Promise<KillableAdapter> {
    const client = await this.spawnClient();
    this.spawned.add(client);
    await handshake(client, () => client.stderr.tail(2048)).catch(async (err: unknown) => {
      await client.kill().catch(() => {});
      throw err instanceof HandshakeError ? new AdapterCrashed(`spawned adapter: ${err.message}`, null, null) : err;
    });
    return client;
  }

  /** Replace a faulted connection, within the restart budget. False when the budget is spent. */
  private async ensureHealthy(): Promise<boolean> {
    while (!this.conn || this.conn.fault) {
      if (this.exhausted) return false;
      const reason = this.conn?.fault?.message ?? 'adapter not started';
      if (this.restarts >= (this.opts.config.maxRestarts ?? DEFAULT_MAX_RESTARTS)) {
        this.exhausted = `adapter restart budget exhausted after ${this.restarts} restarts (raise it with --max-restarts); last fault: ${reason}`;
        return false;
      }
      this.restarts++;
      await this.conn?.close().catch(() => {});
      this.conn = undefined;
      try {
        await this.start();
      } catch (err) {
        if (!(err instanceof HandshakeError)) throw err;
        // Keep the failed connection (faulted) so the loop counts another restart.
        this.conn = { fault: err, close: async () => {}, call: () => Promise.reject(err) } as Connection;
      }
    }
    return true;
  }

  /** Run one case; undefined when the worker was stopped meanwhile (an interrupted case is not recorded). */
  async run(def: CaseDef): Promise<CaseRecord | undefined> {
    if (this.stopped) return undefined;
    const started = performance.now();
    const healthy = await this.ensureHealthy();
    if (this.stopped) return undefined;
    if (!healthy || !this.conn || !this.hs) {
      return toRecord(def, {
        id: def.id,
        requirements: def.requirements,
        status: 'error',
        message: this.exhausted ?? 'adapter unavailable',
        fault: 'adapter',
        error: { kind: 'crash' },
        ran: false,
        durationMs: performance.now() - started,
      });
    }
    const conn = this.conn;
    const stderrMark = this.stdio?.stderr.written ?? 0;
    const canSpawn = !!this.opts.adapter.processArgv;
    let outcome = await runCase(def, {
      adapter: conn,
      handshake: this.hs,
      runSeed: this.opts.runSeed(),
      accommodations: this.opts.accommodations?.() ?? [],
      keepWorkspace: this.opts.config.keepWorkspaces,
      workspaceParent: keptWorkspacesOf(this.opts.config) ?? this.opts.dir,
      ...(canSpawn ? { spawnAdapter: () => this.spawnKillable() } : {}),
      // The adapter's HOME, XDG dirs and TMPDIR are the case's own while it runs.
      onWorkspace: (ws) => this.home.pointAt({ home: ws.home, tmp: ws.tmp }),
    });
    this.home.pointAt(undefined);
    await this.killSpawned();
    if (this.stopped) return undefined;
    // A transport fault during the case that the case itself did not trip over (an unsolicited
    // garbage line, say) still belongs to this case: it must not pass.
    const fault = conn.fault;
    if (fault && outcome.status !== 'error' && outcome.status !== 'timeout') {
      const ended = `the case had ended with ${outcome.status}${outcome.status !== 'pass' ? `: ${outcome.message}` : ''}`;
      const faulted = outcomeOf(fault, { id: outcome.id, requirements: outcome.requirements, durationMs: outcome.durationMs });
      if (faulted.status !== 'pass')
        outcome = { ...faulted, ...(outcome.notes ? { notes: outcome.notes } : {}), message: `${faulted.message} (${ended})` };
    }
    const excerpt = this.stdio?.stderr.since(stderrMark);
    if (excerpt) outcome = { ...outcome, stderr: excerpt };
    return toRecord(def, outcome);
  }

  /**
   * Calibrate on this worker's adapter (the main thread's, right after the handshake). The adapter's
   * HOME and TMPDIR point into the calibration's workspace while it runs, as for a case.
   */
  async calibrate(level: 1 | 2 | 3): Promise<Calibration> {
    if (!this.conn || !this.hs) throw new Error('calibrate before the handshake');
    const calibration = await runCalibration(
      {
        adapter: this.conn,
        handshake: this.hs,
        runSeed: this.opts.runSeed(),
        keepWorkspace: this.opts.config.keepWorkspaces,
        workspaceParent: keptWorkspacesOf(this.opts.config) ?? this.opts.dir,
        onWorkspace: (ws) => this.home.pointAt({ home: ws.home, tmp: ws.tmp }),
      },
      level,
    );
    this.home.pointAt(undefined);
    return calibration;
  }

  private async killSpawned(): Promise<void> {
    const all = [...this.spawned];
    this.spawned.clear();
    await Promise.all(all.map((c) => c.kill().catch(() => {})));
  }

  /** Stop now (interrupt): kill the adapter and anything the current case spawned. */
  async abort(): Promise<void> {
    this.stopped = true;
    await Promise.all([this.stdio?.kill().catch(() => {}), this.killSpawned()]);
  }

  async close(): Promise<void> {
    this.stopped = true;
    await this.killSpawned();
    await this.conn?.close().catch(() => {});
    this.conn = undefined;
  }
}

/** An adapter factory that throws cannot be run: a HandshakeError (exit 3), like a process that dies at start. */
export async function createInProcess(factory: NonNullable<ResolvedAdapter['factory']>): Promise<Awaited<ReturnType<typeof factory>>> {
  try {
    return await factory();
  } catch (err) {
    throw new HandshakeError('adapter-factory', `the adapter factory threw: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function toRecord(def: CaseDef, outcome: CaseOutcome): CaseRecord {
  const files = (def.fixtures ?? []).flatMap(fixtureFilesOf);
  return {
    ...outcome,
    title: def.title,
    clauses: [...def.clauses],
    level: caseLevel(def),
    origin: def.origin ?? 'fixture',
    ...(def.fixtures ? { fixtures: def.fixtures } : {}),
    ...(files.length > 0 ? { fixture_files: [...new Set(files)] } : {}),
    ...(def.expectation !== undefined ? { expectation: def.expectation } : {}),
  };
}

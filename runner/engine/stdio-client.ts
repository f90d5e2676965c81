import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { methods, RpcError, type MethodName, type Params, type Result } from '../../protocol/messages.js';
import { DEFAULT_MAX_LINE_BYTES, LineSplitter, encodeLine, type LineEvent } from '../../sdk/ts/framing.js';
import { AdapterCrashed, AdapterProtocolError, AdapterTimeout } from '../../protocol/errors.js';
import type { KillableAdapter } from '../../suites/kit/types.js';
import { killProcessGroup, registerProcess, unregisterProcess } from './process-registry.js';
import type { ProtocolChecker } from './protocol-check.js';
import { errorFromRpc, oneLine } from './rpc-errors.js';
import { StderrTail } from './stderr-tail.js';

export interface StdioClientOptions {
  argv: string[];
  env: Record<string, string>;
  cwd?: string;
  /** Per-request timeout. */
  timeoutMs: number;
  maxLineBytes?: number;
  stderrCapacity?: number;
  /** `--check-protocol`: validate requests and responses against the committed JSON Schemas. */
  checker?: ProtocolChecker;
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

interface Pending {
  method: MethodName;
  resolve(value: unknown): void;
  reject(err: Error): void;
  /** performance.now() by which the response must have arrived; Infinity for `send` (no timeout). */
  deadline: number;
}

/**
 * Requests issued in one tick leave in one write, but a long batch is sent in slices of about this
 * many bytes, so the adapter starts on the first requests while the rest are being encoded: fewer
 * syscalls than a write per line, without serialising the two processes on a multi-core machine.
 */
const FLUSH_AT_BYTES = 8192;

/** Grace period for the adapter's last lines to arrive after its exit is reported. */
const EXIT_DRAIN_MS = 100;

function describeExit(e: ExitInfo): string {
  return e.signal ? `was killed by ${e.signal}` : `exited with status ${e.code}`;
}

/**
 * One adapter process spoken to over NDJSON JSON-RPC. Requests may be pipelined; responses are
 * matched by id. Any transport fault is sticky: a line that is not JSON, not UTF-8, too long, a
 * response to an id nobody asked for, a timeout or an exit poisons the connection (every pending
 * and later call rejects with the same typed error) and the process group is killed; the worker
 * then restarts the adapter. A response whose result does not match the method's schema only fails
 * that call: the framing is intact, so the connection stays usable.
 */
export class StdioAdapterClient implements KillableAdapter {
  readonly stderr: StderrTail;
  readonly exited: Promise<ExitInfo>;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private faultError: Error | undefined;
  private exitInfo: ExitInfo | undefined;
  private stdoutEnded = false;
  /**
   * One timer for every pending request instead of one setTimeout each. Deadlines are `now +
   * timeoutMs` with one timeoutMs, so they grow with the id, and `pending` (a Map) iterates in id
   * order: the first timed entry is always the next to expire. The timer is armed for it and, when
   * it fires, either times it out or re-arms for whichever entry is then the oldest.
   */
  private deadlineTimer: NodeJS.Timeout | undefined;
  /** Requests issued in the same tick, sent in one write when the tick ends. */
  private outgoing = '';

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    readonly pid: number,
    private readonly options: StdioClientOptions,
  ) {
    this.stderr = new StderrTail(options.stderrCapacity);
    registerProcess(pid);
    const splitter = new LineSplitter((e) => this.onLine(e), options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES);
    child.stdout.on('data', (chunk: Buffer) => {
      if (!this.faultError) splitter.push(chunk);
    });
    child.stdout.on('end', () => {
      this.stdoutEnded = true;
    });
    child.stderr.on('data', (chunk: Buffer) => this.stderr.push(chunk));
    // Writes to a dead adapter fail with EPIPE; the exit handler reports the crash.
    child.stdin.on('error', () => {});
    child.stdout.on('error', () => {});
    child.stderr.on('error', () => {});
    this.exited = new Promise<ExitInfo>((resolve) => {
      child.once('exit', (code, signal) => {
        const info = { code, signal };
        this.exitInfo = info;
        unregisterProcess(pid);
        // The exit can be reported before stdout is drained; let the last responses through.
        const settle = (): void => {
          this.onExit(info);
          resolve(info);
        };
        if (this.stdoutEnded) settle();
        else {
          const timer = setTimeout(settle, EXIT_DRAIN_MS);
          child.stdout.once('end', () => {
            clearTimeout(timer);
            settle();
          });
        }
      });
    });
  }

  /** Spawn the adapter in its own process group. Rejects with AdapterCrashed when it cannot start. */
  static start(options: StdioClientOptions): Promise<StdioAdapterClient> {
    const [file, ...args] = options.argv;
    if (!file) return Promise.reject(new AdapterCrashed('empty adapter command', null, null));
    return new Promise((resolve, reject) => {
      let child: ChildProcessWithoutNullStreams;
      try {
        child = spawn(file, args, {
          cwd: options.cwd,
          env: options.env,
          stdio: ['pipe', 'pipe', 'pipe'],
          detached: true, // own process group: kill(-pid) reaches grandchildren too
          windowsHide: true,
        });
      } catch (err) {
        reject(new AdapterCrashed(`cannot start adapter ${file}: ${(err as Error).message}`, null, null));
        return;
      }
      if (child.pid === undefined) {
        child.once('error', (err) => reject(new AdapterCrashed(`cannot start adapter ${file}: ${err.message}`, null, null)));
        return;
      }
      child.on('error', () => {}); // later errors (kill of a dead process) are reported through 'exit'
      resolve(new StdioAdapterClient(child, child.pid, options));
    });
  }

  /** The sticky transport fault, if any. */
  get fault(): Error | undefined {
    return this.faultError;
  }

  get alive(): boolean {
    return this.exitInfo === undefined;
  }

  call<M extends MethodName>(method: M, params: Params<M>): Promise<Result<M>> {
    return this.request(method, params, true) as Promise<Result<M>>;
  }

  send<M extends MethodName>(method: M, params: Params<M>): void {
    this.request(method, params, false).catch(() => {});
  }

  private request(method: MethodName, params: unknown, withTimeout: boolean): Promise<unknown> {
    if (this.faultError) return Promise.reject(this.faultError);
    const parsed = methods[method].params.safeParse(params);
    // Invalid params are a suite bug, not an adapter finding: a plain error (status error, "check error").
    if (!parsed.success) return Promise.reject(new Error(`suite sent invalid ${method} params: ${parsed.error.issues[0]?.message ?? ''}`));
    const id = this.nextId++;
    const message = { jsonrpc: '2.0' as const, id, method, params: parsed.data };
    const problem = this.options.checker?.request(message);
    if (problem) return Promise.reject(new Error(`runner request does not match the protocol schema: ${problem}`));
    return new Promise((resolve, reject) => {
      const line = encodeLine(message); // a throw rejects this call before anything is pending
      const deadline = withTimeout ? performance.now() + this.options.timeoutMs : Infinity;
      this.pending.set(id, { method, resolve, reject, deadline });
      if (withTimeout && this.deadlineTimer === undefined) this.armDeadline(this.options.timeoutMs);
      this.write(line);
    });
  }

  private armDeadline(ms: number): void {
    // Timers may fire up to a millisecond early by this clock; onDeadline then re-arms for the rest
    // (as it does for a timeout longer than setTimeout's 2^31-1 ms range).
    this.deadlineTimer = setTimeout(this.onDeadline, Math.min(2 ** 31 - 1, Math.max(1, Math.ceil(ms))));
  }

  private readonly onDeadline = (): void => {
    this.deadlineTimer = undefined;
    if (this.faultError) return;
    const now = performance.now();
    for (const entry of this.pending.values()) {
      if (entry.deadline === Infinity) continue;
      if (entry.deadline > now) {
        this.armDeadline(entry.deadline - now);
        return;
      }
      const err = new AdapterTimeout(entry.method, this.options.timeoutMs);
      this.poison(err); // a hung adapter is not trusted with the next request
      return;
    }
  };

  /** Requests issued in the same tick (pipelined calls) leave in one write instead of one each. */
  private write(line: string): void {
    if (this.outgoing === '') process.nextTick(this.flush);
    this.outgoing += line;
    if (this.outgoing.length >= FLUSH_AT_BYTES) this.flush(); // length in UTF-16 units: close enough
  }

  private readonly flush = (): void => {
    const data = this.outgoing;
    if (data === '') return;
    this.outgoing = '';
    this.child.stdin.write(data);
  };

  private onLine(event: LineEvent): void {
    if (event.kind === 'overflow') {
      this.poison(new AdapterProtocolError('protocol.line-too-long', `adapter wrote a line longer than ${event.limit} bytes`));
      return;
    }
    if (event.kind === 'invalid-utf8') {
      this.poison(
        new AdapterProtocolError('protocol.invalid-utf8', `adapter wrote a line of ${event.bytes} bytes that is not valid UTF-8`),
      );
      return;
    }
    let msg: unknown;
    try {
      msg = JSON.parse(event.text);
    } catch {
      this.poison(new AdapterProtocolError('protocol.not-json', `adapter wrote a line that is not JSON: ${oneLine(event.text, 120)}`));
      return;
    }
    const envelope = envelopeProblem(msg);
    if (envelope) {
      this.poison(new AdapterProtocolError('protocol.invalid-envelope', `adapter wrote an invalid JSON-RPC response: ${envelope}`));
      return;
    }
    const res = msg as { id: number | string | null; result?: unknown; error?: unknown };
    const entry = typeof res.id === 'number' ? this.pending.get(res.id) : undefined;
    if (!entry) {
      const what =
        res.id === null && res.error
          ? `an error with id null (${oneLine(JSON.stringify(res.error), 160)})`
          : `a response to id ${JSON.stringify(res.id)}, which is not pending`;
      this.poison(new AdapterProtocolError('protocol.unknown-id', `adapter sent ${what}`));
      return;
    }
    this.pending.delete(res.id as number);
    const problem = this.options.checker?.response(entry.method, msg);
    if (problem) {
      entry.reject(new AdapterProtocolError('protocol.schema', `${entry.method} response does not match the protocol schema: ${problem}`));
      return;
    }
    if ('error' in res) {
      const err = RpcError.safeParse(res.error);
      if (!err.success) entry.reject(new AdapterProtocolError('protocol.invalid-error', `${entry.method} error object is malformed`));
      else entry.reject(errorFromRpc(entry.method, err.data));
      return;
    }
    const result = methods[entry.method].result.safeParse(res.result);
    if (!result.success) {
      const first = result.error.issues[0];
      const pointer = first ? `/${first.path.map(String).join('/')}` : '';
      entry.reject(
        new AdapterProtocolError(
          'protocol.invalid-result',
          `${entry.method} result does not match the protocol schema at ${pointer}: ${first?.message ?? ''}`,
          pointer,
        ),
      );
      return;
    }
    entry.resolve(result.data);
  }

  private onExit(info: ExitInfo): void {
    if (!this.faultError) {
      const methodsPending = [...new Set([...this.pending.values()].map((p) => p.method))];
      const during = methodsPending.length ? ` while ${methodsPending.join(', ')} was pending` : '';
      this.faultError = new AdapterCrashed(`adapter ${describeExit(info)}${during}`, info.code, info.signal);
    }
    this.rejectAll(this.faultError);
  }

  /** Record a fault, fail everything pending with it, and kill the process group. */
  private poison(err: Error): void {
    if (!this.faultError) this.faultError = err;
    this.rejectAll(this.faultError);
    if (this.alive) killProcessGroup(this.pid, 'SIGKILL');
  }

  private rejectAll(err: Error): void {
    if (this.deadlineTimer !== undefined) {
      clearTimeout(this.deadlineTimer);
      this.deadlineTimer = undefined;
    }
    for (const [id, entry] of this.pending) {
      this.pending.delete(id);
      entry.reject(err);
    }
  }

  /** Kill the whole process group and wait for the adapter to be reaped. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    if (!this.faultError) this.faultError = new AdapterCrashed(`adapter was killed by the runner (${signal})`, null, signal);
    killProcessGroup(this.pid, signal);
    await this.exited;
  }

  /**
   * Polite shutdown (the `shutdown` request, then end of input), bounded in time; whatever is
   * left of the process group afterwards is killed, so no grandchild outlives the adapter.
   */
  async close(graceMs = 2000): Promise<void> {
    if (this.alive && !this.faultError) {
      const deadline = new Promise<void>((r) => setTimeout(r, graceMs).unref());
      await Promise.race([
        this.call('shutdown', {}).then(
          () => undefined,
          () => undefined,
        ),
        deadline,
      ]);
      this.flush();
      this.child.stdin.end();
      await Promise.race([this.exited.then(() => undefined), deadline]);
    }
    if (!this.faultError) this.faultError = new AdapterCrashed('adapter connection closed', null, null);
    killProcessGroup(this.pid, 'SIGKILL');
    await this.exited;
  }
}

/** What is wrong with a response envelope (cheap structural check on the hot path), or undefined. */
function envelopeProblem(msg: unknown): string | undefined {
  if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) return 'not a JSON object';
  const m = msg as Record<string, unknown>;
  if (m.jsonrpc !== '2.0') return 'jsonrpc is not "2.0"';
  if (!('id' in m)) return 'no id';
  const id = m.id;
  if (!(id === null || typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id))))
    return 'id is not an integer, string or null';
  const hasResult = 'result' in m;
  const hasError = 'error' in m;
  if (hasResult === hasError) return 'needs exactly one of result and error';
  for (const key of Object.keys(m))
    if (key !== 'jsonrpc' && key !== 'id' && key !== 'result' && key !== 'error') return `unexpected member ${key}`;
  return undefined;
}

/**
 * `--jobs N` on N cores: each worker runs in its own thread (worker_threads), with its own adapter
 * (an in-process instance, or a process it spawns) and its own copy of the case list, so the
 * suite's own work (writing profiles, parsing them back, generating fuzz inputs) and an in-process
 * adapter run in parallel instead of taking turns on one event loop. Each thread runs the engine's
 * one loop over cases (./work-loop.ts); its next case is the one the main thread hands it when it
 * asks, and the main thread records what comes back. The threads rebuild the identical,
 * deterministic case list from the run's config and seed.
 *
 * Used only from the built package (the thread script is dist/runner/engine/thread-entry.js next
 * to this module); a run from sources (tests) or with cases given as code runs its workers on the
 * main thread, as before.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker as Thread } from 'node:worker_threads';
import type { CaseRecord } from '../../results/model.js';
import type { RunConfig } from './config.js';

/** What a thread needs to rebuild its worker and the run's case list: the run's one config, and what the main thread learnt. */
export interface ThreadData {
  index: number;
  config: RunConfig;
  /** The run seed, known once the main thread has shaken hands. */
  seed: number;
  /** The worker's private temporary directory. */
  dir: string;
}

/** Thread → main. */
export type FromThread =
  | { type: 'next' }
  | { type: 'record'; record: CaseRecord }
  | { type: 'spawn'; pid: number }
  | { type: 'closed'; exhausted?: string }
  | { type: 'failed'; message: string };

/** Main → thread. */
export type ToThread = { type: 'init'; data: ThreadData } | { type: 'run'; id: string } | { type: 'done' } | { type: 'abort' };

const ENTRY = fileURLToPath(new URL('./thread-entry.js', import.meta.url));
const YOUNG_MB = 6;
const OLD_MB = 96;

/** True when this module runs from the build, next to its thread script. */
export function threadsAvailable(): boolean {
  return import.meta.url.endsWith('.js') && existsSync(ENTRY);
}

export interface PoolCallbacks {
  onCaseStart(id: string): void;
  onRecord(record: CaseRecord): void;
  onSpawn?(pid: number): void;
}

export interface Pool {
  /** Settles when every thread has closed; the adapter-exhausted reasons, one per thread that had one. */
  done: Promise<string[]>;
  abort(): void;
}

/**
 * Threads started ahead of the run (they load their modules while the main thread shakes hands and
 * builds the case list); `terminate` ends the ones a run does not use.
 */
export interface Threads {
  readonly threads: Thread[];
  /** Threads that have already ended (an import that threw ends one before any run). */
  readonly exited: ReadonlySet<Thread>;
  terminate(): Promise<void>;
}

export function startThreads(count: number): Threads {
  // A small young generation and a bounded old one: a thread's garbage is mostly short-lived
  // case data, and V8's defaults let each thread's heap grow far past its live set before
  // collecting (a --fuzz 5000 run reached 360 MB; bounded, 240 MB with the same verdicts).
  const threads = Array.from(
    { length: count },
    () => new Thread(ENTRY, { resourceLimits: { maxYoungGenerationSizeMb: YOUNG_MB, maxOldGenerationSizeMb: OLD_MB } }),
  );
  // Errors of a thread nobody runs yet are reported when it is run, or not at all if it never is.
  const exited = new Set<Thread>();
  for (const t of threads) {
    t.on('error', () => undefined);
    t.once('exit', () => exited.add(t));
  }
  return {
    threads,
    exited,
    async terminate() {
      await Promise.all(threads.map((t) => t.terminate()));
    },
  };
}

/**
 * Run `ids` on the first `data.length` of `started` threads, one per entry of `data`. A thread that
 * fails outright (a bug, not an adapter fault) rejects `done` with its message.
 */
export function runPool(started: Threads, data: ThreadData[], ids: readonly string[], cb: PoolCallbacks): Pool {
  const queue = [...ids];
  let aborted = false;
  const threads = started.threads.slice(0, data.length);
  const finished = data.map(
    (d, i) =>
      new Promise<string | undefined>((resolve, reject) => {
        const t = threads[i]!;
        let exhausted: string | undefined;
        let failure: string | undefined;
        // The thread asks for its next case when it is free: hand out the next ID, or none.
        const next = (): void => {
          const id = aborted ? undefined : queue.shift();
          if (id === undefined) t.postMessage({ type: 'done' } satisfies ToThread);
          else {
            cb.onCaseStart(id);
            t.postMessage({ type: 'run', id } satisfies ToThread);
          }
        };
        t.on('message', (m: FromThread) => {
          if (m.type === 'next') next();
          else if (m.type === 'record') cb.onRecord(m.record);
          else if (m.type === 'spawn') cb.onSpawn?.(m.pid);
          else if (m.type === 'closed') exhausted = m.exhausted;
          else if (m.type === 'failed') failure = m.message;
        });
        t.on('error', (err) => (failure ??= err.message));
        t.on('exit', () => (failure ? reject(new Error(`worker thread ${d.index}: ${failure}`)) : resolve(exhausted)));
        if (started.exited.has(t)) reject(new Error(`worker thread ${d.index} ended before the run started`));
        else t.postMessage({ type: 'init', data: d } satisfies ToThread);
      }),
  );
  return {
    done: Promise.all(finished).then((reasons) => reasons.filter((r): r is string => r !== undefined)),
    abort() {
      aborted = true;
      for (const t of threads) t.postMessage({ type: 'abort' } satisfies ToThread);
    },
  };
}

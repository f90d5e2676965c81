import type { CaseRecord } from '../../results/model.js';
import type { CaseDef } from '../../suites/kit/types.js';
import { HandshakeError } from './handshake.js';
import type { Worker } from './worker.js';

/** Where a worker's cases come from and where its records go. */
export interface LoopPorts {
  /** The next case to run; undefined when there is none left or the run was interrupted. */
  next(): CaseDef | undefined | Promise<CaseDef | undefined>;
  caseStart?(def: CaseDef): void;
  record(record: CaseRecord): void;
}

/**
 * The one loop over cases every worker runs: on the main thread (`--jobs 1`, or several workers
 * sharing its event loop when the run is not threaded) and in each worker thread
 * (./thread-entry.ts, whose `next` asks the main thread). A worker takes the next case when it is
 * free, so a slow case never holds others back. An interrupted case is not recorded.
 */
export async function workLoop(worker: Worker, ports: LoopPorts): Promise<void> {
  for (;;) {
    // An in-process adapter can answer a whole run in promise continuations alone, never returning
    // to the event loop, where SIGINT/SIGTERM (and a thread's abort message) are delivered: let
    // them in between cases.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const def = await ports.next();
    if (!def) return;
    ports.caseStart?.(def);
    const record = await worker.run(def);
    if (!record) return;
    ports.record(record);
  }
}

/**
 * Start a worker's adapter for the loop. A worker other than the probe whose adapter does not start
 * is not the run's failure: the worker replays the start per case, within its restart budget, and
 * records why its cases could not run.
 */
export async function startForLoop(worker: Worker): Promise<void> {
  await worker.start().catch((err: unknown) => {
    if (!(err instanceof HandshakeError)) throw err;
  });
}

/**
 * One worker of a threaded run (see ./thread-pool.ts): once told the run's config and seed, it
 * rebuilds the run's case list, starts its adapter and runs the engine's one loop over cases
 * (./work-loop.ts), asking the main thread for each next case and answering with its record.
 */
import { parentPort } from 'node:worker_threads';
import type { CaseDef } from '../../suites/kit/types.js';
import { replayOf, runCases } from './cases.js';
import { resolveAdapter } from './adapter-spec.js';
import { ProtocolChecker } from './protocol-check.js';
import type { FromThread, ThreadData, ToThread } from './thread-pool.js';
import { startForLoop, workLoop } from './work-loop.js';
import { Worker } from './worker.js';
import { runAccommodations } from './config.js';

const port = parentPort!;
const post = (m: FromThread): void => port.postMessage(m);

async function main({ index, config, seed, dir }: ThreadData): Promise<void> {
  // Listen before anything is awaited, so an early abort is not lost.
  let worker: Worker | undefined;
  let aborted = false;
  // The main thread's answer to this thread's last 'next'.
  let answer: ((id: string | undefined) => void) | undefined;
  port.on('message', (m: ToThread) => {
    if (m.type === 'abort') {
      aborted = true;
      void worker?.abort();
    } else if (m.type === 'run' || m.type === 'done') {
      const settle = answer;
      answer = undefined;
      settle?.(m.type === 'run' ? m.id : undefined);
    }
  });
  const upstream = config.fixtures ? replayOf(config.fixtures) : undefined;
  const cases = new Map<string, CaseDef>(runCases(config, seed, upstream).map((c) => [c.id, c]));
  const adapter = await resolveAdapter(config.adapter, { forceProcess: config.process });
  const own = new Worker({
    index,
    adapter,
    config,
    runSeed: () => seed,
    accommodations: () => runAccommodations(config),
    dir,
    checker: config.checkProtocol ? new ProtocolChecker() : undefined,
    onSpawn: (pid) => post({ type: 'spawn', pid }),
  });
  worker = own;
  if (aborted) void own.abort();
  await startForLoop(own);
  await workLoop(own, {
    next: async () => {
      const id = await new Promise<string | undefined>((resolve) => {
        answer = resolve;
        post({ type: 'next' });
      });
      if (id === undefined) return undefined;
      const def = cases.get(id);
      if (!def) throw new Error(`no case ${id} in this thread's case list`);
      return def;
    },
    record: (record) => post({ type: 'record', record }),
  });
  await own.close();
  post({ type: 'closed', ...(own.exhaustedReason ? { exhausted: own.exhaustedReason } : {}) });
  port.close();
}

// The thread starts (and loads its modules) while the main thread shakes hands; the run's
// config and seed follow in one 'init' message.
port.once('message', (m: ToThread) => {
  if (m.type !== 'init') return;
  main(m.data).catch((err: unknown) => {
    post({ type: 'failed', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
    port.close();
  });
});

/**
 * One worker of a threaded run (see ./thread-pool.ts): once told the run's parameters, rebuilds
 * the run's case list, starts its adapter, then runs the case IDs the main thread sends, one at a time, answering each with its
 * record.
 */
import { parentPort } from 'node:worker_threads';
import type { CaseDef } from '../../suites/kit/types.js';
import { runCases } from './cases.js';
import { loadUpstream, type UpstreamReplay } from '../../suites/upstream/index.js';
import { resolveAdapter } from './adapter-spec.js';
import { HandshakeError } from './handshake.js';
import { ProtocolChecker } from './protocol-check.js';
import type { FromThread, ThreadData, ToThread } from './thread-pool.js';
import { Worker } from './worker.js';

const port = parentPort!;
const post = (m: FromThread): void => port.postMessage(m);

/**
 * The upstream replay the main thread read and checked, read again here (its cases hold
 * functions, which cannot cross to a thread); a tree that changed in between is refused.
 */
function replayOf(tree: { root: string; digest: string }): UpstreamReplay {
  const replay = loadUpstream(tree.root);
  if (replay.digest !== tree.digest) throw new Error(`the fixture tree ${tree.root} changed after the run started`);
  return replay;
}

async function main(data: ThreadData): Promise<void> {
  const cases = new Map<string, CaseDef>(
    runCases({
      seed: data.seed,
      fuzz: data.fuzz,
      findingsDir: data.findingsDir,
      handshake: data.handshake,
      ...(data.upstream ? { upstream: replayOf(data.upstream) } : {}),
    }).map((c) => [c.id, c]),
  );
  const adapter = await resolveAdapter(data.adapter, { forceProcess: data.forceProcess });
  const worker = new Worker({
    index: data.index,
    adapter,
    timeoutMs: data.timeoutMs,
    runSeed: () => data.seed,
    dir: data.dir,
    keepWorkspaces: data.keepWorkspaces,
    ...(data.workspaceParent ? { workspaceParent: data.workspaceParent } : {}),
    ...(data.maxRestarts !== undefined ? { maxRestarts: data.maxRestarts } : {}),
    ...(data.checkProtocol ? { checker: new ProtocolChecker() } : {}),
    ...(data.extraEnv ? { extraEnv: data.extraEnv } : {}),
    onSpawn: (pid) => post({ type: 'spawn', pid }),
  });
  // An adapter that cannot start here is replayed per case, within the restart budget.
  await worker.start().catch((err: unknown) => {
    if (!(err instanceof HandshakeError)) throw err;
  });
  let queue = Promise.resolve();
  port.on('message', (m: ToThread) => {
    if (m.type === 'init') return;
    if (m.type === 'abort') {
      void worker.abort();
      return;
    }
    queue = queue.then(async () => {
      if (m.type === 'done') {
        await worker.close();
        post({ type: 'closed', ...(worker.exhaustedReason ? { exhausted: worker.exhaustedReason } : {}) });
        port.close();
        return;
      }
      const def = cases.get(m.id);
      if (!def) throw new Error(`no case ${m.id} in this thread's case list`);
      // Let an abort in before each case, as the single-threaded loop does.
      await new Promise<void>((resolve) => setImmediate(resolve));
      const record = await worker.run(def);
      post(record ? { type: 'record', record } : { type: 'interrupted' });
    });
    queue.catch((err: unknown) => {
      post({ type: 'failed', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
      port.close();
    });
  });
  post({ type: 'ready' });
}

// The thread starts (and loads its modules) while the main thread shakes hands; the run's
// parameters follow in one 'init' message.
port.once('message', (m: ToThread) => {
  if (m.type !== 'init') return;
  main(m.data).catch((err: unknown) => {
    post({ type: 'failed', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
    port.close();
  });
});

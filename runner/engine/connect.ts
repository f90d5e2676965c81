import type { HandshakeT } from '../../protocol/messages.js';
import type { AdapterRpc } from '../../suites/kit/types.js';
import type { ResolvedAdapter } from './adapter-spec.js';
import { adapterEnv } from './env.js';
import { HandshakeError, handshake } from './handshake.js';
import { InProcessConnection } from './in-process-connection.js';
import type { ProtocolChecker } from './protocol-check.js';
import { StdioAdapterClient } from './stdio-client.js';
import { createInProcess } from './worker.js';

export interface Connected {
  rpc: AdapterRpc;
  handshake: HandshakeT;
  pid?: number;
  stderrTail(): string;
  close(): Promise<void>;
}

/**
 * One adapter, started and handshaken, outside the worker machinery (smoke, bench). Throws
 * HandshakeError when it cannot be brought up; the process (if any) is killed in that case.
 */
export async function connect(
  adapter: ResolvedAdapter,
  opts: { timeoutMs: number; dir: string; checker?: ProtocolChecker; extraEnv?: Readonly<Record<string, string>> },
): Promise<Connected> {
  if (adapter.mode === 'in-process' && adapter.factory) {
    const conn = new InProcessConnection(await createInProcess(adapter.factory), opts.timeoutMs, opts.checker);
    const hs = await handshake(conn);
    return { rpc: conn, handshake: hs, stderrTail: () => '', close: () => conn.close() };
  }
  // A command that cannot be started is an adapter that cannot be run, as in `run` (exit 3).
  const client = await StdioAdapterClient.start({
    argv: adapter.processArgv ?? [],
    env: adapterEnv(opts.dir, process.env, opts.extraEnv),
    cwd: process.cwd(), // relative paths in the command line are the user's
    timeoutMs: opts.timeoutMs,
    ...(opts.checker ? { checker: opts.checker } : {}),
  }).catch((err: unknown) => {
    throw new HandshakeError('spawn-failed', (err as Error).message);
  });
  try {
    const hs = await handshake(client, () => client.stderr.tail(2048));
    return { rpc: client, handshake: hs, pid: client.pid, stderrTail: () => client.stderr.tail(4096), close: () => client.close() };
  } catch (err) {
    await client.kill().catch(() => {});
    throw err;
  }
}

/**
 * The chaos adapter: a minimal working adapter (the TypeScript example harness) that misbehaves on
 * command, so the engine's fault handling can be tested against a real process. It speaks raw
 * stdio itself (not through serveStdio) because most faults are about the bytes on the wire.
 *
 *   builtin:chaos/<fault>[?n=N&ms=MS&bytes=B&grandchild=1]
 *
 * `n` is the 1-based index of the request (initialize not counted) on which the fault fires, per
 * process: a restarted chaos adapter counts from 1 again. Set OAP_CHAOS_PIDFILE to a file path and
 * the adapter appends its pid (and its grandchild's, with grandchild=1) so tests can check that
 * nothing outlives the runner.
 */
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { once } from 'node:events';
import { RPC_ERROR } from '../../protocol/messages.js';
import { LineSplitter, encodeLine, type LineEvent } from '../../sdk/ts/framing.js';
import { errorFor } from '../../sdk/ts/stdio.js';
import createExampleAdapter from '../examples/ts/example-adapter.js';

export const CHAOS_FAULTS = {
  none: 'behave (the minimal working adapter)',
  'crash-on-start': 'exit with status 3 before reading anything',
  'crash-mid-case': 'exit with status 1 on request n, without answering',
  hang: 'never answer request n',
  'slow-start': 'answer initialize after `ms` milliseconds (default 1000)',
  garbage: 'answer request n with a line that is not JSON',
  'wrong-id': 'answer request n with an id nobody asked for',
  'invalid-utf8': 'answer request n with a line containing bytes that are not UTF-8',
  'huge-line': 'answer request n with a 100 MB line (`bytes` to change the size)',
  'schema-invalid': 'answer request n with a result that does not match the method schema',
  'stderr-flood': 'write `bytes` (default 1 MiB) to stderr before answering every request',
  'early-exit': 'exit with status 0 on request n, without answering',
  'version-mismatch': 'refuse every offered protocol version (UNSUPPORTED_PROTOCOL_VERSION)',
} as const;

export type ChaosFault = keyof typeof CHAOS_FAULTS;

export interface ChaosOptions {
  n: number;
  ms: number;
  bytes: number;
  grandchild: boolean;
}

function isChaosFault(name: string): name is ChaosFault {
  return Object.hasOwn(CHAOS_FAULTS, name);
}

/** Parse `<fault>[?k=v&…]` (the part after `builtin:chaos/`). Throws on unknown faults or options. */
export function parseChaosSpec(rest: string): { fault: ChaosFault; options: ChaosOptions } {
  const [fault = '', query = ''] = rest.split('?', 2);
  if (!isChaosFault(fault)) throw new Error(`unknown chaos fault ${fault}; known: ${Object.keys(CHAOS_FAULTS).join(', ')}`);
  const defaults: ChaosOptions = { n: 1, ms: 1000, bytes: fault === 'huge-line' ? 100 * 1024 * 1024 : 1024 * 1024, grandchild: false };
  for (const [key, value] of new URLSearchParams(query)) {
    if (key === 'grandchild') defaults.grandchild = value === '1' || value === 'true';
    else if (key === 'n' || key === 'ms' || key === 'bytes') {
      const num = Number(value);
      if (!Number.isInteger(num) || num < 0) throw new Error(`chaos option ${key} must be a non-negative integer`);
      defaults[key] = num;
    } else throw new Error(`unknown chaos option ${key}`);
  }
  return { fault, options: defaults };
}

async function writeAll(stream: NodeJS.WritableStream, data: string | Buffer): Promise<void> {
  if (!stream.write(data)) await once(stream, 'drain');
}

/** Run the chaos adapter on this process's stdio until input ends, shutdown, or the fault ends it. */
export async function serveChaos(fault: ChaosFault, opts: ChaosOptions): Promise<void> {
  const pidFile = process.env.OAP_CHAOS_PIDFILE;
  if (pidFile) appendFileSync(pidFile, `${process.pid}\n`);
  if (opts.grandchild) {
    // Same process group as this adapter: only a group kill reaches it.
    const child = spawn('sleep', ['300'], { stdio: 'ignore' });
    if (pidFile && child.pid) appendFileSync(pidFile, `${child.pid}\n`);
  }
  if (fault === 'crash-on-start') {
    process.stderr.write('chaos: crashing on start\n');
    process.exit(3);
  }
  const adapter = createExampleAdapter();
  const out = process.stdout;
  let count = 0;

  const answer = async (id: number | string, method: string, params: unknown): Promise<void> => {
    try {
      const result = await adapter.handle(method, params);
      await writeAll(out, encodeLine({ jsonrpc: '2.0', id, result }));
    } catch (err) {
      await writeAll(out, encodeLine({ jsonrpc: '2.0', id, error: errorFor(err) }));
    }
  };

  const onRequest = async (req: { id: number | string; method: string; params?: unknown }): Promise<void> => {
    if (fault === 'stderr-flood') await writeAll(process.stderr, Buffer.alloc(opts.bytes, 'E'));
    if (req.method === 'initialize') {
      if (fault === 'version-mismatch') {
        await writeAll(
          out,
          encodeLine({
            jsonrpc: '2.0',
            id: req.id,
            error: { code: RPC_ERROR.UNSUPPORTED_PROTOCOL_VERSION, message: 'chaos: only protocol 0.9 is spoken here' },
          }),
        );
        return;
      }
      if (fault === 'slow-start') await new Promise((r) => setTimeout(r, opts.ms));
      await answer(req.id, req.method, req.params);
      return;
    }
    if (req.method === 'shutdown') {
      await writeAll(out, encodeLine({ jsonrpc: '2.0', id: req.id, result: {} }));
      process.exit(0);
    }
    count += 1;
    if (count !== opts.n) {
      await answer(req.id, req.method, req.params);
      return;
    }
    switch (fault) {
      case 'crash-mid-case':
        process.stderr.write(`chaos: crashing during request ${count} (${req.method})\n`);
        process.exit(1);
        break;
      case 'early-exit':
        process.exit(0);
        break;
      case 'hang':
        process.stderr.write(`chaos: hanging on request ${count}\n`);
        return;
      case 'garbage':
        await writeAll(out, 'chaos says: this line is not JSON\n');
        return;
      case 'wrong-id':
        await writeAll(out, encodeLine({ jsonrpc: '2.0', id: typeof req.id === 'number' ? req.id + 1000 : `${req.id}-x`, result: {} }));
        return;
      case 'invalid-utf8':
        await writeAll(
          out,
          Buffer.concat([
            Buffer.from(`{"jsonrpc":"2.0","id":${JSON.stringify(req.id)},"result":{"text":"`),
            Buffer.from([0xff, 0xfe, 0xc3]),
            Buffer.from('"}}\n'),
          ]),
        );
        return;
      case 'schema-invalid':
        await writeAll(out, encodeLine({ jsonrpc: '2.0', id: req.id, result: { chaos: 'this is not the result you are looking for' } }));
        return;
      case 'huge-line': {
        const chunk = Buffer.alloc(1024 * 1024, 'x');
        await writeAll(out, `{"jsonrpc":"2.0","id":${JSON.stringify(req.id)},"result":{"padding":"`);
        for (let sent = 0; sent < opts.bytes; sent += chunk.length) await writeAll(out, chunk);
        await writeAll(out, '"}}\n');
        return;
      }
      default:
        await answer(req.id, req.method, req.params);
    }
  };

  // Requests are handled one after another, in order: the faults are about sequence.
  let queue: Promise<void> = Promise.resolve();
  const onLine = (e: LineEvent): void => {
    if (e.kind !== 'line') return;
    let req: { id: number | string; method: string; params?: unknown };
    try {
      req = JSON.parse(e.text) as typeof req;
    } catch {
      return;
    }
    queue = queue
      .then(() => onRequest(req))
      .catch((err: unknown) => {
        process.stderr.write(`chaos: ${(err as Error).message}\n`);
      });
  };
  const splitter = new LineSplitter(onLine);
  process.stdin.on('data', (chunk: Buffer) => splitter.push(chunk));
  await once(process.stdin, 'end');
  await queue;
}

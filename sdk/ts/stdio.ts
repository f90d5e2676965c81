import type { Readable, Writable } from 'node:stream';
import { RPC_ERROR } from '../../protocol/messages.js';
import { AdapterDecline } from '../../protocol/errors.js';
import { InvalidParams, RpcError, UnknownMethod } from './define.js';
import { DEFAULT_MAX_LINE_BYTES, LineSplitter, encodeLine, type LineEvent } from './framing.js';
import type { InProcessAdapter } from './types.js';

export interface ServeOptions {
  input?: Readable;
  output?: Writable;
  maxLineBytes?: number;
}

type Id = number | string | null;
/**
 * Responses finished in one tick leave in one write, in slices of about this many bytes, so the
 * runner can check the first ones while the rest are still being encoded.
 */
const FLUSH_AT_BYTES = 2048;

interface RpcErrorBody {
  code: number;
  message: string;
  data?: { reason?: string; [k: string]: unknown };
}

/** Map what a handler threw to a JSON-RPC error: declines keep their kind, the rest is internal. */
export function errorFor(err: unknown): RpcErrorBody {
  if (err instanceof AdapterDecline) {
    return err.kind === 'skipped'
      ? { code: RPC_ERROR.SKIPPED, message: 'skipped', data: { reason: err.reason } }
      : { code: RPC_ERROR.NOT_IMPLEMENTED, message: 'not implemented', data: { reason: err.reason } };
  }
  if (err instanceof UnknownMethod) return { code: RPC_ERROR.METHOD_NOT_FOUND, message: err.message };
  if (err instanceof InvalidParams) return { code: RPC_ERROR.INVALID_PARAMS, message: err.message };
  if (err instanceof RpcError) return { code: err.code, message: err.message, ...(err.data !== undefined ? { data: err.data } : {}) };
  const message = err instanceof Error ? err.message : String(err);
  return { code: RPC_ERROR.INTERNAL_ERROR, message: message.split('\n')[0] || 'internal error' };
}

/**
 * Serve an adapter over newline-delimited JSON-RPC: requests on `input` (stdin), responses on
 * `output` (stdout). Requests are handled concurrently and answered as they finish (the runner
 * matches by id). When the output buffer is full, reading pauses until it drains, so a slow runner
 * cannot make the adapter buffer unboundedly. Resolves after `shutdown` was answered or input ended
 * and every in-flight request was answered; the caller then exits.
 */
export function serveStdio(adapter: InProcessAdapter, options: ServeOptions = {}): Promise<void> {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  let inFlight = 0;
  let allSettled: (() => void) | undefined;
  let stopping = false;

  return new Promise<void>((resolveServe) => {
    // Responses finished in the same tick leave together (one syscall per FLUSH_AT_BYTES slice)
    // instead of one write each.
    let outgoing = '';
    const flush = (): void => {
      if (outgoing === '') return;
      const data = outgoing;
      outgoing = '';
      if (!output.write(data) && !input.isPaused()) {
        input.pause();
        output.once('drain', () => {
          if (!stopping) input.resume();
        });
      }
    };
    const write = (message: unknown): void => {
      const line = encodeLine(message); // may throw (a result that is not JSON): nothing queued then
      if (outgoing === '') process.nextTick(flush);
      outgoing += line;
      if (outgoing.length >= FLUSH_AT_BYTES) flush();
    };

    const finish = async (): Promise<void> => {
      if (stopping) return;
      stopping = true;
      input.off('data', onData);
      input.pause();
      if (inFlight > 0) await new Promise<void>((r) => (allSettled = r));
      await adapter.dispose?.();
      // Flush responses still queued for this tick (the shutdown answer among them), then
      // resolve only once everything written has been handed to the OS: the caller may exit next.
      flush();
      if (output.writableNeedDrain) await new Promise((r) => output.once('drain', r));
      resolveServe();
    };

    const settled = (): void => {
      if (--inFlight === 0 && allSettled) {
        const r = allSettled;
        allSettled = undefined;
        r();
      }
    };

    const answer = (id: Id, result: unknown): void => {
      try {
        write({ jsonrpc: '2.0', id, result: result ?? null });
      } catch (err) {
        write({ jsonrpc: '2.0', id, error: errorFor(err) });
      }
    };

    const dispatch = (id: Id, method: string, params: unknown): void => {
      let task: Promise<unknown>;
      try {
        task = Promise.resolve(adapter.handle(method, params));
      } catch (err) {
        task = Promise.reject(err);
      }
      inFlight++;
      const done = task.then(
        (result) => {
          try {
            answer(id, result);
          } finally {
            settled();
          }
        },
        (err: unknown) => {
          try {
            write({ jsonrpc: '2.0', id, error: errorFor(err) });
          } finally {
            settled();
          }
        },
      );
      if (method === 'shutdown') void done.then(finish, finish);
    };

    const onLine = (event: LineEvent): void => {
      if (stopping) return;
      if (event.kind !== 'line') {
        const message = event.kind === 'overflow' ? `request line longer than ${event.limit} bytes` : 'request is not valid UTF-8';
        write({ jsonrpc: '2.0', id: null, error: { code: RPC_ERROR.PARSE_ERROR, message } });
        return;
      }
      let msg: unknown;
      try {
        msg = JSON.parse(event.text);
      } catch {
        write({ jsonrpc: '2.0', id: null, error: { code: RPC_ERROR.PARSE_ERROR, message: 'request is not JSON' } });
        return;
      }
      const req = msg as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };
      const id = typeof req?.id === 'number' || typeof req?.id === 'string' ? req.id : null;
      if (typeof msg !== 'object' || msg === null || req.jsonrpc !== '2.0' || typeof req.method !== 'string' || id === null) {
        write({ jsonrpc: '2.0', id, error: { code: RPC_ERROR.INVALID_REQUEST, message: 'not a JSON-RPC 2.0 request with an id' } });
        return;
      }
      dispatch(id, req.method, req.params);
    };

    const splitter = new LineSplitter(onLine, options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES);
    const onData = (chunk: Buffer | string): void => splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    input.on('data', onData);
    input.once('end', () => void finish());
    input.once('error', () => void finish());
  });
}

import type { MethodName, Params, Result } from '../../protocol/messages.js';
import type { InProcessAdapter } from '../../sdk/ts/types.js';
import { AdapterProtocolError, AdapterTimeout } from '../../protocol/errors.js';
import { InProcessRpc } from './in-process-rpc.js';
import type { AdapterRpc } from '../../suites/kit/types.js';
import type { ProtocolChecker } from './protocol-check.js';

/**
 * An in-process adapter behind the same contract as a process: per-request timeout, an exception
 * from the adapter is an adapter error (`rpc.INTERNAL_ERROR`, as serveStdio would answer), not a
 * suite bug, and `--check-protocol` validates requests and results against the JSON Schemas.
 * A timeout poisons the instance (it may still be running the hung call); the worker replaces it.
 */
export class InProcessConnection implements AdapterRpc {
  private readonly rpc: InProcessRpc;
  private faultError: Error | undefined;

  constructor(
    private readonly adapter: InProcessAdapter,
    private readonly timeoutMs: number,
    private readonly checker?: ProtocolChecker,
  ) {
    // InProcessRpc already turns an exception inside the adapter into rpc.INTERNAL_ERROR.
    this.rpc = new InProcessRpc(adapter);
  }

  get fault(): Error | undefined {
    return this.faultError;
  }

  async call<M extends MethodName>(method: M, params: Params<M>): Promise<Result<M>> {
    if (this.faultError) throw this.faultError;
    if (this.checker) {
      const problem = this.checker.request({ jsonrpc: '2.0', id: 1, method, params });
      if (problem) throw new Error(`runner request does not match the protocol schema: ${problem}`);
    }
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const err = new AdapterTimeout(method, this.timeoutMs);
        this.faultError = err;
        reject(err);
      }, this.timeoutMs);
    });
    try {
      const result = await Promise.race([this.rpc.call(method, params), timeout]);
      if (this.checker) {
        const problem = this.checker.response(method, { jsonrpc: '2.0', id: 1, result });
        if (problem) throw new AdapterProtocolError('protocol.schema', `${method} response does not match the protocol schema: ${problem}`);
      }
      return result;
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await this.adapter.dispose?.();
  }
}

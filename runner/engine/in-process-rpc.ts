import { methods, type MethodName, type Params, type Result } from '../../protocol/messages.js';
import type { InProcessAdapter } from '../../sdk/ts/types.js';
import {
  AdapterCrashed,
  AdapterDecline,
  AdapterNotImplemented,
  AdapterProtocolError,
  AdapterSkipped,
  AdapterTimeout,
} from '../../protocol/errors.js';
import type { AdapterRpc } from '../../suites/kit/types.js';

/**
 * An AdapterRpc over an in-process adapter: no process, no JSON text, but the same contract as
 * stdio: params are checked before the call (a suite bug otherwise) and results are checked against
 * the protocol schema (an adapter bug otherwise). Results are deep-copied through JSON so that an
 * in-process adapter cannot share mutable objects with the runner or send non-JSON values.
 */
export class InProcessRpc implements AdapterRpc {
  constructor(private readonly adapter: InProcessAdapter) {}

  async call<M extends MethodName>(method: M, params: Params<M>): Promise<Result<M>> {
    const spec = methods[method];
    const p = spec.params.safeParse(params);
    if (!p.success) throw new Error(`suite sent invalid ${method} params: ${p.error.message}`);
    let raw: unknown;
    try {
      raw = await this.adapter.handle(method, JSON.parse(JSON.stringify(p.data)));
    } catch (err) {
      if (err instanceof AdapterDecline) {
        throw err.kind === 'skipped' ? new AdapterSkipped(method, err.reason) : new AdapterNotImplemented(method, err.reason);
      }
      if (err instanceof AdapterProtocolError || err instanceof AdapterTimeout || err instanceof AdapterCrashed) throw err;
      // Over stdio this is a JSON-RPC internal error: the adapter's fault, not the suite's.
      const message = err instanceof Error ? err.message : String(err);
      throw new AdapterProtocolError('rpc.INTERNAL_ERROR', `${method} failed inside the adapter: ${message.split('\n')[0]}`);
    }
    let copy: unknown;
    try {
      copy = JSON.parse(JSON.stringify(raw ?? null));
    } catch (err) {
      throw new AdapterProtocolError('protocol.not-json', `${method} result is not JSON: ${(err as Error).message}`);
    }
    const r = spec.result.safeParse(copy);
    if (!r.success) {
      const first = r.error.issues[0];
      const pointer = first ? `/${first.path.map(String).join('/')}` : '';
      throw new AdapterProtocolError(
        'protocol.invalid-result',
        `${method} result does not match the protocol schema at ${pointer}: ${first?.message ?? ''}`,
        pointer,
      );
    }
    return r.data as Result<M>;
  }
}

import { methods, type AdapterIssueT, type MethodName, type RefusedT } from '../../protocol/messages.js';
import { AdapterDecline } from '../../protocol/errors.js';
import type { AdapterHandlers, InProcessAdapter } from './types.js';

/** Thrown for a method name the protocol does not define (stdio: METHOD_NOT_FOUND). */
export class UnknownMethod extends Error {
  constructor(readonly method: string) {
    super(`unknown method ${method}`);
    this.name = 'UnknownMethod';
  }
}

/** Thrown when the runner's params do not match the protocol schema (stdio: INVALID_PARAMS). */
export class InvalidParams extends Error {
  constructor(
    readonly method: string,
    detail: string,
  ) {
    super(`invalid ${method} params: ${detail}`);
    this.name = 'InvalidParams';
  }
}

/**
 * Throw from a handler to answer with a specific JSON-RPC error over stdio, e.g.
 * `new RpcError(RPC_ERROR.UNSUPPORTED_PROTOCOL_VERSION, 'protocol 1.0 only')` from `initialize`, or
 * RPC_ERROR.UNKNOWN_SESSION for a session id the adapter does not know. (In-process, the runner
 * records any error other than AdapterDecline as an adapter error; the code is kept in the message.)
 */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

/**
 * The answer of a `digest` or `write_back` handler whose harness refuses the document (it cannot
 * read it, or will not write it): `return refused([{ category: 'parse', pointer: '', message }])`.
 * A refusal is a normal result carrying the harness's issues, not an error; the runner judges it
 * (refusing an invalid document is right, refusing a valid one is a finding of the case's ID).
 */
export function refused(errors: AdapterIssueT[], warnings: AdapterIssueT[] = []): RefusedT {
  if (errors.length === 0) throw new Error('refused(): a refusal needs at least one error issue saying why');
  return { status: 'rejected', errors, warnings };
}

export interface DefineOptions {
  /** Called when the runner is done with this instance (after shutdown or end of input). */
  dispose?: () => Promise<void> | void;
}

export function isMethodName(name: string): name is MethodName {
  return Object.hasOwn(methods, name);
}

/**
 * Build an adapter from handlers. Params are parsed with the protocol schema first, so handlers
 * see defaults filled in (e.g. `policy.permissions.rules` = []) and never see malformed input.
 * A method without a handler declines as not implemented; that is a skip, never a pass.
 */
export function defineAdapter(handlers: AdapterHandlers, options: DefineOptions = {}): InProcessAdapter {
  return {
    // Not `async`: on the hot path a plain function returning the handler's promise (or a resolved
    // one) saves an async frame and a microtask per request; every throw still becomes a rejection.
    handle(method: string, params: unknown): Promise<unknown> {
      try {
        if (!isMethodName(method)) throw new UnknownMethod(method);
        const handler = handlers[method] as ((p: unknown) => unknown) | undefined;
        if (!handler) {
          // shutdown needs no handler: answering it is the whole contract.
          if (method === 'shutdown') return Promise.resolve({});
          throw new AdapterDecline('not-implemented', `${method} is not implemented by this adapter`);
        }
        const parsed = methods[method].params.safeParse(params ?? {});
        if (!parsed.success) {
          const first = parsed.error.issues[0];
          throw new InvalidParams(method, `${first ? `/${first.path.map(String).join('/')}` : ''} ${first?.message ?? ''}`.trim());
        }
        return Promise.resolve(handler(parsed.data));
      } catch (err) {
        return Promise.reject(err);
      }
    },
    ...(options.dispose ? { dispose: options.dispose } : {}),
  };
}

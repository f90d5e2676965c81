import type { MethodName, Params, Result } from '../../protocol/messages.js';

/**
 * An adapter as a set of method handlers. The same object serves in-process (the runner calls
 * `handle` directly, no process) and over stdio (`serveStdio` in ./stdio.ts). A handler declines an
 * operation by throwing AdapterDecline('not-implemented' | 'skipped', reason) from
 * suites/kit/errors.ts (re-exported by this SDK); a missing handler means not implemented.
 */
export type AdapterHandlers = {
  [M in MethodName]?: (params: Params<M>) => Promise<Result<M>> | Result<M>;
};

export interface InProcessAdapter {
  handle(method: string, params: unknown): Promise<unknown>;
  /** Called when the runner is done with this adapter instance. */
  dispose?(): Promise<void> | void;
}

/** A module adapter (`--adapter ./my-adapter.js`) default-exports a factory of fresh instances. */
export type AdapterFactory = () => InProcessAdapter | Promise<InProcessAdapter>;

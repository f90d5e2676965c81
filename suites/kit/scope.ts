/**
 * The case scope: what the shared helpers need to know about the case that calls them without
 * every call passing it along. The case runner opens it around a case's body (and its probes);
 * outside a case there is none. It holds two things, read in two places each:
 *   - the case's requirement IDs, for the one rule that judges a refused input
 *     (suites/support/refusal.ts: the case's own requirement fails, any other is a cause);
 *   - the accommodations the case takes (./forms.ts: the document writer, the working encoding and
 *     the `apply_delta` boundary), and where to record that one changed an input.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Accommodation } from './accommodations.js';

export interface CaseScope {
  /** The IDs the case proves (`CaseDef.requirements`). */
  readonly requirements: readonly string[];
  readonly accommodations: readonly Accommodation[];
  /** Called each time an accommodation changed an input of the case. */
  readonly used: (a: Accommodation) => void;
  /** Records an input as it was sent after an accommodation changed it (the case's `ctx.input`). */
  readonly input: (name: string, value: unknown) => void;
}

const storage = new AsyncLocalStorage<CaseScope>();

/** Run a case's body in its scope (the case runner does this, nothing else). */
export function withCaseScope<T>(scope: CaseScope, body: () => T): T {
  return storage.run(scope, body);
}

/** The scope of the case running now, if any. */
export function caseScope(): CaseScope | undefined {
  return storage.getStore();
}

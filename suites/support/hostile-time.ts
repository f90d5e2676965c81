/**
 * Hostile documents and time (ADV-hostile-parse-time; security.md 1 "an attacker can author a
 * profile that a user will load"): a harness must answer a hostile document, accepting or
 * refusing it, within the per-request timeout. How long an answer may take is judged here, once,
 * for the fixture case and the fuzz property alike; whether the answer is right is another
 * requirement's question (L1-P2 for a document that must be refused).
 */
import type { Result } from '../../protocol/messages.js';
import { AdapterTimeout } from '../../protocol/errors.js';
import type { CaseContext, Encoding } from '../kit/types.js';

/**
 * The longest a hostile document may take to be answered, below the runner's default per-request
 * timeout (10 s) so that an in-process run, which has no such timeout, is bounded the same way.
 */
export const HOSTILE_TIME_BUDGET_MS = 5000;

interface TimedAnswer {
  /** The adapter's answer; absent when the request timed out. */
  answer?: Result<'validate'>;
  /** The runner's per-request timeout fired (the connection is then unusable for the rest of the case). */
  timedOut: boolean;
  elapsedMs: number;
}

/** `validate` a document, timing the answer. Only a timeout is caught; every other adapter outcome propagates. */
export async function timedValidate(ctx: CaseContext, content: string, encoding: Encoding): Promise<TimedAnswer> {
  const started = performance.now();
  try {
    const answer = await ctx.adapter.call('validate', { document: { content, encoding } });
    return { answer, timedOut: false, elapsedMs: performance.now() - started };
  } catch (err) {
    if (err instanceof AdapterTimeout) return { timedOut: true, elapsedMs: performance.now() - started };
    throw err;
  }
}

/** Was the answer too late (the runner's timeout, or the budget)? */
export function tooLate(t: TimedAnswer): boolean {
  return t.timedOut || t.elapsedMs > HOSTILE_TIME_BUDGET_MS;
}

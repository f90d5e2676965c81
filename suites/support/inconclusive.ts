/**
 * A case that could not reach its own observation ends inconclusive, never passed and never failed
 * under the wrong ID: its control or subject profile was refused, a valid control delta did not
 * apply, discovery did not find what it needs, nothing was narrowed so the check had nothing to
 * look at. The root cause names the adapter's own issues, so the defect to fix first is visible.
 * A cause that is a refusal (./refusal.ts `rejectionCause`, `deltaRefusalCause`) goes through the
 * one refusal rule, which also names the ID that judges it, and fails the case when that ID is its own.
 */
import { CaseInconclusive } from '../kit/errors.js';
import { judgeRefusal, type RefusalCause } from './refusal.js';

/** `causeId`: the ID whose case judges the cause, when the case knows it (a refusal cause names its own). */
export function inconclusive(reason: string, rootCause?: string | RefusalCause, causeId?: string): never {
  if (typeof rootCause === 'object') judgeRefusal({ reason, cause: rootCause, role: 'control' });
  throw new CaseInconclusive(reason, rootCause, causeId);
}

export function requireObservable(condition: boolean, reason: string, rootCause?: string | RefusalCause): asserts condition {
  if (!condition) inconclusive(reason, rootCause);
}

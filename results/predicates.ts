import { isAdvisoryId } from '../spec/requirements.js';
import { CASE_STATUSES, type CaseStatus } from './record.js';
import type { CaseRecord } from './model.js';

/**
 * The questions every consumer of records asks, each answered once. Adding a status takes one edit
 * here and the compiler finds every `switch` that must learn it.
 */

/** Anything but a pass or a confirmed not-applicable: what a baseline, a diff and a summary count. */
export function isNotPassing(c: Pick<CaseRecord, 'status'>): boolean {
  return c.status !== 'pass' && c.status !== 'not-applicable';
}

/** Does the case observe advisories alone (spec MUSTs without a requirement ID)? Such a case never gates. */
export function isAdvisoryCase(c: Pick<CaseRecord, 'requirements'>): boolean {
  return c.requirements.length > 0 && c.requirements.every(isAdvisoryId);
}

/** Did the adapter, rather than our check, keep this case from judging (crash, protocol, hang)? */
export function isAdapterFault(c: CaseRecord): boolean {
  return c.status === 'timeout' || (c.status === 'error' && c.fault === 'adapter');
}

/** Is this a bug in our own check? It never counts for or against the adapter. */
export function isSuiteFault(c: CaseRecord): boolean {
  return c.status === 'error' && c.fault === 'suite';
}

/** The one-line message of a non-passing record; undefined for a pass. */
export function messageOf(c: Pick<CaseRecord, 'status'> & { message?: string }): string | undefined {
  return c.status === 'pass' ? undefined : c.message;
}

/** Footer counts: one per status, and the total. */
export function countStatuses(records: readonly Pick<CaseRecord, 'status'>[]): Record<CaseStatus, number> & { total: number } {
  const counts = Object.fromEntries(CASE_STATUSES.map((s) => [s, 0])) as Record<CaseStatus, number>;
  for (const r of records) counts[r.status]++;
  return { ...counts, total: records.length };
}

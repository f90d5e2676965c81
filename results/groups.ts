import { contractPathOf } from '../spec/semantics/index.js';
import type { CaseRecord } from './model.js';
import { isAdapterFault, isNotPassing, isSuiteFault } from './predicates.js';

/**
 * Failures grouped the way vitest groups identical errors: one group per (requirement IDs, status,
 * the contract dimension the first difference is in, or the message when it is in none), with every
 * case that hit it, so one root cause reads as one problem. A pointer into the evidence rather than
 * the contract (a meta key such as `/within`) groups nothing: unrelated defects would share it. Groups fall into classes, each with its own heading:
 * check failures, adapter faults (crash, protocol, timeout), cases that could not judge (skipped,
 * inconclusive), and faults in oap-conform's own checks.
 */
export type FailureClass = 'check' | 'adapter' | 'not-judged' | 'suite';

export const FAILURE_CLASSES: readonly { class: FailureClass; heading: string }[] = [
  { class: 'check', heading: 'Check failures' },
  { class: 'adapter', heading: 'Adapter faults (crash, protocol error, timeout)' },
  { class: 'not-judged', heading: 'Not judged (declined by the adapter, or inconclusive)' },
  { class: 'suite', heading: "Faults in oap-conform's own checks (never held against the adapter; please report)" },
];

export interface FailureGroup {
  class: FailureClass;
  status: CaseRecord['status'];
  requirements: string[];
  /** The contract dimension of the failures' first difference (`/tools`, `/permissions/shell`), when it is in one. */
  pointer?: string;
  /** The first case of the group: its message, differences and inputs stand for the group. */
  first: CaseRecord;
  cases: CaseRecord[];
}

function failureClass(c: CaseRecord): FailureClass {
  if (c.status === 'fail') return 'check';
  if (isSuiteFault(c)) return 'suite';
  if (isAdapterFault(c)) return 'adapter';
  return 'not-judged';
}

/** The contract dimension of a failing record's first difference. */
function firstPointer(c: CaseRecord): string | undefined {
  const pointer = c.status === 'fail' ? c.differences?.[0]?.pointer : undefined;
  return pointer === undefined ? undefined : contractPathOf(pointer);
}

/** Groups of the non-passing records, check failures first, then by size, each in record order. */
export function groupFailures(records: readonly CaseRecord[]): FailureGroup[] {
  const groups = new Map<string, FailureGroup>();
  for (const c of records) {
    if (!isNotPassing(c)) continue;
    const pointer = firstPointer(c);
    const message = c.status === 'pass' ? '' : c.message;
    const key = JSON.stringify([c.requirements, c.status, pointer ?? null, pointer === undefined ? normalizeMessage(message) : null]);
    const g = groups.get(key);
    if (g) g.cases.push(c);
    else
      groups.set(key, {
        class: failureClass(c),
        status: c.status,
        requirements: c.requirements,
        ...(pointer !== undefined ? { pointer } : {}),
        first: c,
        cases: [c],
      });
  }
  const order = (k: FailureClass) => FAILURE_CLASSES.findIndex((x) => x.class === k);
  return [...groups.values()].sort((a, b) => order(a.class) - order(b.class) || b.cases.length - a.cases.length);
}

/** Messages that differ only in a case's own names and numbers are one problem. */
function normalizeMessage(m: string): string {
  return m.replace(/\d+(\.\d+)?/g, 'N').replace(/\/[^\s,;:)]+/g, '/…');
}

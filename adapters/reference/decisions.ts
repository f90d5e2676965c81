/** The orderings narrowing is computed on (SPEC §3.5, §3.7): the effective value is always the minimum. */
import type { DecisionT } from '../protocol/messages.js';

export type Decision = DecisionT;
export type MemoryMode = 'off' | 'read_only' | 'read_write';

const DECISION_RANK: Record<Decision, number> = { deny: 0, ask: 1, allow: 2 };
const MODE_RANK: Record<MemoryMode, number> = { off: 0, read_only: 1, read_write: 2 };

export function minDecision(...ds: Decision[]): Decision {
  return ds.reduce((a, b) => (DECISION_RANK[b] < DECISION_RANK[a] ? b : a));
}

export function decisionExceeds(a: Decision, b: Decision): boolean {
  return DECISION_RANK[a] > DECISION_RANK[b];
}

export function minMode(...ms: MemoryMode[]): MemoryMode {
  return ms.reduce((a, b) => (MODE_RANK[b] < MODE_RANK[a] ? b : a));
}

export function modeExceeds(a: MemoryMode, b: MemoryMode): boolean {
  return MODE_RANK[a] > MODE_RANK[b];
}

/** Smallest defined number; null when neither side bounds it (null = unbounded). */
export function minBound(a: number | null | undefined, b: number | null | undefined): number | null {
  if (a === undefined || a === null) return b ?? null;
  if (b === undefined || b === null) return a;
  return Math.min(a, b);
}

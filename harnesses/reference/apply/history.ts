/**
 * History (SPEC §3.10, L2-A11): append-only, newest last, trimmed oldest-first to
 * `lifecycle.retention.max_history` (schema default 50; the keptHistory rule). Written by the
 * applicator only.
 */
import type { JsonObject } from '../json.js';

export interface HistoryEntry {
  revision: number;
  at: string;
  by: string;
  session_id?: string;
  harness?: string;
  change?: string;
  approved_by?: string;
  sections: Array<'metadata' | 'spec' | 'state'>;
}

export function appendHistory(doc: JsonObject, entry: HistoryEntry, kept: (history: unknown[]) => unknown[]): void {
  const history = Array.isArray(doc['history']) ? [...(doc['history'] as unknown[])] : [];
  history.push(withoutUndefined(entry));
  doc['history'] = kept(history);
}

function withoutUndefined(e: HistoryEntry): JsonObject {
  return Object.fromEntries(Object.entries(e).filter(([, v]) => v !== undefined));
}

import { historyOrderBreaks, historyRevision } from '../semantics/retention.js';
import { issue, type OapIssue } from './issue.js';
import { isPlainObject } from './json-data.js';

/**
 * `history` is the log of persisted revisions, newest last, and `metadata.revision` counts those
 * writes. The schema says so only in prose, so these are rules beyond it:
 *
 * - the schema: `history` is a "Bounded, append-only revision log. Newest last."; SPEC §3.10 "An
 *   append-only, bounded log of persisted revisions [...] Trimmed [...] oldest first". SPEC §2.4:
 *   `metadata.revision` "starts at 1 and increments by exactly 1 on every persisted write". Each
 *   entry logs one persisted revision and later writes have higher revisions, so every entry's
 *   revision is greater than the one before it (`other.history-order`; the order is the spec
 *   model's, spec/semantics/retention.ts `historyOrderBreaks`);
 * - a logged revision was persisted, and the counter only grows, so no entry's revision is above
 *   the profile's own `metadata.revision`, which "Defaults to 1" (SPEC §3.1) (`other.history-ahead`).
 *
 * Timestamps (`at`) are not compared: clocks differ between the machines that wrote the entries.
 * Tolerates any shape; a non-integer revision or a non-array history is the schema's to report.
 */
export function checkHistory(doc: unknown): OapIssue[] {
  if (!isPlainObject(doc) || !Array.isArray(doc['history'])) return [];
  const meta = doc['metadata'];
  const declared = isPlainObject(meta) ? meta['revision'] : undefined;
  const current = declared === undefined ? 1 : Number.isInteger(declared) ? (declared as number) : undefined;
  const issues: OapIssue[] = [];
  const breaks = new Map(historyOrderBreaks(doc['history']).map((b) => [b.index, b]));
  doc['history'].forEach((entry, i) => {
    const r = historyRevision(entry);
    if (r === undefined) return;
    const pointer = `/history/${i}/revision`;
    const out = breaks.get(i);
    if (out)
      issues.push(
        issue(
          'other.history-order',
          pointer,
          `history entry ${i} logs revision ${r} after revision ${out.previous}; history is newest last`,
        ),
      );
    if (current !== undefined && r > current)
      issues.push(issue('other.history-ahead', pointer, `history entry ${i} logs revision ${r}, above the profile's revision ${current}`));
  });
  return issues;
}

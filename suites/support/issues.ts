import type { AdapterIssueT } from '../../protocol/messages.js';

/** Adapter issues as they go into a report note: category and pointer, never message text. */
export function briefIssues(issues: readonly AdapterIssueT[]): Array<{ category: string; pointer: string }> {
  return issues.map((i) => ({ category: i.category, pointer: i.pointer }));
}

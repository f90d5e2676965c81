import { ISSUE_CATEGORIES, type IssueCategory } from '../../protocol/vocabulary.js';

/**
 * One problem found in a document. Every problem the oracle reports carries a stable `code`
 * and an RFC 6901 JSON Pointer into the logical document; `line`/`column` (1-based) are added
 * where the source encoding has them. Messages are for humans and are never compared.
 *
 * A code is `<category>` or `<category>.<detail>`. The category vocabulary is shared with the
 * adapter protocol (adapters report a category, never our detail codes), so checks compare
 * categories and pointers, not text.
 */

export interface OapIssue {
  /** Stable machine code: `<category>` or `<category>.<detail>`, e.g. `schema.required`. */
  code: string;
  /** RFC 6901 JSON Pointer into the logical document; `""` is the whole document. */
  pointer: string;
  message: string;
  severity: 'error' | 'warning';
  line?: number;
  column?: number;
}

export function categoryOf(code: string): IssueCategory {
  const head = code.split('.')[0] as IssueCategory;
  return (ISSUE_CATEGORIES as readonly string[]).includes(head) ? head : 'other';
}

export function issue(code: string, pointer: string, message: string, extra: Partial<OapIssue> = {}): OapIssue {
  return { code, pointer, message, severity: 'error', ...extra };
}

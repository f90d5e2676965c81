import type { AdapterIssueT } from '../../protocol/messages.js';
import type { IssueCategory } from '../../protocol/vocabulary.js';
import { categoryOf, type OapIssue } from '../../spec/document/issue.js';

/** Collected problems of one operation, split by severity the way every protocol result reports them. */
export interface IssueList {
  errors: AdapterIssueT[];
  warnings: AdapterIssueT[];
}

export function adapterIssue(category: IssueCategory, pointer: string, message: string, path?: string): AdapterIssueT {
  return { category, code: category, pointer, message, ...(path !== undefined ? { path } : {}) };
}

/** The document layer's issue in protocol form: category from the shared vocabulary, detail code kept as the native code. */
export function fromOapIssue(i: OapIssue, path?: string): AdapterIssueT {
  return { category: categoryOf(i.code), code: i.code, pointer: i.pointer, message: i.message, ...(path !== undefined ? { path } : {}) };
}

/**
 * A failure that aborts an operation with protocol-level issues (the caller turns it into a
 * `rejected` outcome). Used where unwinding through several layers by return values would bury
 * the actual logic.
 */
export class Rejection extends Error {
  constructor(
    readonly errors: AdapterIssueT[],
    readonly warnings: AdapterIssueT[] = [],
  ) {
    super(errors.map((e) => `${e.category} at ${e.pointer || '(document)'}: ${e.message}`).join('; '));
    this.name = 'Rejection';
  }
}

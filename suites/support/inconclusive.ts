/**
 * A case that could not reach its own observation ends inconclusive, never passed and never failed
 * under the wrong ID: its control or subject profile was refused, a valid control delta did not
 * apply, discovery did not find what it needs, nothing was narrowed so the check had nothing to
 * look at. The root cause names the adapter's own issues, so the defect to fix first is visible.
 */
import type { AdapterIssueT } from '../../protocol/messages.js';
import { CaseInconclusive } from '../kit/errors.js';

export function inconclusive(reason: string, rootCause?: string): never {
  throw new CaseInconclusive(reason, rootCause);
}

export function requireObservable(condition: boolean, reason: string, rootCause?: string): asserts condition {
  if (!condition) inconclusive(reason, rootCause);
}

/** How much of the harness's own message a cause quotes. */
const MESSAGE_CHARS = 120;

/**
 * A one-line root cause from an adapter's issues, each with the harness's own message, which says
 * in its author's words what it objected to: `<what>: schema at /metadata/revision ("metadata.revision
 * is required here"); ...`.
 */
export function issuesCause(what: string, issues: readonly AdapterIssueT[]): string {
  const said = (m: string): string => {
    const line = m.replace(/\s+/g, ' ').trim();
    return line ? ` (${JSON.stringify(line.length > MESSAGE_CHARS ? `${line.slice(0, MESSAGE_CHARS - 1)}…` : line)})` : '';
  };
  const shown = issues.slice(0, 3).map((i) => `${i.category} at ${i.pointer || '/'}${said(i.message)}`);
  const more = issues.length > 3 ? ` (+${issues.length - 3} more)` : '';
  return `${what}: ${shown.join('; ') || 'no issue reported'}${more}`;
}

/** `control profile rejected: schema at /metadata/revision`. */
export function rejectionCause(what: string, issues: readonly AdapterIssueT[]): string {
  return issuesCause(`${what} rejected`, issues);
}

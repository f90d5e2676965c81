import { issue, type OapIssue } from './issue.js';
import { hasOwn, isPlainObject } from './json-data.js';

export type DocumentKind = 'AgentProfile' | 'AgentStateDelta';

/** SPEC Appendix A: reserved for future versions, and still rejected in 1.x. */
const RESERVED_KINDS: readonly string[] = ['AgentProfileBundle', 'AgentProfileIndex'];

export interface KindResult {
  kind: DocumentKind | undefined;
  issues: OapIssue[];
}

/** Which schema and rules apply. Unknown kinds are rejected rather than guessed (L1-P5). */
export function classifyKind(doc: unknown): KindResult {
  if (!isPlainObject(doc)) return { kind: undefined, issues: [] };
  if (!hasOwn(doc, 'kind')) {
    return { kind: undefined, issues: [issue('kind.missing', '/kind', 'document has no kind')] };
  }
  const kind = doc.kind;
  if (kind === 'AgentProfile' || kind === 'AgentStateDelta') return { kind, issues: [] };
  if (typeof kind === 'string' && RESERVED_KINDS.includes(kind)) {
    return { kind: undefined, issues: [issue('kind.reserved', '/kind', `kind ${kind} is reserved for a future OAP version`)] };
  }
  return {
    kind: undefined,
    issues: [issue('kind.unknown', '/kind', `unknown kind ${JSON.stringify(kind)}; expected AgentProfile or AgentStateDelta`)],
  };
}

export function checkKind(doc: unknown): OapIssue[] {
  return classifyKind(doc).issues;
}

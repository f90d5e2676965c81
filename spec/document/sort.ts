import type { IssueCategory } from '../../protocol/vocabulary.js';
import { arrayIndexOf, decodePointer } from '../semantics/pointer.js';
import { categoryOf, type OapIssue } from './issue.js';

/**
 * Report order: problems that make the rest meaningless first (cannot parse, over a limit),
 * then version and kind, then the security rules, then schema errors. Within a category issues
 * follow the pointer, comparing array indices numerically.
 */
const RANK: readonly IssueCategory[] = [
  'io',
  'parse',
  'limit',
  'duplicate-key',
  'encoding',
  'non-finite',
  'version-major',
  'version-minor',
  'kind',
  'secret-literal',
  'secret-pattern',
  'path-escape',
  'delta-scope',
  'delta-reserved-op',
  'other',
  'schema',
];

function rank(code: string): number {
  const r = RANK.indexOf(categoryOf(code));
  return r === -1 ? RANK.length : r;
}

/** Pointer order: token by token, array indices numerically; a string that is not a pointer is one token. */
function comparePointers(a: string, b: string): number {
  const ta = decodePointer(a) ?? [a];
  const tb = decodePointer(b) ?? [b];
  for (let i = 0; i < Math.min(ta.length, tb.length); i++) {
    const x = ta[i]!;
    const y = tb[i]!;
    if (x === y) continue;
    const nx = arrayIndexOf(x);
    const ny = arrayIndexOf(y);
    if (nx !== undefined && ny !== undefined) return nx - ny;
    return x < y ? -1 : 1;
  }
  return ta.length - tb.length;
}

function compareIssues(a: OapIssue, b: OapIssue): number {
  return (
    rank(a.code) - rank(b.code) ||
    comparePointers(a.pointer, b.pointer) ||
    (a.code < b.code ? -1 : a.code > b.code ? 1 : 0) ||
    (a.message < b.message ? -1 : a.message > b.message ? 1 : 0)
  );
}

export function sortIssues(issues: readonly OapIssue[]): OapIssue[] {
  return [...issues].sort(compareIssues);
}

/**
 * The inconclusive cases by cause, so that a report says what to fix first: "184 cases could not be
 * judged: the adapter refused valid inputs citing schema at /metadata/revision, see L1-P2". One
 * grouping, which every format (terminal, Markdown, HTML) prints.
 *
 * A group is one cause: the ID that judges it (the record's `cause_id`, set by the refusal rule of
 * suites/support/refusal.ts) and what the adapter cited (the `<category> at <pointer>` issues in the
 * cause), else the cause's words with the case's own names and numbers taken out. Groups are
 * ordered by size: the first is the defect that hid the most.
 */
import { ISSUE_CATEGORIES } from '../protocol/vocabulary.js';
import type { CaseRecord } from './model.js';

type Inconclusive = Extract<CaseRecord, { status: 'inconclusive' }>;

export interface InconclusiveGroup {
  /** The ID whose case judges the cause; absent when the cases named none. */
  causeId?: string;
  /** What the cases of the group could not get past, in words. */
  cause: string;
  cases: Inconclusive[];
}

export interface InconclusiveSummary {
  total: number;
  groups: InconclusiveGroup[];
}

/** `schema at /metadata/revision` and the like: the issues an adapter cited, as the causes spell them. */
const ISSUE = new RegExp(`\\b(${ISSUE_CATEGORIES.join('|')}) at (/[^\\s;,)]*)`, 'g');

/** The cited issues, an index in a pointer read as any index (`/operations/N/path`). */
function citedIssues(cause: string): string[] {
  return [...new Set([...cause.matchAll(ISSUE)].map((m) => `${m[1]} at ${m[2]!.replace(/\/\d+(?=\/|$)/g, '/N')}`))];
}

/** A cause's words without the case's own names, paths and counts. */
function normalizedCause(cause: string): string {
  return cause
    .replace(/\([^)]*\)/g, '')
    .replace(/\d+(\.\d+)?/g, 'N')
    .replace(/\s+/g, ' ')
    .trim();
}

function causeWords(c: Inconclusive): string {
  const cause = c.cause ?? c.message;
  const issues = citedIssues(cause);
  if (issues.length > 0) return `the adapter refused valid inputs citing ${issues.join('; ')}`;
  return normalizedCause(cause);
}

export function inconclusiveSummary(records: readonly CaseRecord[]): InconclusiveSummary {
  const groups = new Map<string, InconclusiveGroup>();
  let total = 0;
  for (const c of records) {
    if (c.status !== 'inconclusive') continue;
    total++;
    const cause = causeWords(c);
    const key = JSON.stringify([c.cause_id ?? null, cause]);
    const g = groups.get(key);
    if (g) g.cases.push(c);
    else groups.set(key, { ...(c.cause_id ? { causeId: c.cause_id } : {}), cause, cases: [c] });
  }
  return { total, groups: [...groups.values()].sort((a, b) => b.cases.length - a.cases.length) };
}

/** One group as one sentence: `184 cases could not be judged: <cause>, see L1-P2`. */
export function inconclusiveSentence(g: InconclusiveGroup): string {
  const n = g.cases.length;
  return `${n} case${n === 1 ? '' : 's'} could not be judged: ${g.cause}${g.causeId ? `, see ${g.causeId}` : ''}`;
}

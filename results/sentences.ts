import { type Clause, clauseText, clausesOf, idOfClause, levelOfId } from '../spec/requirements.js';
import { SENTENCES, type Sentence, sentenceMapping } from '../spec/sentences.js';
import type { CaseRecord } from './model.js';
import { type ClauseVerdict, judgeClause } from './verdicts.js';

/**
 * What a run says about each normative sentence of the spec (spec/sentences.ts), for the spec view
 * of report.html and `compare`. A sentence is observed through the cases of its clauses (or only
 * the cases it names, or its advisory's): `fail` when one of them failed; `pass` when each of its
 * clauses has a passing case (or is confirmed not applicable, not all of them); `not-applicable`
 * when every clause is; `not-observed` otherwise (a clause skipped, inconclusive, errored, above the
 * run's level, or a SHOULD no case checks), with the clause that kept it; `excluded` with the reason.
 * Judged per clause exactly as the requirement verdicts are (judgeClause), never anew.
 */
export type SentenceVerdictKind = 'pass' | 'fail' | 'not-observed' | 'not-applicable' | 'excluded';

export const SENTENCE_VERDICTS: readonly SentenceVerdictKind[] = ['pass', 'fail', 'not-observed', 'not-applicable', 'excluded'];

export interface SentenceVerdict {
  sentence: Sentence;
  verdict: SentenceVerdictKind;
  /** The run's cases that observe it. */
  caseIds: string[];
  clauses: ClauseVerdict[];
  /** For every verdict but pass. */
  reason?: string;
}

/** The clauses a sentence is observed through: its own and its advisory's. */
function clausesOfSentence(s: Sentence): Clause[] {
  return [...s.clauses.map((id) => ({ id, text: clauseText(id) ?? id })), ...(s.advisory ? clausesOf(s.advisory) : [])];
}

export function sentenceVerdict(s: Sentence, cases: readonly CaseRecord[], level: 1 | 2 | 3): SentenceVerdict {
  const mapping = sentenceMapping(s);
  if (mapping === 'excluded') return { sentence: s, verdict: 'excluded', caseIds: [], clauses: [], reason: s.excluded ?? '' };
  if (mapping === 'unchecked') return { sentence: s, verdict: 'not-observed', caseIds: [], clauses: [], reason: 'a SHOULD no case checks' };
  const named = s.cases ? new Set(s.cases) : undefined;
  const pool = named ? cases.filter((c) => named.has(c.id)) : cases;
  const clauses = clausesOfSentence(s).map((q) =>
    judgeClause(
      q,
      pool.filter((c) => c.clauses.includes(q.id)),
    ),
  );
  const caseIds = [...new Set(clauses.flatMap((q) => q.caseIds))];
  const base = { sentence: s, caseIds, clauses };
  const failed = clauses.find((q) => q.verdict === 'fail');
  if (failed) return { ...base, verdict: 'fail', reason: `clause ${failed.id} failed: ${failed.reason ?? ''}` };
  const open = clauses.find((q) => q.verdict !== 'pass' && q.verdict !== 'not-applicable');
  if (open) {
    const above = levelOfId(idOfClause(open.id)) > level;
    const why = above
      ? `its level (${levelOfId(idOfClause(open.id))}) is above the run's (${level})`
      : `${open.verdict}: ${open.reason ?? ''}`;
    return { ...base, verdict: 'not-observed', reason: `clause ${open.id} not observed (${why})` };
  }
  if (clauses.every((q) => q.verdict === 'not-applicable'))
    return { ...base, verdict: 'not-applicable', reason: `${clauses[0]!.reason ?? ''}` };
  return { ...base, verdict: 'pass' };
}

/** Every sentence of the manifest, in document order, judged from a run's cases. */
export function sentenceVerdicts(cases: readonly CaseRecord[], level: 1 | 2 | 3): SentenceVerdict[] {
  return SENTENCES.map((s) => sentenceVerdict(s, cases, level));
}

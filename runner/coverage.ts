import type { CaseDef } from '../suites/kit/types.js';
import { catalogueCoverage } from '../suites/catalogue/index.js';
import { coverageRows as catalogueRows } from '../spec/semantics/catalogue.js';
import { FAMILIES, type Family } from '../spec/semantics/catalogue-model.js';
import { ADVISORIES, clausesOf, REQUIREMENTS } from '../spec/requirements.js';
import { isMustSentence, SENTENCES, type Sentence, sentenceMapping } from '../spec/sentences.js';

export interface MutantInfo {
  name: string;
  breaks: readonly string[];
  description: string;
  /** What the mutant waits for when no case catches it yet: it proves nothing about its IDs until then. */
  awaiting?: string | undefined;
}

export interface CoverageRow {
  id: string;
  level: number;
  strength: string;
  title: string;
  /** The ID's clauses, each with the cases that observe it. */
  clauses: { id: string; text: string; cases: string[] }[];
  cases: string[];
  mutants: string[];
}

/**
 * Join the manifest (requirements, then advisories) with the cases that prove each ID and clause and
 * the mutants its cases kill (a mutant still awaiting the case that catches it is left out).
 */
export function coverageRows(cases: readonly CaseDef[], mutants: readonly MutantInfo[]): CoverageRow[] {
  const row = (id: string, level: number, strength: string, title: string): CoverageRow => ({
    id,
    level,
    strength,
    title,
    clauses: clausesOf(id).map((q) => ({ id: q.id, text: q.text, cases: cases.filter((c) => c.clauses.includes(q.id)).map((c) => c.id) })),
    cases: cases.filter((c) => c.requirements.includes(id)).map((c) => c.id),
    mutants: mutants.filter((m) => !m.awaiting && m.breaks.includes(id)).map((m) => m.name),
  });
  return [
    ...REQUIREMENTS.map((q) => row(q.id, q.level, q.strength, q.title)),
    ...ADVISORIES.map((a) => row(a.id, a.level, 'ADVISORY', a.title)),
  ];
}

/** One sentence of the manifest as `list sentences --json` prints it. */
export interface SentenceRow {
  id: string;
  source: Sentence['source'];
  section: string;
  keyword: Sentence['keyword'];
  text: string;
  clauses: string[];
  /** The fixture-suite cases that observe it (fuzz and `--fixtures` replay cases add to these in a run). */
  cases: string[];
  advisory: string | null;
  excluded: string | null;
}

/** The cases that observe a sentence: the ones it names, else every case of its clauses or of its advisory. */
function sentenceCases(s: Sentence, cases: readonly CaseDef[]): string[] {
  if (s.cases) return [...s.cases];
  const clauses = new Set<string>([...s.clauses, ...(s.advisory ? clausesOf(s.advisory).map((q) => q.id) : [])]);
  return cases.filter((c) => c.clauses.some((q) => clauses.has(q))).map((c) => c.id);
}

export function sentenceRows(cases: readonly CaseDef[]): SentenceRow[] {
  return SENTENCES.map((s) => ({
    id: s.id,
    source: s.source,
    section: s.section,
    keyword: s.keyword,
    text: s.text,
    clauses: [...s.clauses],
    cases: s.excluded !== undefined ? [] : sentenceCases(s, cases),
    advisory: s.advisory ?? null,
    excluded: s.excluded ?? null,
  }));
}

/** The counts the closing note of the sentence manifest gives. */
function sentenceCounts(
  rows: readonly SentenceRow[],
): Record<'total' | 'must' | 'should' | 'mapped' | 'advisory' | 'excluded' | 'unchecked', number> {
  const mapping = rows.map(sentenceMapping);
  return {
    total: rows.length,
    must: rows.filter(isMustSentence).length,
    should: rows.filter((r) => !isMustSentence(r)).length,
    mapped: mapping.filter((m) => m === 'clauses').length,
    advisory: mapping.filter((m) => m === 'advisory').length,
    excluded: mapping.filter((m) => m === 'excluded').length,
    unchecked: mapping.filter((m) => m === 'unchecked').length,
  };
}

const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The `## Normative sentences` section of COVERAGE.md (also `oap-conform list sentences --markdown`). */
export function sentencesMarkdown(rows: readonly SentenceRow[]): string {
  const n = sentenceCounts(rows);
  const lines = [
    '## Normative sentences',
    '',
    'Every sentence of SPEC.md, security.md and conformance.md with MUST, MUST NOT, SHALL, REQUIRED, SHOULD or SHOULD NOT',
    '(spec/sentences.ts; `oap-conform list sentences --json` prints it with every case). A MUST sentence is observed by the',
    'cases of its clauses, checked by an advisory, or excluded with the reason; a SHOULD may be unchecked.',
    '`tests/spec/sentences.test.ts` fails on a MUST sentence that is neither, or on a named case that does not exist.',
    '',
    `Sentences: ${n.total} (${n.must} MUST, MUST NOT or REQUIRED; ${n.should} SHOULD). Observed by clause cases: ${n.mapped}; by an advisory alone: ${n.advisory}; excluded: ${n.excluded}; unchecked SHOULD: ${n.unchecked}.`,
    '',
    '| ID | Keyword | Sentence | Observed by | Cases |',
    '| --- | --- | --- | --- | --- |',
  ];
  for (const r of rows) {
    const by =
      r.excluded !== null
        ? `excluded: ${cell(r.excluded)}`
        : [...r.clauses.map((c) => `\`${c}\``), ...(r.advisory ? [`\`${r.advisory}\``] : [])].join('<br>') || '**not checked** (SHOULD)';
    lines.push(`| ${r.id} | ${r.keyword} | ${cell(r.text)} | ${by} | ${r.excluded !== null ? '' : r.cases.length} |`);
  }
  return `${lines.join('\n')}\n`;
}

/** One class of the boundary catalogue (or a family a dimension does not apply), with what covers it. */
export interface ClassCoverageRow {
  dimension: string;
  family: Family;
  classId: string;
  description: string;
  /** The generated cases that submit the class's values. */
  cases: string[];
  /** The hand-written cases that submit a value of the class and judge its prediction. */
  observedBy: string[];
  /** Why the class is deliberately not a case, when it is not. */
  exclusion: string | undefined;
}

/** Every class of the catalogue with the generated cases that cover it or its exclusion (COVERAGE.md's class table). */
export function classCoverageRows(): ClassCoverageRow[] {
  const covered = catalogueCoverage();
  return catalogueRows().map((r) => ({
    dimension: r.dimension,
    family: r.family,
    classId: r.classId,
    description: r.description,
    cases: covered.get(r.classId) ?? [],
    observedBy: [...r.observedBy],
    exclusion: r.exclusion,
  }));
}

/** The `## Boundary catalogue` section of COVERAGE.md: dimension by class, totals by family. */
function catalogueMarkdown(rows: readonly ClassCoverageRow[]): string {
  const covered = (r: ClassCoverageRow) => r.cases.length + r.observedBy.length > 0;
  const excluded = (r: ClassCoverageRow) => !covered(r) && r.exclusion !== undefined;
  const none = (r: ClassCoverageRow) => !covered(r) && r.exclusion === undefined;
  const count = (xs: readonly ClassCoverageRow[], f: (r: ClassCoverageRow) => boolean) => xs.filter(f).length;
  const lines = [
    '## Boundary catalogue',
    '',
    'Every equivalence class of the boundary catalogue (spec/semantics/*.catalogue.ts, docs/CATALOGUE.md), and for each dimension every',
    'family that does not apply, with the generated cases that submit its values (suites/catalogue), the hand-written cases that submit',
    'a value of it and judge its prediction (marked *hand-written*), or the reason it is not a case.',
    '`tests/catalogue-coverage.test.ts` fails on a class with none of these that is not on its list of classes still awaiting their case,',
    'and on a hand-written case named here that the suite does not run.',
    '',
    `Rows: ${rows.length}. Covered by a case: ${count(rows, covered)} (by hand-written cases alone: ${count(rows, (r) => r.cases.length === 0 && r.observedBy.length > 0)}); excluded with a reason: ${count(rows, excluded)}; awaiting a case: ${count(rows, none)}.`,
    '',
    '| Family | Rows | Covered | Excluded | Awaiting |',
    '| --- | --- | --- | --- | --- |',
    ...FAMILIES.map((f) => {
      const xs = rows.filter((r) => r.family === f);
      return `| ${f} | ${xs.length} | ${count(xs, covered)} | ${count(xs, excluded)} | ${count(xs, none)} |`;
    }),
    '',
    '| Dimension | Family | Class | Cases or exclusion |',
    '| --- | --- | --- | --- |',
  ];
  for (const r of rows) {
    const by = covered(r)
      ? [...r.cases.map((c) => `\`${c}\``), ...r.observedBy.map((c) => `\`${c}\` *hand-written*`)].join('<br>')
      : r.exclusion !== undefined
        ? `excluded: ${cell(r.exclusion)}`
        : '**none**';
    lines.push(`| ${r.dimension} | ${r.family} | \`${r.classId.slice(r.dimension.length + 1)}\` ${cell(r.description)} | ${by} |`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * COVERAGE.md: the table of IDs, clauses, checks and mutants that shows the suite is not vacuous,
 * then the normative sentences. It is generated (`oap-conform list requirements --markdown >
 * COVERAGE.md`) and a test fails when the committed file is stale.
 */
export function coverageMarkdown(rows: readonly CoverageRow[], sentences: readonly SentenceRow[]): string {
  const lines = [
    '# Coverage: requirement IDs, clauses, checks, mutants and sentences',
    '',
    'Generated by `oap-conform list requirements --markdown`; `tests/coverage.test.ts` fails when this file is stale.',
    "The normative sentences follow the requirement table, and the boundary catalogue's classes follow them.",
    'Every ID has at least one check for each of its clauses, and at least one mutant of the reference harness that violates exactly that ID',
    '(the IDs still waiting for theirs are listed in `tests/coverage.test.ts`);',
    '`tests/mutants.test.ts` runs every mutant and asserts the suite fails exactly the IDs listed here.',
    '',
    `Requirements: ${rows.filter((r) => r.strength !== 'ADVISORY').length} (${rows.filter((r) => r.strength === 'MUST').length} MUST, ${rows.filter((r) => r.strength === 'SHOULD').length} SHOULD); advisories (spec MUSTs without an ID, never gating): ${rows.filter((r) => r.strength === 'ADVISORY').length}. Clauses: ${rows.reduce((n, r) => n + r.clauses.length, 0)}. Checks: ${new Set(rows.flatMap((r) => r.cases)).size}.`,
    '',
    '| ID | Level | Strength | Requirement | Clauses (checks) | Checks | Mutants |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of rows) {
    const clauses = r.clauses.map((q) => `\`${q.id}\` ${q.cases.length === 0 ? '**none**' : q.cases.length}`).join('<br>');
    const checks = r.cases.length === 0 ? '**none**' : `${r.cases.length}: ${r.cases.map((c) => `\`${c}\``).join('<br>')}`;
    const mutants = r.mutants.length === 0 ? '**none**' : r.mutants.map((m) => `\`${m}\``).join('<br>');
    lines.push(`| ${r.id} | ${r.level} | ${r.strength} | ${cell(r.title)} | ${clauses} | ${checks} | ${mutants} |`);
  }
  return `${lines.join('\n')}\n\n${sentencesMarkdown(sentences)}\n${catalogueMarkdown(classCoverageRows())}`;
}

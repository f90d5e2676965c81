import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ADVISORIES, REQUIREMENTS } from '../spec/requirements.js';
import { SENTENCES } from '../spec/sentences.js';
import { type ConformanceResult, NOTE, noteValue } from './conformance-result.js';
import { InputError, readJsonFile, readValidated } from './load.js';
import { parseRunReport, readRunReport, readRunStream } from './run-stream.js';
import type { RunReport } from './model.js';
import { evaluateRun, type RunOutcome } from './outcome.js';
import { isNotPassing } from './predicates.js';
import { schemaProblems } from './schemas.js';
import type { SentenceVerdictKind } from './sentences.js';
import type { Verdict } from './verdicts.js';

/**
 * Several implementations' results side by side (`oap-conform compare`): per requirement ID (and
 * advisory) the verdict each run gave it, with the IDs where they disagree first, and per normative
 * sentence of the spec what each run observed of it (results/sentences.ts), disagreements first. A run is read
 * from its report.json when there is one (every verdict, the cases behind it); a bare result.json
 * gives only passed and failed.
 */
export interface CompareColumn {
  /** What the user named: a directory, a result.json or a report.json. */
  source: string;
  /** The report.html beside the run's report, for links to each case's evidence. */
  html?: string;
  implementation: string;
  version: string;
  level: 1 | 2 | 3;
  attained: 0 | 1 | 2 | 3 | undefined;
  fixtureRevision: string;
  runner: string;
  /** True when only result.json was available: verdicts other than pass and fail are unknown. */
  resultOnly: boolean;
}

type CellVerdict = Verdict | 'pass (vacuous)' | 'not judged' | 'not in passed or failed';

export interface CompareCell {
  verdict: CellVerdict;
  /** Cases of the ID that did not pass (their evidence is what a reader opens first). */
  notPassing: string[];
  cases: number;
}

interface CompareRow {
  id: string;
  kind: 'requirement' | 'advisory';
  level: 1 | 2 | 3;
  title: string;
  cells: CompareCell[];
  /** The runs that judged this ID do not all give it the same verdict. */
  disagree: boolean;
}

/** One normative sentence across the runs: what each run observed of it (spec view verdicts). */
export interface SentenceCompareRow {
  id: string;
  source: string;
  section: string;
  keyword: string;
  text: string;
  /** Per run: the sentence verdict, or `unknown` when only result.json was given. */
  cells: (SentenceVerdictKind | 'unknown')[];
  disagree: boolean;
}

export interface Comparison {
  columns: CompareColumn[];
  /** Disagreements first, then manifest order. */
  rows: CompareRow[];
  /** Every sentence of the manifest, the ones the runs judge differently first, then document order. */
  sentences: SentenceCompareRow[];
}

interface LoadedRun {
  column: CompareColumn;
  report?: RunReport;
  /** The report judged once (evaluateRun is pure but not free). */
  outcome?: RunOutcome;
  result?: ConformanceResult;
}

/** A report.json (through the run-stream reader's checks); a document that is no report at all is named as such. */
function reportOrRefuse(value: unknown, source: string): RunReport {
  try {
    return parseRunReport(value, source);
  } catch (err) {
    if (!(err instanceof InputError) || err.code !== 'bad-report') throw err;
    throw new InputError(
      'not-a-result',
      `${source} is neither an oap-conform report.json nor an oap.conformance-result.v1 result.json; give a result directory or one of those files`,
    );
  }
}

/** A result directory, a result.json, a report.json or a run stream; whichever it is, its sibling is used when present. */
function loadRun(source: string): LoadedRun {
  if (!existsSync(source)) throw new InputError('not-found', `${source} does not exist`);
  const dir = statSync(source).isDirectory() ? source : dirname(source);
  let reportPath: string | undefined;
  let resultPath: string | undefined;
  // The file named on the command line, read and checked once.
  let given: { report?: RunReport; result?: ConformanceResult } = {};
  if (statSync(source).isDirectory()) {
    reportPath = existsSync(join(dir, 'report.json')) ? join(dir, 'report.json') : undefined;
    resultPath = existsSync(join(dir, 'result.json')) ? join(dir, 'result.json') : undefined;
    if (!reportPath && !resultPath) throw new InputError('no-result', `${source} holds neither report.json nor result.json`);
  } else {
    const value = source.endsWith('.ndjson') ? undefined : readJsonFile(source);
    if (value === undefined) given = { report: readRunStream(source) };
    else if (schemaProblems('result', value).length === 0) {
      resultPath = source;
      given = { result: value as ConformanceResult };
      const beside = join(dir, 'report.json');
      if (existsSync(beside)) reportPath = beside;
    } else given = { report: reportOrRefuse(value, source) };
  }
  const report = given.report ?? (reportPath ? readRunReport(reportPath) : undefined);
  const result = given.result ?? (resultPath ? readValidated<ConformanceResult>(resultPath, 'result') : undefined);
  const html = join(dir, 'report.html');
  if (report) {
    const h = report.header;
    const outcome = evaluateRun(report);
    return {
      report,
      outcome,
      column: {
        source,
        ...(existsSync(html) ? { html } : {}),
        implementation: h.adapter.handshake.implementation.name,
        version: h.adapter.handshake.implementation.version,
        level: h.level,
        attained: outcome.attained,
        fixtureRevision: h.fixture_revision,
        runner: `${h.runner.name} ${h.runner.version}`,
        resultOnly: false,
      },
    };
  }
  const r = result!;
  const attained = Number(noteValue(r, NOTE.attained));
  return {
    result: r,
    column: {
      source,
      implementation: r.implementation,
      version: r.implementation_version,
      level: r.level,
      attained: attained === 0 || attained === 1 || attained === 2 || attained === 3 ? attained : undefined,
      fixtureRevision: r.fixture_revision,
      runner: noteValue(r, NOTE.runner)?.replace('@', ' ') ?? 'unknown',
      resultOnly: true,
    },
  };
}

function cellFor(run: LoadedRun, id: string, kind: CompareRow['kind'], level: number): CompareCell {
  if (level > run.column.level) return { verdict: 'not judged', notPassing: [], cases: 0 };
  if (run.report && run.outcome) {
    const o = run.outcome;
    const cases = run.report.cases.filter((c) => c.requirements.includes(id));
    const notPassing = cases.filter(isNotPassing).map((c) => c.id);
    if (kind === 'advisory') return { verdict: o.verdicts.advisories.get(id)?.verdict ?? 'untested', notPassing, cases: cases.length };
    const v = o.verdicts.byId.get(id)!;
    return { verdict: v.vacuous ? 'pass (vacuous)' : v.verdict, notPassing, cases: cases.length };
  }
  const r = run.result!;
  const verdict: CellVerdict = r.passed.includes(id) ? 'pass' : r.failed.includes(id) ? 'fail' : 'not in passed or failed';
  return { verdict, notPassing: [], cases: 0 };
}

export function compareRuns(sources: readonly string[]): Comparison {
  if (sources.length < 2) throw new InputError('usage', 'compare needs at least two results');
  const runs = sources.map(loadRun);
  const ids: { id: string; kind: CompareRow['kind']; level: 1 | 2 | 3; title: string }[] = [
    ...REQUIREMENTS.map((q) => ({ id: q.id as string, kind: 'requirement' as const, level: q.level, title: q.title })),
    ...ADVISORIES.map((a) => ({ id: a.id as string, kind: 'advisory' as const, level: a.level, title: a.title })),
  ];
  const maxLevel = Math.max(...runs.map((r) => r.column.level));
  const rows = ids
    .filter((x) => x.level <= maxLevel)
    .map((x) => {
      const cells = runs.map((run) => cellFor(run, x.id, x.kind, x.level));
      const seen = new Set(cells.filter((c) => c.verdict !== 'not judged').map((c) => c.verdict));
      return { ...x, cells, disagree: seen.size > 1 };
    });
  // Disagreements first; within each part, manifest order (requirements, then advisories).
  rows.sort((a, b) => Number(b.disagree) - Number(a.disagree));
  const sentences = SENTENCES.map((s) => {
    const cells = runs.map((run) => run.outcome?.sentences.find((v) => v.sentence.id === s.id)?.verdict ?? ('unknown' as const));
    const seen = new Set(cells.filter((c) => c !== 'unknown'));
    return { id: s.id, source: s.source, section: s.section, keyword: s.keyword, text: s.text, cells, disagree: seen.size > 1 };
  });
  sentences.sort((a, b) => Number(b.disagree) - Number(a.disagree));
  return { columns: runs.map((r) => r.column), rows, sentences };
}

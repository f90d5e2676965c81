/**
 * The run stream, OUT/journal.ndjson: the run's one record. The run header on the first line, one
 * CaseRecord per line appended as each case finishes (so a killed runner keeps every finished case),
 * and a footer line, `{"footer": RunFooter}`, written when the run ends, complete or interrupted.
 *
 * One writer (RunStreamWriter) and one reader, which checks every line against its part of
 * results-schema/journal-line.schema.json and refuses a stream without a footer (MissingFooter) or
 * with a case ID twice (DuplicateCase), so a truncated run never passes for a whole one. report.json
 * is the same run as one document (header, records sorted by ID, footer) plus the judgement
 * (advisories); it is read through the same checks (readRunReport). Every reader of a run (resume,
 * merge, verify, diff, compare, baseline) goes through this module.
 */
import { appendFileSync, existsSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { makeDirectory } from './make-directory.js';
import { dirname, join } from 'node:path';
import { canonicalJson } from './digest.js';
import { InputError, readJsonFile, reportPathOf } from './load.js';
import type { CaseRecord, RunFooter, RunHeader, RunReport } from './model.js';
import { schemaProblems, streamLineProblems } from './schemas.js';

/** The run stream's file name in a run's output directory. */
export const RUN_STREAM_FILE = 'journal.ndjson';

/** A run without its footer: the runner that wrote it never ended (killed, or still running). */
export class MissingFooter extends InputError {
  constructor(source: string, what: 'stream' | 'report') {
    super(
      'missing-footer',
      `${source} has no footer${what === 'stream' ? ' line' : ''}: the run that wrote it never ended (killed, or still running); continue it with oap-conform run --resume, or run it again`,
    );
  }
}

/** A case recorded twice: not one run (two runs' streams joined, or a hand-edited file). */
export class DuplicateCase extends InputError {
  constructor(source: string, id: string) {
    super('duplicate-case', `${source} records case ${id} twice; a run records each case once`);
  }
}

function badStream(source: string, line: number, why: string): InputError {
  return new InputError('bad-run-stream', `${source} line ${line}: ${why}`);
}

/** A stream read for --resume: the footer may be missing, and where the next record goes. */
export interface UnfinishedRun {
  header: RunHeader;
  cases: CaseRecord[];
  /** Absent when the runner was killed; present (interrupted, or complete) when it ended. */
  footer?: RunFooter;
  /** Bytes up to the end of the last case line: a resumed run cuts the stream here and appends. */
  resumeAt: number;
}

export interface StreamReadOptions {
  /**
   * Accept a stream that has no footer yet, for `run --resume` only: its runner was killed, and a
   * last line cut off mid-write (no newline) is dropped. Every other reader wants a whole run.
   */
  unfinished: true;
}

/** Read a run stream whole: header, records, footer; throws InputError (one line, a code) otherwise. */
export function readRunStream(path: string): RunReport;
export function readRunStream(path: string, opts: StreamReadOptions): UnfinishedRun;
export function readRunStream(path: string, opts?: StreamReadOptions): RunReport | UnfinishedRun {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    throw new InputError('unreadable-file', `cannot read ${path}`);
  }
  const unfinished = opts?.unfinished === true;
  let header: RunHeader | undefined;
  let footer: RunFooter | undefined;
  const cases: CaseRecord[] = [];
  let resumeAt = 0;
  let start = 0;
  for (let n = 1; start < bytes.length; n++) {
    const nl = bytes.indexOf(10, start);
    const end = nl === -1 ? bytes.length : nl;
    const text = bytes.toString('utf8', start, end);
    const next = nl === -1 ? bytes.length : nl + 1;
    // A line is whole only with its newline: without one, the runner died while writing it.
    if (nl === -1 && unfinished && footer === undefined) break;
    if (footer !== undefined) throw badStream(path, n, 'a line after the footer');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw badStream(path, n, `not JSON (${(err as Error).message})`);
    }
    if (header === undefined) {
      const problems = streamLineProblems('header', value);
      if (problems.length > 0) throw badStream(path, n, `not an oap-conform.report.v1 run header (${problems[0]})`);
      header = value as RunHeader;
      resumeAt = next;
    } else if (value !== null && typeof value === 'object' && Object.hasOwn(value, 'footer')) {
      const problems = streamLineProblems('footer', value);
      if (problems.length > 0) throw badStream(path, n, `not a footer line (${problems[0]})`);
      footer = (value as { footer: RunFooter }).footer;
    } else {
      const problems = streamLineProblems('case', value);
      if (problems.length > 0) throw badStream(path, n, `not a case record (${problems[0]})`);
      cases.push(value as CaseRecord);
      resumeAt = next;
    }
    start = next;
  }
  if (header === undefined) throw new InputError('bad-run-stream', `${path} is empty: a run stream starts with its header line`);
  if (unfinished) {
    refuseDuplicates(path, cases);
    return { header, cases, ...(footer ? { footer } : {}), resumeAt };
  }
  return wholeRun(path, header, cases, footer);
}

/**
 * A whole run from its parts: its footer present and no case twice. The reader ends with it, and the
 * engine hands back the run it has just written through it too (the records it holds are the lines
 * it wrote, so they are not parsed and checked against the schema a second time).
 */
export function wholeRun(source: string, header: RunHeader, cases: CaseRecord[], footer: RunFooter | undefined): RunReport {
  if (footer === undefined) throw new MissingFooter(source, 'stream');
  refuseDuplicates(source, cases);
  return { header, cases, footer };
}

function refuseDuplicates(source: string, cases: readonly CaseRecord[]): void {
  const seen = new Set<string>();
  for (const c of cases) {
    if (seen.has(c.id)) throw new DuplicateCase(source, c.id);
    seen.add(c.id);
  }
}

/**
 * A report.json document, with the checks of the stream: its schema (header, records and footer
 * are the stream's own definitions), a footer, no case twice. The document is returned as read,
 * so the digest result.json binds is computed over exactly it.
 */
export function parseRunReport(value: unknown, source: string): RunReport {
  const problems = schemaProblems('report', value);
  if (problems.length === 1 && problems[0] === '/: required property "footer" is missing') throw new MissingFooter(source, 'report');
  if (problems.length > 0) throw new InputError('bad-report', `${source} does not match the report schema: ${problems[0]}`);
  const report = value as RunReport;
  refuseDuplicates(source, report.cases);
  return report;
}

export function readRunReport(path: string): RunReport {
  return parseRunReport(readJsonFile(path), path);
}

/** A result directory (its report.json), a report.json, or a run stream (`.ndjson`). */
export function readRun(dirOrFile: string): RunReport {
  const path = reportPathOf(dirOrFile);
  return path.endsWith('.ndjson') ? readRunStream(path) : readRunReport(path);
}

/**
 * The run a path names, as a reader of two runs takes it: a result directory, its report.json, a
 * run stream, or a result.json (whose sibling report.json holds the cases). Anything else is
 * refused with what it is and what is wanted.
 */
export function readRunOrResult(path: string): RunReport {
  if (!existsSync(path)) throw new InputError('not-found', `${path} does not exist`);
  if (statSync(path).isDirectory() || path.endsWith('.ndjson')) return readRun(path);
  const value = readJsonFile(path);
  if (schemaProblems('result', value).length === 0) {
    const sibling = join(dirname(path), 'report.json');
    if (!existsSync(sibling))
      throw new InputError('no-report', `${path} is a result.json without the report.json beside it, which holds the cases this compares`);
    return readRunReport(sibling);
  }
  try {
    return parseRunReport(value, path);
  } catch (err) {
    if (!(err instanceof InputError) || err.code !== 'bad-report') throw err;
    const schema = (value as { schema?: unknown } | null)?.schema;
    throw new InputError(
      'not-a-run',
      `${path} is ${typeof schema === 'string' ? `an ${schema} document` : 'neither a report.json nor a result.json'}; give a result directory, its report.json or its result.json${typeof schema === 'string' ? '' : ` (${schemaProblems('report', value)[0]})`}`,
    );
  }
}

/**
 * The one writer of a run stream. Each line is appended synchronously, so a killed runner loses at
 * most the line it was writing.
 */
export class RunStreamWriter {
  private constructor(readonly path: string) {}

  /** A new stream holding the header line (an existing file is replaced). */
  static create(path: string, header: RunHeader): RunStreamWriter {
    makeDirectory(dirname(path));
    writeFileSync(path, `${JSON.stringify(header)}\n`);
    return new RunStreamWriter(path);
  }

  /**
   * Go on with a stream read with `{ unfinished: true }`: cut it back to its last whole case line
   * (its footer, or a line torn mid-write, goes) and append from there; the run's footer comes last.
   */
  static resume(path: string, from: UnfinishedRun): RunStreamWriter {
    truncateSync(path, from.resumeAt);
    return new RunStreamWriter(path);
  }

  case(record: CaseRecord): void {
    appendFileSync(this.path, `${JSON.stringify(record)}\n`);
  }

  end(footer: RunFooter): void {
    appendFileSync(this.path, `${JSON.stringify({ footer })}\n`);
  }
}

/**
 * Header fields that do not make two headers different runs: when and with how many workers it ran,
 * where the replayed tree lay (its digest counts), and the case list (its digest counts).
 */
const NOT_IDENTITY = ['started_at', 'invoked_as', 'options.jobs', 'options.fixtures_dir', 'manifest_cases'];

export interface HeaderDifference {
  /** The header field, as its path in the header (`level`, `options.fuzz`, `adapter.handshake.implementation.version`). */
  field: string;
  was: string;
  now: string;
}

/**
 * The first field (in path order) in which header `b` differs from header `a`, or undefined when
 * they describe one run: the adapter and its handshake, the runner, the suite, the judged level,
 * the seed and every option that selects a case or can change a verdict. `ignore` adds fields a
 * caller expects to differ (merge: the shard index).
 */
export function headerDifference(a: RunHeader, b: RunHeader, ignore: readonly string[] = []): HeaderDifference | undefined {
  return firstDifference(a, b, '', [...NOT_IDENTITY, ...ignore]);
}

function firstDifference(a: unknown, b: unknown, path: string, ignore: readonly string[]): HeaderDifference | undefined {
  if (ignore.includes(path)) return undefined;
  if (isRecord(a) && isRecord(b)) {
    for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      const d = firstDifference(a[key], b[key], path ? `${path}.${key}` : key, ignore);
      if (d) return d;
    }
    return undefined;
  }
  // Scalars and arrays are compared whole (an --adapter-env list, --case IDs, encodings).
  if (a === undefined && b === undefined) return undefined;
  if (a !== undefined && b !== undefined && canonicalJson(a) === canonicalJson(b)) return undefined;
  return { field: path, was: shown(a), now: shown(b) };
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const shown = (v: unknown): string => (v === undefined ? 'none' : typeof v === 'string' ? v : JSON.stringify(v));

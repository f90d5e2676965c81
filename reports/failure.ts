import { Document, isScalar, visit } from 'yaml';
import { describeDifference } from '../spec/document/differences.js';
import { readingsOf } from '../spec/readings.js';
import type { Difference } from '../results/record.js';
import type { CaseRecord, RunHeader } from '../results/model.js';
import { rerunCommand } from '../results/rerun.js';
import { stripControl } from './text.js';

/**
 * The pieces every format shows for a failing case (differences, inputs, fixture files, rerun
 * line), rendered the same way everywhere. Long values are cut at a word boundary, never mid-word;
 * report.json always has them whole.
 */

/** At most `max` characters, cut after the last space or punctuation that fits, with `…` appended. */
export function cutAtBoundary(text: string, max: number): string {
  if (text.length <= max) return text;
  const room = text.slice(0, Math.max(1, max - 1));
  // What fits ends a word already: keep it whole.
  if (/\s/.test(text[room.length] ?? '')) return `${room.trimEnd()}…`;
  // The last break (space, or a JSON/YAML separator) in the second half of what fits.
  let cut = -1;
  for (let i = room.length - 1; i >= Math.floor(room.length / 2); i--) {
    if (/[\s,;:)\]}]/.test(room[i]!)) {
      cut = /\s/.test(room[i]!) ? i : i + 1;
      break;
    }
  }
  return `${(cut > 0 ? room.slice(0, cut) : room).trimEnd()}…`;
}

/** A value on one line: JSON, control characters removed, cut at a boundary. */
function shortValue(value: unknown, max = 80): string {
  if (value === undefined) return '(absent)';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return cutAtBoundary(stripControl(text).replace(/\s+/g, ' '), max);
}

/**
 * `/budgets/max_tool_calls: 10 vs 100` (expected vs observed), `/tools: extra "git/commit"; missing
 * "read"` for a set, `/text line 3: "a" vs "b"` for text; `""` is the whole value, shown as `(root)`.
 */
export function differenceLine(d: Difference, max = 80): string {
  return describeDifference(d, (v) => shortValue(v, max));
}

/** A difference's place and its two sides, for a table: a set's sides are its missing and extra members. */
export function differenceCells(d: Difference, max = 80): { where: string; expected: string; observed: string } {
  const where = `${d.pointer === '' ? '(root)' : d.pointer}${d.line !== undefined ? ` line ${d.line}` : ''}`;
  if (d.extra !== undefined || d.missing !== undefined) {
    const members = (label: string, list: unknown[] | undefined) =>
      list?.length ? `${label} ${list.map((v) => shortValue(v, max)).join(', ')}` : '';
    return { where, expected: members('missing', d.missing), observed: members('extra', d.extra) };
  }
  return { where, expected: shortValue(d.expected, max), observed: shortValue(d.observed, max) };
}

/** The record's differences, when it is a failure that has any. */
export function differencesOf(c: CaseRecord): Difference[] {
  return c.status === 'fail' ? (c.differences ?? []) : [];
}

/**
 * An input as text: a file's text as it was written, anything else as YAML with lists of scalars
 * on one line (`available: [ read, search ]`), so a policy reads in a screenful.
 */
export function inputText(value: unknown): string {
  if (typeof value === 'string') return stripControl(value);
  const doc = new Document(value);
  visit(doc, {
    Seq(_key, node) {
      if (node.items.every((i) => isScalar(i))) node.flow = true;
    },
  });
  return stripControl(doc.toString({ lineWidth: 0 }));
}

/** The first `maxLines` lines of a text, with a count of the rest. */
export function headLines(text: string, maxLines: number): { lines: string[]; more: number } {
  const lines = text.replace(/\n$/, '').split('\n');
  return { lines: lines.slice(0, maxLines), more: Math.max(0, lines.length - maxLines) };
}

/** The readings a failing record rests on (spec/readings.ts): its first difference's dimension, then its IDs'. */
export function readingsOfRecord(c: CaseRecord): string[] {
  return readingsOf(c.requirements, c.status === 'fail' ? c.differences?.[0]?.pointer : undefined);
}

/** What caused a non-passing status besides its message: the inconclusive cause, the probe, the declined method. */
export function causeOf(c: CaseRecord): string | undefined {
  switch (c.status) {
    case 'inconclusive':
      return c.cause;
    case 'not-applicable':
      return `probe: ${c.probe}`;
    case 'skipped':
      return `declined ${c.method}: ${c.reason}`;
    case 'timeout':
      return `${c.method} took longer than ${c.limit_ms} ms`;
    case 'error':
      return c.fault === 'suite' ? "a bug in oap-conform's own check (never held against the adapter)" : undefined;
    case 'pass':
    case 'fail':
      return undefined;
    default: {
      const unhandled: never = c;
      return unhandled;
    }
  }
}

/**
 * A failing case as plain text, the body a JUnit <failure> or a CTRF trace shows: the cause, the
 * differences, the fixture files, the inputs, the kept workspace and the rerun line.
 */
export function failureText(header: RunHeader, c: CaseRecord): string {
  const lines: string[] = [];
  const cause = causeOf(c);
  if (cause) lines.push(`cause: ${cause}`);
  const diffs = differencesOf(c);
  if (diffs.length > 0) lines.push('differences (expected vs observed):', ...diffs.map((d) => `  ${differenceLine(d, 200)}`));
  else if (c.status === 'fail' && (c.expected !== undefined || c.observed !== undefined))
    lines.push(
      `expected: ${JSON.stringify(c.expected, null, 2) ?? 'undefined'}`,
      `observed: ${JSON.stringify(c.observed, null, 2) ?? 'undefined'}`,
    );
  if (c.fixture_files?.length) lines.push(`fixture: ${c.fixture_files.join(', ')}`);
  for (const [name, value] of Object.entries(c.inputs ?? {}))
    lines.push(
      `input ${name}:`,
      ...inputText(value)
        .replace(/\n$/, '')
        .split('\n')
        .map((l) => `  ${l}`),
    );
  if (c.workspace) lines.push(`workspace: ${c.workspace}`);
  const readings = readingsOfRecord(c);
  if (readings.length > 0) lines.push(`reading: ${readings.join(', ')}`);
  lines.push(`rerun: ${rerunCommand(header, c)}`);
  return lines.join('\n');
}

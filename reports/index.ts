import { renderBadge } from './badge.js';
import { renderCtrf } from './ctrf.js';
import { renderHtml } from './html.js';
import { renderReportJson, renderResultJson, renderStatementJson } from './json.js';
import { renderJunit } from './junit.js';
import { renderMarkdown } from './markdown.js';
import type { RunOutcome } from '../results/outcome.js';
import { renderSarif } from './sarif.js';

export { renderTerminalSummary } from './terminal.js';

/** Every output format by its `--format` name, with the file it is written to in --out. */
export const FORMATS = {
  result: { file: 'result.json', render: renderResultJson },
  report: { file: 'report.json', render: renderReportJson },
  statement: { file: 'statement.json', render: renderStatementJson },
  junit: { file: 'junit.xml', render: renderJunit },
  ctrf: { file: 'ctrf-report.json', render: renderCtrf },
  markdown: { file: 'summary.md', render: renderMarkdown },
  html: { file: 'report.html', render: renderHtml },
  sarif: { file: 'results.sarif', render: renderSarif },
  badge: { file: 'badge.json', render: renderBadge },
} as const satisfies Record<string, { file: string; render: (o: RunOutcome) => string }>;

export type FormatName = keyof typeof FORMATS;
const FORMAT_NAMES = Object.keys(FORMATS) as FormatName[];

/** result.json is bound to report.json by digest, so these two are written whatever is selected. */
const ALWAYS_WRITTEN: readonly FormatName[] = ['result', 'report'];

class UnknownFormatError extends Error {
  readonly code = 'unknown-format';
}

/** Parses --format values (repeatable or comma-separated); no selection means every format. */
export function selectFormats(requested?: readonly string[]): FormatName[] {
  const names = (requested ?? [])
    .flatMap((r) => r.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length === 0) return [...FORMAT_NAMES];
  for (const n of names) {
    if (!Object.hasOwn(FORMATS, n)) throw new UnknownFormatError(`unknown format "${n}"; choose from ${FORMAT_NAMES.join(', ')}`);
  }
  const chosen = new Set<FormatName>([...ALWAYS_WRITTEN, ...(names as FormatName[])]);
  return FORMAT_NAMES.filter((n) => chosen.has(n));
}

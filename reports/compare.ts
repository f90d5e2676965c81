import { relative, sep } from 'node:path';
import type { CompareCell, CompareColumn, Comparison, SentenceCompareRow } from '../results/compare.js';
import { caseAnchor, esc, quoteHtml, SENTENCE_LABEL, sentenceAnchor } from './html.js';
import { mdCell } from './markdown.js';
import { attainedText } from './verdict-line.js';

/**
 * `oap-conform compare`: several runs as one static page (compare.html) and a Markdown table
 * (compare.md). One row per requirement ID and advisory, one column per implementation, each cell
 * the verdict with links into that run's report.html (the ID's cases, filtered, and each case that
 * did not pass); the IDs where the implementations disagree come first. Below it, every normative
 * sentence of the spec with what each run observed of it, linked to that run's spec view,
 * disagreements first. No script: a plain page.
 */
const MAX_CASE_LINKS = 5;

const CSS = `
body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#1b1f24}
h1{font-size:1.4rem}h2{font-size:1.15rem;margin-top:2rem}
table{border-collapse:collapse}th,td{border:1px solid #d0d7de;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f6f8fa}td.id,th.id{white-space:nowrap}
tr.disagree td.id{border-left:4px solid #cf222e}tr.sep td{background:#f6f8fa;font-weight:600}
.pass{color:#1a7f37}.fail{color:#cf222e}.errored,.not-observed{color:#9a6700}.inconclusive{color:#8250df}.skipped,.untested,.not-judged,.unknown,.excluded,.not-applicable{color:#57606a}
small a{margin-right:.3rem}
`;

/** The CSS class of a verdict (its first word). */
function verdictClass(v: string): string {
  if (v.startsWith('pass')) return 'pass';
  if (v === 'not judged') return 'not-judged';
  if (v === 'not in passed or failed') return 'unknown';
  return v;
}

/** A path from the page to a run's report.html, as a URL path. */
function hrefFrom(outDir: string, file: string): string {
  return relative(outDir, file).split(sep).map(encodeURIComponent).join('/');
}

function columnHead(c: CompareColumn): string {
  return `${esc(c.implementation)} ${esc(c.version)}`;
}

function cellHtml(outDir: string, col: CompareColumn, cell: CompareCell, id: string): string {
  const cls = verdictClass(cell.verdict);
  if (!col.html || cell.cases === 0) return `<td class="${cls}">${esc(cell.verdict)}</td>`;
  const page = hrefFrom(outDir, col.html);
  const all = `<a href="${page}#q=${encodeURIComponent(`r:${id}`)}">${esc(cell.verdict)}</a>`;
  const links = cell.notPassing
    .slice(0, MAX_CASE_LINKS)
    .map((caseId) => `<a href="${page}#${encodeURIComponent(caseAnchor(caseId))}">${esc(caseId)}</a>`);
  const more = cell.notPassing.length > MAX_CASE_LINKS ? ` and ${cell.notPassing.length - MAX_CASE_LINKS} more` : '';
  return `<td class="${cls}">${all} <small>(${cell.cases} case${cell.cases === 1 ? '' : 's'})</small>${links.length ? `<br><small>${links.join('')}${more}</small>` : ''}</td>`;
}

function sentenceCellHtml(outDir: string, col: CompareColumn, verdict: SentenceCompareRow['cells'][number], id: string): string {
  const label = verdict === 'unknown' ? 'unknown (result.json only)' : SENTENCE_LABEL[verdict];
  if (!col.html || verdict === 'unknown') return `<td class="${verdict}">${esc(label)}</td>`;
  return `<td class="${verdict}"><a href="${hrefFrom(outDir, col.html)}#${encodeURIComponent(sentenceAnchor(id))}">${esc(label)}</a></td>`;
}

/** The sentences table: each normative sentence, what each run observed of it, disagreements first. */
function sentencesHtml(cmp: Comparison, outDir: string): string {
  const cols = cmp.columns;
  const disagreeing = cmp.sentences.filter((r) => r.disagree).length;
  const rows = cmp.sentences
    .map(
      (r) =>
        `<tr class="${r.disagree ? 'disagree' : 'agree'}" data-id="${esc(r.id)}"><td class="id">${esc(r.id)}</td><td>${esc(r.keyword)}</td><td>${quoteHtml(r.text)}</td>${r.cells.map((v, j) => sentenceCellHtml(outDir, cols[j]!, v, r.id)).join('')}</tr>`,
    )
    .join('\n');
  return `<h2>Normative sentences by implementation</h2>
<p>${disagreeing} of ${cmp.sentences.length} sentences of SPEC.md, security.md and conformance.md are observed differently; they come first. A verdict links to the sentence in that run's spec view.</p>
<table id="sentences">
<thead><tr><th class="id">Sentence</th><th>Key word</th><th>Text</th>${cols.map((c) => `<th>${columnHead(c)}</th>`).join('')}</tr></thead>
<tbody>
${rows}
</tbody>
</table>`;
}

export function renderCompareHtml(cmp: Comparison, outDir: string): string {
  const cols = cmp.columns;
  const runs = cols
    .map(
      (c, i) =>
        `<tr><td>${i + 1}</td><td>${columnHead(c)}</td><td>${c.level}</td><td class="attained">${c.attained === undefined ? 'unknown' : attainedText(c.attained)}</td><td><code>${esc(c.fixtureRevision)}</code></td><td>${esc(c.runner)}</td><td>${c.html ? `<a href="${hrefFrom(outDir, c.html)}">${esc(c.source)}</a>` : esc(c.source)}${c.resultOnly ? ' (result.json only: passed and failed)' : ''}</td></tr>`,
    )
    .join('\n');
  const disagreeing = cmp.rows.filter((r) => r.disagree).length;
  const body: string[] = [];
  cmp.rows.forEach((r, i) => {
    if (i === 0 && r.disagree)
      body.push(`<tr class="sep"><td colspan="${cols.length + 2}">Where the implementations disagree (${disagreeing})</td></tr>`);
    if (!r.disagree && (i === 0 || cmp.rows[i - 1]!.disagree))
      body.push(`<tr class="sep"><td colspan="${cols.length + 2}">Where they agree (${cmp.rows.length - disagreeing})</td></tr>`);
    body.push(
      `<tr class="${r.disagree ? 'disagree' : 'agree'}" data-id="${esc(r.id)}"><td class="id">${esc(r.id)}</td><td>${esc(r.title)}</td>${r.cells.map((cell, j) => cellHtml(outDir, cols[j]!, cell, r.id)).join('')}</tr>`,
    );
  });
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>OAP 1.0.1 conformance: ${cols.length} implementations compared</title>
<style>${CSS}</style>
</head>
<body>
<h1>OAP 1.0.1 conformance: ${cols.length} implementations compared</h1>
<table id="runs">
<thead><tr><th>#</th><th>Implementation</th><th>Level judged</th><th>Attained level</th><th>Fixture revision</th><th>Runner</th><th>Evidence</th></tr></thead>
<tbody>
${runs}
</tbody>
</table>
<h2>Requirement IDs and advisories by implementation</h2>
<p>${disagreeing} of ${cmp.rows.length} IDs get different verdicts; they come first. A verdict links to that run's cases of the ID; the links under it open each case that did not pass.</p>
<table id="matrix">
<thead><tr><th class="id">ID</th><th>What</th>${cols.map((c) => `<th>${columnHead(c)}</th>`).join('')}</tr></thead>
<tbody>
${body.join('\n')}
</tbody>
</table>
${sentencesHtml(cmp, outDir)}
</body>
</html>
`;
}

export function renderCompareMarkdown(cmp: Comparison): string {
  const cols = cmp.columns;
  const out: string[] = [`## OAP 1.0.1 conformance: ${cols.length} implementations compared`, ''];
  out.push('| # | Implementation | Level judged | Attained level | Fixture revision | Runner |', '| --- | --- | --- | --- | --- | --- |');
  cols.forEach((c, i) => {
    out.push(
      `| ${i + 1} | ${mdCell(`${c.implementation} ${c.version}`)} | ${c.level} | ${c.attained === undefined ? 'unknown' : attainedText(c.attained)} | \`${c.fixtureRevision}\` | ${mdCell(c.runner)} |`,
    );
  });
  const disagreeing = cmp.rows.filter((r) => r.disagree).length;
  out.push('', `${disagreeing} of ${cmp.rows.length} IDs get different verdicts; they come first (⚠).`, '');
  out.push(`| ID | What | ${cols.map((_, i) => `#${i + 1}`).join(' | ')} |`, `| --- | --- | ${cols.map(() => '---').join(' | ')} |`);
  for (const r of cmp.rows)
    out.push(`| ${r.disagree ? '⚠ ' : ''}${r.id} | ${mdCell(r.title)} | ${r.cells.map((c) => mdCell(c.verdict)).join(' | ')} |`);
  const sentencesDisagreeing = cmp.sentences.filter((r) => r.disagree).length;
  out.push(
    '',
    '### Normative sentences',
    '',
    `${sentencesDisagreeing} of ${cmp.sentences.length} sentences are observed differently; they come first (⚠).`,
    '',
  );
  out.push(
    `| Sentence | Key word | Text | ${cols.map((_, i) => `#${i + 1}`).join(' | ')} |`,
    `| --- | --- | --- | ${cols.map(() => '---').join(' | ')} |`,
  );
  for (const r of cmp.sentences)
    out.push(
      `| ${r.disagree ? '⚠ ' : ''}${r.id} | ${r.keyword} | ${mdCell(r.text)} | ${r.cells.map((v) => (v === 'unknown' ? 'unknown' : SENTENCE_LABEL[v])).join(' | ')} |`,
    );
  return `${out.join('\n')}\n`;
}

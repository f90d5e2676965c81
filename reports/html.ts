import type { CaseRecord } from '../results/model.js';
import { LEVEL_NAMES, judgedLevels, type RunOutcome } from '../results/outcome.js';
import { isNotPassing } from '../results/predicates.js';
import { CASE_STATUSES } from '../suites/framework/types.js';
import { verdictLabel, verdictLine } from './verdict-line.js';
import { stripControl } from './text.js';

/**
 * report.html: one self-contained file (inline CSS, no scripts, no external assets) with the
 * per-requirement table and every case in a collapsible <details>. All adapter-supplied text goes
 * through esc(); the page also forbids scripts via CSP in case an escape is ever missed.
 */
export function esc(value: unknown): string {
  return stripControl(String(value))
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const CSS = `
body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#1b1f24;max-width:80rem}
h1{font-size:1.4rem}h2{font-size:1.15rem;margin-top:2rem}
table{border-collapse:collapse;width:100%}th,td{border:1px solid #d0d7de;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f6f8fa}td.n{text-align:right}
.pass{color:#1a7f37}.fail{color:#cf222e}.errored,.error,.crash,.timeout{color:#9a6700}.skipped,.untested,.not-applicable{color:#57606a}
.verdict{font-weight:600;font-size:1.1rem}.ok{color:#1a7f37}.bad{color:#cf222e}
details{border:1px solid #d0d7de;border-radius:4px;margin:.3rem 0;padding:.3rem .6rem}summary{cursor:pointer}
pre{background:#f6f8fa;padding:.5rem;overflow:auto;white-space:pre-wrap;word-break:break-word}
dl{display:grid;grid-template-columns:max-content auto;gap:.2rem 1rem}dt{font-weight:600}
`;

export function renderHtml(o: RunOutcome): string {
  const { header, footer } = o.report;
  const hs = header.adapter.handshake;
  const levels = new Set(judgedLevels(o));
  // Each requirement links to the first case that proves it; case anchors are positional so
  // they stay unique and need no escaping.
  const anchor = new Map<CaseRecord, string>(o.report.cases.map((c, i) => [c, `case-${i + 1}`]));
  const firstCase = new Map<string, string>();
  for (const c of o.report.cases) for (const id of c.requirements) if (!firstCase.has(id)) firstCase.set(id, anchor.get(c)!);
  const link = (id: string) => (firstCase.has(id) ? `<a href="#${firstCase.get(id)}">${esc(id)}</a>` : esc(id));
  const rows = [...o.verdicts.byId.values()]
    .filter((v) => levels.has(v.requirement.level))
    .map(
      (v) =>
        `<tr data-id="${esc(v.id)}"><td>${link(v.id)}</td><td>${v.requirement.level}</td><td>${v.requirement.strength}</td>` +
        `<td class="${v.verdict}">${verdictLabel(v)}</td><td class="n">${v.counts.pass}</td><td class="n">${v.counts.fail}</td><td class="n">${v.counts.error}</td>` +
        `<td class="n">${v.counts.inconclusive}</td><td class="n">${v.counts.skipped}</td><td class="n">${v.counts.notApplicable}</td><td>${esc(v.requirement.title)}${v.reason ? `<br><small>${esc(v.reason)}</small>` : ''}</td></tr>`,
    )
    .join('\n');

  const sections = judgedLevels(o)
    .map((level) => {
      const cases = o.report.cases.filter((c) => c.level === level);
      return `<h2>Level ${level} (${LEVEL_NAMES[level]}): ${cases.length} case(s)</h2>\n${cases.map((c) => renderCase(c, anchor.get(c)!)).join('\n')}`;
    })
    .join('\n');

  const counts = footer
    ? `${footer.counts.total} cases: ${CASE_STATUSES.map((s) => `${footer.counts[s]} ${s}`).join(', ')}`
    : `${o.report.cases.length} cases recorded; the report is truncated (no footer)`;

  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>OAP 1.0.1 conformance: ${esc(hs.implementation.name)} ${esc(hs.implementation.version)}</title>
<style>${CSS}</style>
</head>
<body>
<h1>OAP 1.0.1 conformance: ${esc(hs.implementation.name)} ${esc(hs.implementation.version)}</h1>
<p class="verdict ${o.certified ? 'ok' : o.partial !== undefined ? 'partial' : 'bad'}" id="verdict">${esc(verdictLine(o))}</p>
${o.reasons.map((r) => `<p class="bad"><b>${esc(r.code)}</b>: ${esc(r.message)}</p>`).join('\n')}
<dl>
${o.partial === undefined ? `<dt>Attained level</dt><dd id="attained">${o.attained === 0 ? 'none' : o.attained}</dd>` : ''}
<dt>Level judged</dt><dd>${header.level}</dd>
<dt>Adapter</dt><dd>${esc(header.adapter.spec)} (${esc(hs.implementation.language)}${hs.implementation.homepage ? `, ${esc(hs.implementation.homepage)}` : ''})</dd>
<dt>Encodings</dt><dd>${esc(hs.encodings.join(', '))}</dd>
<dt>Discovery roots</dt><dd>${esc(hs.discovery_roots.join(', '))}</dd>
<dt>Fixture revision</dt><dd><code>${esc(header.fixture_revision)}</code>${header.fixture_dirty ? ' (dirty)' : ''}</dd>
<dt>Runner</dt><dd>${esc(header.runner.name)} ${esc(header.runner.version)}, seed ${header.seed}</dd>
<dt>Started</dt><dd>${esc(header.started_at)}</dd>
<dt>Cases</dt><dd>${esc(counts)}</dd>
</dl>
<h2>Requirements</h2>
<table id="requirements">
<thead><tr><th>ID</th><th>Level</th><th>Strength</th><th>Verdict</th><th>Pass</th><th>Fail</th><th>Error</th><th>Inconclusive</th><th>Skipped</th><th>N/A</th><th>Requirement</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
${sections}
</body>
</html>
`;
}

function renderCase(c: CaseRecord, id: string): string {
  const open = isNotPassing(c);
  const json = (v: unknown) => `<pre>${esc(JSON.stringify(v, null, 2) ?? 'undefined')}</pre>`;
  const parts = [
    `<dl><dt>Requirements</dt><dd>${esc(c.requirements.join(', '))}</dd>`,
    `<dt>Status</dt><dd class="${c.status}">${c.status}</dd><dt>Duration</dt><dd>${Math.round(c.durationMs)} ms</dd><dt>Origin</dt><dd>${c.origin}</dd>`,
    c.fixtures?.length ? `<dt>Fixtures</dt><dd>${esc(c.fixtures.join(', '))}</dd>` : '',
    c.status !== 'pass' ? `<dt>Message</dt><dd>${esc(c.message)}</dd>` : '',
    c.status === 'inconclusive' && c.cause ? `<dt>Cause</dt><dd>${esc(c.cause)}</dd>` : '',
    c.status === 'not-applicable' ? `<dt>Probe</dt><dd>${esc(c.probe)}</dd>` : '',
    '</dl>',
    c.status === 'fail' && c.expected !== undefined ? `<h4>Expected</h4>${json(c.expected)}` : '',
    c.status === 'fail' && c.observed !== undefined ? `<h4>Observed</h4>${json(c.observed)}` : '',
    c.notes && Object.keys(c.notes).length > 0 ? `<h4>Notes</h4>${json(c.notes)}` : '',
    c.stderr ? `<h4>Adapter stderr</h4><pre>${esc(c.stderr)}</pre>` : '',
  ];
  return `<details class="case" id="${id}"${open ? ' open' : ''}><summary><span class="${c.status}">${c.status.toUpperCase()}</span> ${esc(c.id)}: ${esc(c.title)}</summary>\n${parts.join('')}\n</details>`;
}

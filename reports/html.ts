import { createHash } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type { CaseRecord } from '../results/model.js';
import { groupFailures, FAILURE_CLASSES } from '../results/groups.js';
import { inconclusiveSentence, inconclusiveSummary } from '../results/inconclusive.js';
import { LEVEL_NAMES, judgedLevels, type RunOutcome } from '../results/outcome.js';
import { isNotPassing } from '../results/predicates.js';
import { rerunCommand } from '../results/rerun.js';
import { CASE_STATUSES } from '../results/record.js';
import { SENTENCE_VERDICTS, type SentenceVerdictKind } from '../results/sentences.js';
import { causeOf, differenceCells, differenceLine, differencesOf, inputText, readingsOfRecord } from './failure.js';
import { attainedText, verdictLabel, verdictLine } from './verdict-line.js';
import { stripControl } from './text.js';

/**
 * report.html: one self-contained file. Failures first (grouped, each with its differences, rerun
 * line, inputs and fixture), then the requirement table, the advisories, the spec view (every
 * normative sentence under its heading with this run's verdict, filterable, linked to its cases;
 * see renderSpecView), and every case in a table filterable by status, level, ID and sentence with
 * a search box. The filter is a tiny grammar (`s:fail l:2
 * r:L1-I3 !s:pass "free text"`, as Playwright's HTML reporter has it), kept in the URL hash so any
 * view is a link; each case is anchored by its ID and expands in place. The page allows exactly one
 * inline script, named in the CSP by its hash; with scripts off every case is still shown and
 * expandable (the filter form stays hidden). All adapter-supplied text goes through esc().
 */
export function esc(value: unknown): string {
  return stripControl(String(value))
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** The anchor of a case: its ID, which is stable across runs (unlike a position). */
export function caseAnchor(id: string): string {
  return `case-${id}`;
}

const CSS = `
body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#1b1f24;max-width:90rem}
h1{font-size:1.4rem}h2{font-size:1.15rem;margin-top:2rem}h3{font-size:1rem;margin:1.2rem 0 .3rem}
table{border-collapse:collapse;width:100%}th,td{border:1px solid #d0d7de;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f6f8fa}td.n{text-align:right}td.id,th.id,.nowrap{white-space:nowrap}
.pass{color:#1a7f37}.fail{color:#cf222e}.errored,.error,.timeout{color:#9a6700}.inconclusive{color:#8250df}.skipped,.untested,.not-applicable{color:#57606a}
.verdict{font-weight:600;font-size:1.1rem}.ok{color:#1a7f37}.bad{color:#cf222e}.partial{color:#9a6700}
details{margin:.1rem 0}summary{cursor:pointer}
pre{background:#f6f8fa;padding:.5rem;overflow:auto;white-space:pre-wrap;word-break:break-word;margin:.3rem 0}
dl{display:grid;grid-template-columns:max-content auto;gap:.2rem 1rem}dt{font-weight:600}
.group{border:1px solid #d0d7de;border-left:4px solid #cf222e;border-radius:4px;margin:.6rem 0;padding:.4rem .8rem}
.group.adapter,.group.not-judged{border-left-color:#9a6700}.group.suite{border-left-color:#8250df}
.diffs td{font-family:ui-monospace,monospace}.rerun{display:flex;gap:.5rem;align-items:flex-start}.rerun pre{flex:1}
#counts a{margin-right:.8rem}#filter{margin:.5rem 0;display:flex;gap:.5rem;flex-wrap:wrap}#filter[hidden]{display:none}#filter input{flex:1;min-width:20rem}
tr.hidden{display:none}
#spec-text .hidden{display:none}#spec-text h4{margin:.8rem 0 .2rem;font-size:.95rem}
.sentence{margin:.25rem 0;padding:.2rem .5rem;border-left:4px solid #d0d7de}.sentence q{quotes:none}
.sentence.v-pass{border-left-color:#1a7f37}.sentence.v-fail{border-left-color:#cf222e;background:#fff5f5}
.sentence.v-not-observed{border-left-color:#9a6700}.sentence.v-excluded,.sentence.v-not-applicable{border-left-color:#8c959f}
.mark{font-size:.8rem;font-weight:600;margin-right:.4rem}.mark.not-observed{color:#9a6700}.mark.excluded{color:#57606a}
.sid{font-family:ui-monospace,monospace;font-size:.85rem;margin-right:.4rem}
#spec-filter{margin:.5rem 0;display:flex;gap:.5rem;flex-wrap:wrap}#spec-filter[hidden]{display:none}#spec-filter input{flex:1;min-width:20rem}
`;

/**
 * The filter and the hash state. Grammar: tokens separated by spaces; `s:STATUS`, `l:LEVEL`,
 * `r:REQUIREMENT` (a trailing `*` matches a prefix), `!` before a token negates it, `"quoted text"`
 * and any other word match case IDs and titles (case-insensitive). The hash is `#q=<query>` and,
 * when a case is open, `&open=<case ID>`; `#case-<ID>` opens that case.
 */
const SCRIPT = `(function () {
  var form = document.getElementById('filter');
  var q = document.getElementById('q');
  var fs = document.getElementById('fs');
  var fl = document.getElementById('fl');
  var shown = document.getElementById('shown');
  var rows = Array.prototype.slice.call(document.querySelectorAll('#cases > tbody > tr'));
  form.hidden = false;
  Array.prototype.forEach.call(document.querySelectorAll('button.copy'), function (b) {
    b.hidden = false;
    b.addEventListener('click', function () {
      if (navigator.clipboard) navigator.clipboard.writeText(b.getAttribute('data-copy')).catch(function () {});
    });
  });
  function parse(text) {
    var out = [];
    var re = /(!?)(?:(\\w):)?(?:"([^"]*)"|(\\S+))/g;
    var m;
    while ((m = re.exec(text))) {
      var value = (m[3] !== undefined ? m[3] : m[4]).toLowerCase();
      if (value) out.push({ neg: m[1] === '!', key: m[2] || '', value: value });
    }
    return out;
  }
  function test(row, t) {
    var d = row.dataset;
    if (t.key === 's') return d.status === t.value;
    if (t.key === 't') return d.sentences.toLowerCase().split(' ').indexOf(t.value) >= 0;
    if (t.key === 'l') return d.level === t.value;
    if (t.key === 'r') {
      var reqs = d.reqs.toLowerCase().split(' ');
      if (t.value.slice(-1) === '*') return reqs.some(function (r) { return r.indexOf(t.value.slice(0, -1)) === 0; });
      return reqs.indexOf(t.value) >= 0;
    }
    return d.id.toLowerCase().indexOf(t.value) >= 0 || d.title.toLowerCase().indexOf(t.value) >= 0;
  }
  function apply(text) {
    var tokens = parse(text);
    var n = 0;
    rows.forEach(function (row) {
      var ok = tokens.every(function (t) { return test(row, t) !== t.neg; });
      row.classList.toggle('hidden', !ok);
      if (ok) n++;
    });
    shown.textContent = n + ' of ' + rows.length + ' cases shown';
    var only = function (key) {
      var v = tokens.filter(function (t) { return t.key === key && !t.neg; });
      return v.length === 1 ? v[0].value : '';
    };
    fs.value = only('s');
    fl.value = only('l');
  }
  function state() {
    var h = location.hash.slice(1);
    if (h.indexOf('case-') === 0) return { q: '', open: decodeURIComponent(h.slice(5)), sq: '' };
    if (h.indexOf('sentence-') === 0) return { q: '', open: '', sq: '' };
    var p = new URLSearchParams(h);
    return { q: p.get('q') || '', open: p.get('open') || '', sq: p.get('sq') || '' };
  }
  function write(patch) {
    var s = state();
    Object.keys(patch).forEach(function (k) { s[k] = patch[k]; });
    var p = new URLSearchParams();
    if (s.q) p.set('q', s.q);
    if (s.open) p.set('open', s.open);
    if (s.sq) p.set('sq', s.sq);
    var h = p.toString();
    history.replaceState(null, '', h ? '#' + h : location.pathname + location.search);
  }
  var sq = document.getElementById('sq');
  var sv = document.getElementById('sv');
  var sshown = document.getElementById('sshown');
  var sentences = Array.prototype.slice.call(document.querySelectorAll('#spec-text .sentence'));
  var sections = Array.prototype.slice.call(document.querySelectorAll('#spec-text section'));
  document.getElementById('spec-filter').hidden = false;
  function stest(el, t) {
    var d = el.dataset;
    if (t.key === 'v') return d.verdict === t.value;
    if (t.key === 'k') return d.keyword.indexOf(t.value) === 0;
    if (t.key === 'f') return d.source === t.value;
    return d.id.toLowerCase().indexOf(t.value) >= 0 || el.textContent.toLowerCase().indexOf(t.value) >= 0;
  }
  function sapply(text) {
    var tokens = parse(text);
    var n = 0;
    sentences.forEach(function (el) {
      var ok = tokens.every(function (t) { return stest(el, t) !== t.neg; });
      el.classList.toggle('hidden', !ok);
      if (ok) n++;
    });
    sections.forEach(function (sec) { sec.classList.toggle('hidden', !sec.querySelector('.sentence:not(.hidden)')); });
    sshown.textContent = n + ' of ' + sentences.length + ' sentences shown';
    var v = tokens.filter(function (t) { return t.key === 'v' && !t.neg; });
    sv.value = v.length === 1 ? v[0].value : '';
  }
  function restore() {
    var s = state();
    q.value = s.q;
    apply(s.q);
    sq.value = s.sq;
    sapply(s.sq);
    if (s.open) {
      var row = document.getElementById('case-' + s.open);
      if (row) {
        var det = row.querySelector('details');
        if (det) det.open = true;
        row.scrollIntoView();
      }
    }
  }
  function retoken(key, value) {
    var kept = q.value.split(/\\s+/).filter(function (w) { return w && w.indexOf(key + ':') !== 0; });
    if (value) kept.push(key + ':' + value);
    q.value = kept.join(' ');
    apply(q.value);
    write({ q: q.value });
  }
  q.addEventListener('input', function () { apply(q.value); write({ q: q.value }); });
  sq.addEventListener('input', function () { sapply(sq.value); write({ sq: sq.value }); });
  sv.addEventListener('change', function () {
    var kept = sq.value.split(/\\s+/).filter(function (w) { return w && w.indexOf('v:') !== 0; });
    if (sv.value) kept.push('v:' + sv.value);
    sq.value = kept.join(' ');
    sapply(sq.value);
    write({ sq: sq.value });
  });
  fs.addEventListener('change', function () { retoken('s', fs.value); });
  fl.addEventListener('change', function () { retoken('l', fl.value); });
  form.addEventListener('submit', function (e) { e.preventDefault(); });
  rows.forEach(function (row) {
    var det = row.querySelector('details');
    if (det) det.addEventListener('toggle', function () {
      var s = state();
      if (det.open) write({ open: row.dataset.id });
      else if (s.open === row.dataset.id) write({ open: '' });
    });
  });
  window.addEventListener('hashchange', restore);
  restore();
})();`;

const SCRIPT_HASH = createHash('sha256').update(SCRIPT).digest('base64');

export function renderHtml(o: RunOutcome): string {
  const { header, footer } = o.report;
  const hs = header.adapter.handshake;
  const levels = new Set(judgedLevels(o));
  const sentencesOf = new Map<string, string[]>();
  for (const v of o.sentences) for (const id of v.caseIds) sentencesOf.set(id, [...(sentencesOf.get(id) ?? []), v.sentence.id]);
  const firstCase = new Map<string, string>();
  for (const c of o.report.cases) for (const id of c.requirements) if (!firstCase.has(id)) firstCase.set(id, c.id);
  const link = (id: string) => (firstCase.has(id) ? caseLink(firstCase.get(id)!, id) : esc(id));
  const rows = [...o.verdicts.byId.values()]
    .filter((v) => levels.has(v.requirement.level))
    .map(
      (v) =>
        `<tr data-id="${esc(v.id)}"><td class="id">${link(v.id)}</td><td>${v.requirement.level}</td><td>${v.requirement.strength}</td>` +
        `<td class="${v.verdict}">${verdictLabel(v)}</td><td class="n">${v.counts.pass}</td><td class="n">${v.counts.fail}</td><td class="n">${v.counts.error}</td>` +
        `<td class="n">${v.counts.inconclusive}</td><td class="n">${v.counts.skipped}</td><td class="n">${v.counts.notApplicable}</td><td>${esc(v.requirement.title)}${v.reason ? `<br><small>${esc(v.reason)}</small>` : ''}</td></tr>`,
    )
    .join('\n');

  const counts = `${footer.counts.total} cases: ${CASE_STATUSES.map((s) => `${footer.counts[s]} ${s}`).join(', ')}`;
  const tally = new Map(CASE_STATUSES.map((s) => [s, o.report.cases.filter((c) => c.status === s).length]));
  const statusLinks = CASE_STATUSES.filter((s) => tally.get(s)! > 0)
    .map((s) => `<a class="${s}" href="#q=${encodeURIComponent(`s:${s}`)}">${tally.get(s)} ${s}</a>`)
    .join('');

  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-${SCRIPT_HASH}'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>OAP 1.0.1 conformance: ${esc(hs.implementation.name)} ${esc(hs.implementation.version)}</title>
<style>${CSS}</style>
</head>
<body>
<h1>OAP 1.0.1 conformance: ${esc(hs.implementation.name)} ${esc(hs.implementation.version)}</h1>
<p class="verdict ${o.certified ? 'ok' : o.partial !== undefined ? 'partial' : 'bad'}" id="verdict">${esc(verdictLine(o))}</p>
${o.reasons.map((r) => `<p class="bad"><b>${esc(r.code)}</b>: ${esc(r.message)}</p>`).join('\n')}
<dl>
${o.partial === undefined ? `<dt>Attained level</dt><dd id="attained">${attainedText(o.attained)}</dd>` : ''}
<dt>Level judged</dt><dd>${header.level}</dd>
<dt>Adapter</dt><dd>${esc(header.adapter.spec)} (${esc(hs.implementation.language)}${hs.implementation.homepage ? `, ${esc(hs.implementation.homepage)}` : ''})</dd>
<dt>Encodings</dt><dd>${esc(hs.encodings.join(', '))}</dd>
<dt>Discovery roots</dt><dd>${esc(hs.discovery_roots.join(', '))}</dd>
<dt>Fixture revision</dt><dd><code>${esc(header.fixture_revision)}</code>${header.fixture_dirty ? ' (dirty)' : ''}</dd>
<dt>Runner</dt><dd>${esc(header.runner.name)} ${esc(header.runner.version)}, seed ${header.seed}</dd>
<dt>Started</dt><dd>${esc(header.started_at)}</dd>
<dt>Cases</dt><dd>${esc(counts)}</dd>
</dl>
<p id="counts">${statusLinks}</p>
${renderFailures(o)}
${renderInconclusive(o)}
<h2>Requirements</h2>
<table id="requirements">
<thead><tr><th class="id">ID</th><th>Level</th><th>Strength</th><th>Verdict</th><th>Pass</th><th>Fail</th><th>Error</th><th>Inconclusive</th><th>Skipped</th><th>N/A</th><th>Requirement</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
${renderAdvisories(o)}
${renderSpecView(o)}
<h2 id="all-cases">Cases</h2>
<form id="filter" hidden>
<input type="search" id="q" placeholder='filter: s:fail l:1 r:L1-I3 t:SPEC-2.1-1 !s:pass "text"' aria-label="filter cases" autocomplete="off">
<select id="fs" aria-label="status"><option value="">any status</option>${CASE_STATUSES.map((s) => `<option value="${s}">${s}</option>`).join('')}</select>
<select id="fl" aria-label="level"><option value="">any level</option>${judgedLevels(o)
    .map((l) => `<option value="${l}">level ${l} (${LEVEL_NAMES[l]})</option>`)
    .join('')}</select>
<span id="shown"></span>
</form>
<table id="cases">
<thead><tr><th class="id">Case</th><th>Status</th><th>Level</th><th>Requirements</th><th>Title and evidence</th></tr></thead>
<tbody>
${o.report.cases.map((c) => renderCaseRow(o, c, sentencesOf.get(c.id) ?? [])).join('\n')}
</tbody>
</table>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

function caseLink(id: string, text = id): string {
  return `<a href="#${esc(encodeURIComponent(caseAnchor(id)))}">${esc(text)}</a>`;
}

/** The failure groups, under one heading per class, numbered [i/N]. */
function renderFailures(o: RunOutcome): string {
  const groups = groupFailures(o.report.cases);
  if (groups.length === 0) return '';
  const parts: string[] = [`<h2 id="failures">Failures (${groups.length} group${groups.length === 1 ? '' : 's'})</h2>`];
  let i = 0;
  for (const { class: k, heading } of FAILURE_CLASSES) {
    const inClass = groups.filter((g) => g.class === k);
    if (inClass.length === 0) continue;
    parts.push(`<h3>${esc(heading)}</h3>`);
    for (const g of inClass) {
      i++;
      const c = g.first;
      const count = g.cases.length > 1 ? ` ×${g.cases.length}` : '';
      parts.push(
        `<div class="group ${k}"><p><b>[${i}/${groups.length}] <span class="${c.status}">${c.status.toUpperCase()}</span> ${esc(g.requirements.join(', '))}${count}</b>: ${esc(c.status === 'pass' ? '' : c.message)}</p>`,
        evidence(o, c, { inputsOpen: false }),
        `<p>Case${g.cases.length > 1 ? 's' : ''}: ${g.cases.map((x) => caseLink(x.id)).join(', ')}</p></div>`,
      );
    }
  }
  return parts.join('\n');
}

/** The inconclusive cases by cause, largest first: a sentence each, naming the ID to fix first, with its cases. */
function renderInconclusive(o: RunOutcome): string {
  const { total, groups } = inconclusiveSummary(o.report.cases);
  if (total === 0) return '';
  const items = groups
    .map(
      (g) =>
        `<li><span class="inconclusive">${esc(inconclusiveSentence(g))}</span><br><small>${g.cases.map((x) => caseLink(x.id)).join(', ')}</small></li>`,
    )
    .join('\n');
  return `<h2 id="inconclusive">Could not be judged (${total} case${total === 1 ? '' : 's'})</h2>\n<ul class="causes">\n${items}\n</ul>`;
}

function renderAdvisories(o: RunOutcome): string {
  const list = o.report.advisories ?? [];
  if (list.length === 0) return '';
  const rows = list
    .map(
      (a) =>
        `<tr><td class="id">${esc(a.id)}</td><td>${a.level}</td><td class="${a.verdict}">${a.verdict}</td><td>${esc(a.title)}${a.reason ? `<br><small>${esc(a.reason)}</small>` : ''}</td><td>${esc(a.rests_on)}</td><td>${a.cases.map((id) => caseLink(id)).join(', ')}</td></tr>`,
    )
    .join('\n');
  return `<h2 id="advisories">Advisories</h2>
<p>Spec MUSTs without a conformance requirement ID: judged and reported, never part of passed or failed, never gating a claim.</p>
<table id="advisory-table"><thead><tr><th class="id">Advisory</th><th>Level</th><th>Verdict</th><th>What</th><th>Rests on</th><th>Cases</th></tr></thead>
<tbody>
${rows}
</tbody></table>`;
}

export const SENTENCE_LABEL: Record<SentenceVerdictKind, string> = {
  pass: 'observed pass',
  fail: 'fail',
  'not-observed': 'not observed',
  'not-applicable': 'not applicable',
  excluded: 'excluded',
};
const MAX_SENTENCE_CASES = 6;
const KEYWORDS = /\b(MUST NOT|MUST|SHALL NOT|SHALL|REQUIRED|SHOULD NOT|SHOULD)\b/g;

/** The anchor of a sentence in the spec view: its ID, stable across runs. */
export function sentenceAnchor(id: string): string {
  return `sentence-${id}`;
}

/** A quoted sentence: escaped, its code spans and bold spans rendered, its key words in bold. */
export function quoteHtml(text: string): string {
  return esc(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>')
    .replace(KEYWORDS, '<b>$1</b>');
}

/**
 * The spec view: every normative sentence, in document order under its file and section heading
 * (the sentences are the spec text this report may carry), each marked with this run's verdict,
 * its clauses and a link to the cases that observed it (the case table, filtered by `t:<ID>`), and
 * filterable by verdict, key word, file and text (`v:fail k:must f:security.md "text"`).
 */
function renderSpecView(o: RunOutcome): string {
  const tally = new Map(SENTENCE_VERDICTS.map((v) => [v, o.sentences.filter((x) => x.verdict === v).length]));
  const counts = SENTENCE_VERDICTS.filter((v) => tally.get(v)! > 0)
    .map((v) => `<a class="${v}" href="#sq=${encodeURIComponent(`v:${v}`)}">${tally.get(v)} ${SENTENCE_LABEL[v]}</a>`)
    .join(' ');
  const parts: string[] = [];
  let file = '';
  let section = '';
  for (const v of o.sentences) {
    const s = v.sentence;
    if (s.source !== file) {
      if (section) parts.push('</section>');
      if (file) parts.push('</section>');
      parts.push(`<section class="spec-file"><h3>${esc(s.source)}</h3>`);
      file = s.source;
      section = '';
    }
    if (s.section !== section) {
      if (section) parts.push('</section>');
      parts.push(`<section class="spec-section"><h4>${esc(s.section)}</h4>`);
      section = s.section;
    }
    const anchor = sentenceAnchor(s.id);
    const observed =
      s.clauses.length > 0 || s.advisory
        ? `<br><small>clauses: ${esc([...s.clauses, ...(s.advisory ? [s.advisory] : [])].join(', '))}`
        : '<br><small>';
    const shown = v.caseIds.slice(0, MAX_SENTENCE_CASES).map((id) => caseLink(id));
    const more = v.caseIds.length > MAX_SENTENCE_CASES ? ` and ${v.caseIds.length - MAX_SENTENCE_CASES} more` : '';
    const cases =
      v.caseIds.length > 0
        ? `; <a href="#q=${encodeURIComponent(`t:${s.id}`)}">${v.caseIds.length} case${v.caseIds.length === 1 ? '' : 's'}</a>: ${shown.join(', ')}${more}`
        : '';
    parts.push(
      `<div class="sentence v-${v.verdict}" id="${esc(anchor)}" data-id="${esc(s.id)}" data-verdict="${v.verdict}" data-keyword="${esc(s.keyword.toLowerCase())}" data-source="${esc(s.source.toLowerCase())}">` +
        `<span class="mark ${v.verdict}">${SENTENCE_LABEL[v.verdict]}</span><a class="sid" href="#${esc(encodeURIComponent(anchor))}">${esc(s.id)}</a>` +
        `<q>${quoteHtml(s.text)}</q>${observed}${cases}</small>${v.reason ? `<br><small>${esc(v.reason)}</small>` : ''}</div>`,
    );
  }
  if (section) parts.push('</section>');
  if (file) parts.push('</section>');
  return `<h2 id="spec">The specification, sentence by sentence</h2>
<p>Every sentence of the OAP 1.0.1 SPEC.md, security.md and conformance.md with MUST, MUST NOT, REQUIRED, SHOULD or SHOULD NOT, in document order under its heading, marked with what this run observed: a sentence passes when each clause it rests on has a passing case, and is not observed while one has none.</p>
<p id="spec-counts">${counts}</p>
<form id="spec-filter" hidden>
<input type="search" id="sq" placeholder='filter: v:fail k:must f:security.md "text"' aria-label="filter sentences" autocomplete="off">
<select id="sv" aria-label="verdict"><option value="">any verdict</option>${SENTENCE_VERDICTS.map((v) => `<option value="${v}">${SENTENCE_LABEL[v]}</option>`).join('')}</select>
<span id="sshown"></span>
</form>
<div id="spec-text">
${parts.join('\n')}
</div>`;
}

/** One difference's row: where, expected, observed (a set's missing and extra members). */
function cells(c: { where: string; expected: string; observed: string }): string {
  return `<td class="nowrap">${esc(c.where)}</td><td>${esc(c.expected)}</td><td>${esc(c.observed)}</td>`;
}

/** A failing case's evidence in Playwright's order: cause and differences, rerun line, inputs, fixture, workspace, notes, stderr. */
function evidence(o: RunOutcome, c: CaseRecord, opts: { inputsOpen: boolean }): string {
  const parts: string[] = [];
  const cause = causeOf(c);
  if (cause) parts.push(`<p class="cause"><b>${c.status === 'inconclusive' ? 'Cause' : 'Why'}:</b> ${esc(cause)}</p>`);
  const diffs = differencesOf(c);
  if (diffs.length > 0) {
    parts.push(
      `<table class="diffs"><thead><tr><th>Where</th><th>Expected</th><th>Observed</th></tr></thead><tbody>${diffs
        .map((d) => `<tr title="${esc(differenceLine(d, 10_000))}">${cells(differenceCells(d, 200))}</tr>`)
        .join('')}</tbody></table>`,
    );
  }
  if (isNotPassing(c)) {
    const line = rerunCommand(o.report.header, c);
    parts.push(
      `<div class="rerun"><pre class="rerun-line"><code>${esc(line)}</code></pre><button type="button" class="copy" data-copy="${esc(line)}" hidden>copy</button></div>`,
    );
  }
  for (const [name, value] of Object.entries(c.inputs ?? {}))
    parts.push(
      `<details class="input"${opts.inputsOpen ? ' open' : ''}><summary>input: ${esc(name)}</summary><pre>${esc(inputText(value))}</pre></details>`,
    );
  const readings = readingsOfRecord(c);
  if (readings.length > 0 && isNotPassing(c))
    parts.push(
      `<p><b>Reading:</b> ${readings.map((r) => `<code>${esc(r)}</code>`).join(', ')} <small>(in the oap-conform package)</small></p>`,
    );
  if (c.fixture_files?.length) parts.push(`<p><b>Fixture:</b> ${c.fixture_files.map((f) => `<code>${esc(f)}</code>`).join(', ')}</p>`);
  if (c.workspace) parts.push(`<p><b>Workspace:</b> <a href="${esc(pathToFileURL(c.workspace).href)}">${esc(c.workspace)}</a></p>`);
  return parts.join('\n');
}

function renderCaseRow(o: RunOutcome, c: CaseRecord, sentences: readonly string[]): string {
  const json = (v: unknown) => `<pre>${esc(JSON.stringify(v, null, 2) ?? 'undefined')}</pre>`;
  const body = [
    c.status !== 'pass' ? `<p><b>${c.status === 'not-applicable' ? 'Not applicable' : 'Message'}:</b> ${esc(c.message)}</p>` : '',
    c.status === 'not-applicable' ? `<p><b>Lacks:</b> ${esc(c.need)}</p>` : '',
    evidence(o, c, { inputsOpen: true }),
    `<p><b>Duration</b> ${Math.round(c.durationMs)} ms, <b>origin</b> ${c.origin}${c.fixtures?.length ? `, <b>fixtures</b> ${esc(c.fixtures.join(', '))}` : ''}</p>`,
    c.expectation !== undefined ? `<details><summary>expectation</summary>${json(c.expectation)}</details>` : '',
    c.status === 'fail' && (c.expected !== undefined || c.observed !== undefined)
      ? `<details><summary>expected and observed, whole</summary>${json({ expected: c.expected, observed: c.observed })}</details>`
      : '',
    c.notes && Object.keys(c.notes).length > 0 ? `<details><summary>notes</summary>${json(c.notes)}</details>` : '',
    c.stderr ? `<details><summary>adapter stderr</summary><pre>${esc(c.stderr)}</pre></details>` : '',
  ].join('\n');
  return `<tr id="${esc(caseAnchor(c.id))}" data-id="${esc(c.id)}" data-status="${c.status}" data-level="${c.level}" data-reqs="${esc(c.requirements.join(' '))}" data-sentences="${esc(sentences.join(' '))}" data-title="${esc(c.title)}"><td class="id"><a href="#${esc(encodeURIComponent(caseAnchor(c.id)))}">${esc(c.id)}</a></td><td class="${c.status}">${c.status}</td><td>${c.level}</td><td class="nowrap">${esc(c.requirements.join(', '))}</td><td><details class="case"><summary>${esc(c.title)}</summary>\n${body}\n</details></td></tr>`;
}

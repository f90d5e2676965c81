import { REQUIREMENTS } from '../spec/requirements.js';
import { cutAtBoundary, causeOf, differenceLine, differencesOf, headLines, inputText, readingsOfRecord } from './failure.js';
import { durationText, oneLine, painter, type Colour } from './text.js';
import { FAILURE_CLASSES, groupFailures } from '../results/groups.js';
import { LEVEL_NAMES, judgedLevels, type RunOutcome } from '../results/outcome.js';
import { rerunCommand } from '../results/rerun.js';
import { inconclusiveSentence, inconclusiveSummary } from '../results/inconclusive.js';
import { CASE_STATUSES } from '../results/record.js';
import { attainedText, verdictLabel, verdictLine } from './verdict-line.js';

/** How many failure groups, differences, input lines and case IDs the terminal shows; report.html has all. */
const MAX_GROUPS = 25;
const MAX_DIFFS = 6;
const MAX_INPUT_LINES = 12;
const MAX_CASE_IDS = 6;

const VERDICT_COLOUR: Record<string, Colour> = {
  pass: 'green',
  fail: 'red',
  errored: 'yellow',
  inconclusive: 'magenta',
  skipped: 'gray',
  untested: 'gray',
};

/**
 * The end-of-run summary on stdout: one table per judged level, the case counts, the failures
 * grouped (each with its differences, inputs, fixture files and the line that reruns it), the
 * advisories, then the claim: attained level and verdict line.
 */
export function renderTerminalSummary(o: RunOutcome, opts: { colour?: boolean } = {}): string {
  const paint = painter(opts.colour ?? false);
  const { header, footer } = o.report;
  const lines: string[] = [];
  lines.push(
    oneLine(
      `OAP 1.0.1 conformance of ${header.adapter.handshake.implementation.name} ${header.adapter.handshake.implementation.version} (adapter ${header.adapter.spec}), level ${header.level}`,
      300,
    ),
  );
  const idWidth = Math.max(...REQUIREMENTS.map((q) => q.id.length));
  // A run over part of the suite (--case, --filter, a shard), or one stopped early, lists only the IDs it reached.
  const whole = o.partial === undefined && !footer.interrupted;
  const reached = (v: { caseIds: readonly string[] }): boolean => whole || v.caseIds.length > 0;
  for (const level of judgedLevels(o)) {
    if (![...o.verdicts.byId.values()].some((v) => v.requirement.level === level && reached(v))) continue;
    lines.push('', paint('bold', `Level ${level} (${LEVEL_NAMES[level]})`));
    lines.push(`  ${'ID'.padEnd(idWidth)}  ${'STR'.padEnd(6)}  ${'VERDICT'.padEnd(14)}  PASS  FAIL   ERR  INCO  SKIP   N/A  TITLE`);
    for (const v of o.verdicts.byId.values()) {
      if (v.requirement.level !== level || !reached(v)) continue;
      const n = (x: number) => String(x).padStart(4);
      const label = verdictLabel(v).padEnd(14);
      lines.push(
        `  ${v.id.padEnd(idWidth)}  ${v.requirement.strength.padEnd(6)}  ${paint(VERDICT_COLOUR[v.verdict] ?? 'gray', label)}  ${n(v.counts.pass)}  ${n(v.counts.fail)}  ${n(v.counts.error)}  ${n(v.counts.inconclusive)}  ${n(v.counts.skipped)}  ${n(v.counts.notApplicable)}  ${v.requirement.title}`,
      );
    }
  }
  lines.push('');
  const c = footer.counts;
  const took = Date.parse(footer.finished_at) - Date.parse(header.started_at);
  lines.push(`Cases: ${c.total} total, ${CASE_STATUSES.map((s) => `${c[s]} ${s}`).join(', ')}; took ${durationText(took)}`);
  lines.push(...failureSection(o, paint));
  lines.push(...inconclusiveSection(o));
  lines.push(...disclaimedButPresentSection(o));
  lines.push(...advisorySection(o));

  // Required and SHOULD IDs are reported apart: a SHOULD never decides a claim.
  const judged = [...o.verdicts.byId.values()].filter((v) => v.requirement.level <= header.level && reached(v));
  const must = judged.filter((v) => v.requirement.strength === 'MUST');
  const should = judged.filter((v) => v.requirement.strength === 'SHOULD');
  const passedOf = (vs: typeof judged) => vs.filter((v) => v.verdict === 'pass').length;
  const scope = footer.interrupted
    ? `judged before the run was stopped (${c.total} case(s) ran)`
    : o.partial !== undefined
      ? `reached by this partial run`
      : `up to level ${header.level}`;
  lines.push('', `Required (MUST) IDs ${scope}: ${passedOf(must)}/${must.length} passed`);
  if (should.length > 0) {
    lines.push(
      `Recommended (SHOULD) IDs, reported, never required: ${passedOf(should)}/${should.length} passed (${should.map((v) => `${v.id} ${verdictLabel(v)}`).join(', ')})`,
    );
  }
  if (o.partial === undefined && !footer.interrupted) lines.push('', `Attained level: ${attainedText(o.attained)}`);
  else lines.push('');
  lines.push(paint(o.certified ? 'green' : o.partial !== undefined || footer.interrupted ? 'yellow' : 'red', verdictLine(o)));
  if (o.baseline) {
    lines.push(
      `Baseline: ${o.baseline.expected.length} expected failure(s), ${o.baseline.unexpected.length} unexpected, ${o.baseline.stale.length} stale, ${o.baseline.unmatched.length} unmatched`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** The failures, grouped, under one heading per class, numbered [i/N]. */
function failureSection(o: RunOutcome, paint: ReturnType<typeof painter>): string[] {
  const groups = groupFailures(o.report.cases);
  if (groups.length === 0) return [];
  const out: string[] = [];
  const shown = groups.slice(0, MAX_GROUPS);
  let i = 0;
  for (const { class: k, heading } of FAILURE_CLASSES) {
    const inClass = shown.filter((g) => g.class === k);
    if (inClass.length === 0) continue;
    out.push('', paint('bold', `${heading}:`));
    for (const g of inClass) {
      i++;
      const c = g.first;
      const count = g.cases.length > 1 ? ` ×${g.cases.length}` : '';
      const message = c.status === 'pass' ? '' : c.message;
      out.push(
        '',
        `  ${paint('gray', `[${i}/${groups.length}]`)} ${paint(k === 'check' ? 'red' : 'yellow', c.status.toUpperCase())} ${g.requirements.join(', ')}${count}: ${oneLine(message, 300)}`,
      );
      const cause = causeOf(c);
      if (cause) out.push(`        cause: ${oneLine(cause, 300)}`);
      const diffs = differencesOf(c);
      for (const d of diffs.slice(0, MAX_DIFFS)) out.push(`        ${paint('cyan', oneLine(differenceLine(d), 400))}`);
      if (diffs.length > MAX_DIFFS) out.push(`        … ${diffs.length - MAX_DIFFS} more difference(s) in report.html`);
      const ids = g.cases.map((x) => x.id);
      out.push(
        `        case${ids.length > 1 ? 's' : ''}: ${ids.slice(0, MAX_CASE_IDS).join(', ')}${ids.length > MAX_CASE_IDS ? ` and ${ids.length - MAX_CASE_IDS} more` : ''}`,
      );
      if (c.fixture_files?.length) out.push(`        fixture: ${c.fixture_files.join(', ')}`);
      for (const [name, value] of Object.entries(c.inputs ?? {})) {
        const { lines, more } = headLines(inputText(value), MAX_INPUT_LINES);
        out.push(`        input ${oneLine(name, 200)}:`);
        for (const l of lines) out.push(`          ${cutAtBoundary(l, 160)}`);
        if (more > 0) out.push(`          … ${more} more line(s) in report.html`);
      }
      if (c.workspace) out.push(`        workspace: ${c.workspace}`);
      const readings = readingsOfRecord(c);
      if (readings.length > 0) out.push(`        reading: ${readings.join(', ')}`);
      out.push(`        rerun: ${paint('bold', rerunCommand(o.report.header, c))}`);
    }
  }
  if (groups.length > shown.length) out.push('', `  … and ${groups.length - shown.length} more group(s): see report.html`);
  return out;
}

/** The inconclusive cases by cause, largest first: each a sentence naming the ID to fix first, and its cases. */
function inconclusiveSection(o: RunOutcome): string[] {
  const { total, groups } = inconclusiveSummary(o.report.cases);
  if (total === 0) return [];
  const out = ['', `Could not be judged (${total} case${total === 1 ? '' : 's'}), by cause:`];
  for (const g of groups.slice(0, MAX_GROUPS)) {
    const ids = g.cases.map((x) => x.id);
    out.push(`  ${oneLine(inconclusiveSentence(g), 300)}`);
    out.push(`      ${ids.slice(0, MAX_CASE_IDS).join(', ')}${ids.length > MAX_CASE_IDS ? ` and ${ids.length - MAX_CASE_IDS} more` : ''}`);
  }
  if (groups.length > MAX_GROUPS) out.push(`  … and ${groups.length - MAX_GROUPS} more cause(s): see report.html`);
  return out;
}

/**
 * Capabilities the handshake disclaims but a probe found present (the case note
 * `capability-present-although-disclaimed`): the cases judged with them, so a harness that declares
 * less than it does learns it instead of reading a verdict it cannot explain.
 */
function disclaimedButPresentSection(o: RunOutcome): string[] {
  const cases = new Map<string, string[]>();
  for (const c of o.report.cases) {
    const found = c.notes?.['capability-present-although-disclaimed'];
    if (!Array.isArray(found)) continue;
    for (const what of found) cases.set(String(what), [...(cases.get(String(what)) ?? []), c.id]);
  }
  if (cases.size === 0) return [];
  const out = [
    '',
    'Declared absent in the handshake but present (those cases judged the harness with it; declare it, or stop reading it; INTERPRETATIONS.md#a-capability-declared-absent-but-present):',
  ];
  for (const [what, ids] of cases)
    out.push(
      `  ${oneLine(what, 300)}: ${ids.length} case${ids.length === 1 ? '' : 's'} (${ids.slice(0, MAX_CASE_IDS).join(', ')}${ids.length > MAX_CASE_IDS ? ', …' : ''})`,
    );
  return out;
}

/** Advisories: spec MUSTs without a requirement ID, each with its sentence; never gating. */
function advisorySection(o: RunOutcome): string[] {
  const judged = (o.report.advisories ?? []).filter((a) => a.verdict !== 'untested');
  if (judged.length === 0) return [];
  const out = ['', 'Advisories (spec MUSTs without a requirement ID: reported, never gating):'];
  for (const a of judged) {
    out.push(`  ${a.id}  ${a.verdict.padEnd(12)}  ${a.title}`);
    out.push(`      rests on ${oneLine(a.rests_on, 400)}`);
    if (a.reason) out.push(`      ${oneLine(a.reason, 400)}`);
  }
  return out;
}

import { LEVEL_NAMES, judgedLevels, type RunOutcome } from '../results/outcome.js';
import { isNotPassing, messageOf } from '../results/predicates.js';
import type { Verdict } from '../results/verdicts.js';
import { attainedText, verdictLabel, verdictLine } from './verdict-line.js';
import { causeOf, differenceLine, differencesOf, headLines, inputText, readingsOfRecord } from './failure.js';
import { groupFailures } from '../results/groups.js';
import { rerunCommand } from '../results/rerun.js';
import { inconclusiveSentence, inconclusiveSummary } from '../results/inconclusive.js';
import { oneLine } from './text.js';

/**
 * summary.md for $GITHUB_STEP_SUMMARY: verdict line, attained level, one table row per judged
 * requirement ID, then the non-passing cases. GitHub caps a step summary at 1 MiB, so the case
 * list is bounded; report.html has everything.
 */
const MAX_CASES = 100;
const MAX_GROUPS = 30;
const MAX_DIFFS = 8;
const MAX_INPUT_LINES = 40;
const ICON: Record<Verdict, string> = { pass: '✅', fail: '❌', errored: '⚠️', inconclusive: '❔', skipped: '⏭️', untested: '➖' };

/** Escapes text for a Markdown table cell; HTML is neutralised because GitHub renders some of it. */
export function mdCell(s: string): string {
  return oneLine(s, 300)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]|#~])/g, '\\$1');
}

export function renderMarkdown(o: RunOutcome): string {
  const { header } = o.report;
  const out: string[] = [];
  out.push(`## ${o.certified ? '✅' : '❌'} ${mdCell(verdictLine(o))}`, '');
  if (o.partial === undefined)
    out.push(`**Attained level:** ${o.attained === 0 ? attainedText(0) : `${o.attained} (${LEVEL_NAMES[o.attained]})`}  `);
  out.push(`**Fixture revision:** \`${header.fixture_revision}\`${header.fixture_dirty ? ' (dirty)' : ''}  `);
  out.push(`**Adapter:** ${mdCell(header.adapter.spec)}, seed ${header.seed}`, '');
  for (const reason of o.reasons) out.push(`> **${reason.code}**: ${mdCell(reason.message)}`, '');
  if (o.baseline) {
    out.push(
      `Baseline: ${o.baseline.expected.length} expected failure(s), ${o.baseline.unexpected.length} unexpected, ${o.baseline.stale.length} stale.`,
      '',
    );
  }
  out.push('| ID | Level | Strength | Verdict | Pass | Fail | Error | Inconclusive | Skipped | N/A | Requirement |');
  out.push('| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
  const levels = new Set(judgedLevels(o));
  for (const v of o.verdicts.byId.values()) {
    if (!levels.has(v.requirement.level)) continue;
    const c = v.counts;
    out.push(
      `| ${v.id} | ${v.requirement.level} | ${v.requirement.strength} | ${ICON[v.verdict]} ${verdictLabel(v)} | ${c.pass} | ${c.fail} | ${c.error} | ${c.inconclusive} | ${c.skipped} | ${c.notApplicable} | ${mdCell(v.requirement.title)} |`,
    );
  }
  out.push(...failureGroups(o));
  out.push(...inconclusiveCauses(o));
  const advisories = (o.report.advisories ?? []).filter((a) => a.verdict !== 'untested');
  if (advisories.length > 0) {
    out.push('', '### Advisories', '', 'Spec MUSTs without a requirement ID: reported, never gating a claim.', '');
    out.push('| Advisory | Verdict | What | Rests on |', '| --- | --- | --- | --- |');
    for (const a of advisories) out.push(`| ${a.id} | ${a.verdict} | ${mdCell(a.title)} | ${mdCell(a.rests_on)} |`);
  }
  const failing = o.report.cases.filter(isNotPassing);
  if (failing.length > 0) {
    out.push('', `<details><summary>${failing.length} case(s) not passing</summary>`, '');
    out.push('| Case | Status | Requirements | Message |', '| --- | --- | --- | --- |');
    for (const c of failing.slice(0, MAX_CASES))
      out.push(`| ${mdCell(c.id)} | ${c.status} | ${c.requirements.join(', ')} | ${mdCell(messageOf(c) ?? '')} |`);
    if (failing.length > MAX_CASES) out.push('', `… and ${failing.length - MAX_CASES} more; see report.html.`);
    out.push('', '</details>');
  }
  return `${out.join('\n')}\n`;
}

/** The inconclusive cases by cause, largest first: a sentence each, naming the ID to fix first. */
function inconclusiveCauses(o: RunOutcome): string[] {
  const { total, groups } = inconclusiveSummary(o.report.cases);
  if (total === 0) return [];
  const out = ['', `### Could not be judged (${total} case${total === 1 ? '' : 's'})`, ''];
  for (const g of groups.slice(0, MAX_GROUPS)) {
    const ids = g.cases.map((x) => mdCell(x.id));
    out.push(
      `- ${mdCell(inconclusiveSentence(g))} (${ids.slice(0, 10).join(', ')}${ids.length > 10 ? ` and ${ids.length - 10} more` : ''})`,
    );
  }
  if (groups.length > MAX_GROUPS) out.push(`- … and ${groups.length - MAX_GROUPS} more cause(s); see report.html.`);
  return out;
}

/** Text inside a fenced block: no fence can close it early (the fence is longer than any run of backticks inside). */
function fenced(lang: string, text: string): string[] {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return [`${fence}${lang}`, text, fence];
}

/** The failures, grouped: what differs, which cases, the fixture, the inputs (folded) and the rerun line. */
function failureGroups(o: RunOutcome): string[] {
  const groups = groupFailures(o.report.cases);
  if (groups.length === 0) return [];
  const out: string[] = ['', '### Failures'];
  groups.slice(0, MAX_GROUPS).forEach((g, i) => {
    const c = g.first;
    const message = c.status === 'pass' ? '' : c.message;
    const count = g.cases.length > 1 ? ` ×${g.cases.length}` : '';
    out.push('', `**[${i + 1}/${groups.length}] ${c.status.toUpperCase()} ${g.requirements.join(', ')}${count}**: ${mdCell(message)}`, '');
    const cause = causeOf(c);
    if (cause) out.push(`- cause: ${mdCell(cause)}`);
    for (const d of differencesOf(c).slice(0, MAX_DIFFS)) out.push(`- ${mdCell(differenceLine(d))}`);
    out.push(
      `- case${g.cases.length > 1 ? 's' : ''}: ${g.cases
        .slice(0, 10)
        .map((x) => mdCell(x.id))
        .join(', ')}${g.cases.length > 10 ? ` and ${g.cases.length - 10} more` : ''}`,
    );
    if (c.fixture_files?.length) out.push(`- fixture: ${c.fixture_files.map(mdCell).join(', ')}`);
    if (c.workspace) out.push(`- workspace: ${mdCell(c.workspace)}`);
    const readings = readingsOfRecord(c);
    if (readings.length > 0) out.push(`- reading: ${readings.map((r) => `\`${r}\``).join(', ')}`);
    const inputs = Object.entries(c.inputs ?? {});
    if (inputs.length > 0) {
      out.push('', '<details><summary>inputs</summary>', '');
      for (const [name, value] of inputs) {
        const { lines, more } = headLines(inputText(value), MAX_INPUT_LINES);
        out.push(
          `${mdCell(name)}:`,
          '',
          ...fenced('yaml', lines.join('\n') + (more ? `\n# … ${more} more line(s) in report.html` : '')),
          '',
        );
      }
      out.push('</details>');
    }
    out.push('', ...fenced('sh', rerunCommand(o.report.header, c)));
  });
  if (groups.length > MAX_GROUPS) out.push('', `… and ${groups.length - MAX_GROUPS} more group(s); see report.html.`);
  return out;
}

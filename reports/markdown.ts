import { LEVEL_NAMES, judgedLevels, type RunOutcome } from '../results/outcome.js';
import { isNotPassing, messageOf } from '../results/predicates.js';
import type { Verdict } from '../results/verdicts.js';
import { verdictLabel, verdictLine } from './verdict-line.js';
import { oneLine } from './text.js';

/**
 * summary.md for $GITHUB_STEP_SUMMARY: verdict line, attained level, one table row per judged
 * requirement ID, then the non-passing cases. GitHub caps a step summary at 1 MiB, so the case
 * list is bounded; report.html has everything.
 */
const MAX_CASES = 100;
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
    out.push(`**Attained level:** ${o.attained === 0 ? 'none' : `${o.attained} (${LEVEL_NAMES[o.attained]})`}  `);
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

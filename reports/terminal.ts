import { REQUIREMENTS } from '../suites/requirements.js';
import { oneLine } from './text.js';
import { LEVEL_NAMES, judgedLevels, type RunOutcome } from '../results/outcome.js';
import { isNotPassing, messageOf } from '../results/predicates.js';
import { CASE_STATUSES } from '../suites/framework/types.js';
import { verdictLabel, verdictLine } from './verdict-line.js';

/** The end-of-run summary on stdout: one table per judged level, counts, attained level, verdict. */
export function renderTerminalSummary(o: RunOutcome): string {
  const { header, footer } = o.report;
  const lines: string[] = [];
  lines.push(
    oneLine(
      `OAP 1.0.1 conformance of ${header.adapter.handshake.implementation.name} ${header.adapter.handshake.implementation.version} (adapter ${header.adapter.spec}), level ${header.level}`,
      300,
    ),
  );
  const idWidth = Math.max(...REQUIREMENTS.map((q) => q.id.length));
  for (const level of judgedLevels(o)) {
    lines.push('', `Level ${level} (${LEVEL_NAMES[level]})`);
    lines.push(`  ${'ID'.padEnd(idWidth)}  ${'STR'.padEnd(6)}  ${'VERDICT'.padEnd(12)}  PASS  FAIL   ERR  INCO  SKIP   N/A  TITLE`);
    for (const v of o.verdicts.byId.values()) {
      if (v.requirement.level !== level) continue;
      const n = (x: number) => String(x).padStart(4);
      lines.push(
        `  ${v.id.padEnd(idWidth)}  ${v.requirement.strength.padEnd(6)}  ${verdictLabel(v).padEnd(12)}  ${n(v.counts.pass)}  ${n(v.counts.fail)}  ${n(v.counts.error)}  ${n(v.counts.inconclusive)}  ${n(v.counts.skipped)}  ${n(v.counts.notApplicable)}  ${v.requirement.title}`,
      );
    }
  }
  lines.push('');
  if (footer) {
    const c = footer.counts;
    lines.push(`Cases: ${c.total} total, ${CASE_STATUSES.map((s) => `${c[s]} ${s}`).join(', ')}`);
  } else {
    lines.push(`Cases: ${o.report.cases.length} recorded; report truncated (no footer)`);
  }
  const failing = o.report.cases.filter(isNotPassing);
  if (failing.length > 0) {
    lines.push('', 'Not passing:');
    for (const c of failing.slice(0, 50))
      lines.push(
        `  ${c.status.toUpperCase().padEnd(12)} ${c.id} [${c.requirements.join(', ')}]${messageOf(c) ? `: ${oneLine(messageOf(c) ?? '')}` : ''}`,
      );
    if (failing.length > 50) lines.push(`  ... and ${failing.length - 50} more (see report.html)`);
  }
  // Required and SHOULD IDs are reported apart: a SHOULD never decides a claim.
  const judged = [...o.verdicts.byId.values()].filter((v) => v.requirement.level <= header.level);
  const must = judged.filter((v) => v.requirement.strength === 'MUST');
  const should = judged.filter((v) => v.requirement.strength === 'SHOULD');
  const passedOf = (vs: typeof judged) => vs.filter((v) => v.verdict === 'pass').length;
  lines.push('', `Required (MUST) IDs up to level ${header.level}: ${passedOf(must)}/${must.length} passed`);
  if (should.length > 0) {
    lines.push(
      `Recommended (SHOULD) IDs, reported, never required: ${passedOf(should)}/${should.length} passed (${should.map((v) => `${v.id} ${verdictLabel(v)}`).join(', ')})`,
    );
  }
  if (o.partial === undefined) lines.push('', `Attained level: ${o.attained === 0 ? 'none' : o.attained}`);
  else lines.push('');
  lines.push(verdictLine(o));
  if (o.baseline) {
    lines.push(
      `Baseline: ${o.baseline.expected.length} expected failure(s), ${o.baseline.unexpected.length} unexpected, ${o.baseline.stale.length} stale, ${o.baseline.unmatched.length} unmatched`,
    );
  }
  return `${lines.join('\n')}\n`;
}

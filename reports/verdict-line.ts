import type { RunOutcome } from '../results/outcome.js';
import type { RequirementVerdict } from '../results/verdicts.js';
import { oneLine } from './text.js';

/** The attained level in the one form every format uses: `none`, or the number. */
export function attainedText(attained: 0 | 1 | 2 | 3): string {
  return attained === 0 ? 'none' : String(attained);
}

/** The one line every format leads with: PASS, FAIL, PARTIAL or INTERRUPTED, who, and the level. */
export function verdictLine(o: RunOutcome): string {
  const { header, footer } = o.report;
  const who = oneLine(`${header.adapter.handshake.implementation.name} ${header.adapter.handshake.implementation.version}`);
  // A stopped run says so: what it judged before it stopped is no verdict on the level.
  if (footer.interrupted)
    return `INTERRUPTED: ${who}: the run was stopped after ${footer.counts.total} case(s), so no level is judged (continue it with --resume)`;
  if (o.partial !== undefined) return `PARTIAL: ${who}, ${o.partial}: part of the suite was run, so no level is claimed`;
  const attained = `attained level ${attainedText(o.attained)}`;
  if (o.certified) return `PASS: ${who} meets OAP 1.0.1 level ${header.level} (${attained})`;
  return `FAIL: ${who} does not meet OAP 1.0.1 level ${header.level} (${attained})`;
}

/** A requirement's verdict as shown: `pass (vacuous)` when only confirmed not-applicable cases decided it. */
export function verdictLabel(v: Pick<RequirementVerdict, 'verdict' | 'vacuous'>): string {
  return v.vacuous ? 'pass (vacuous)' : v.verdict;
}

import type { RunOutcome } from '../results/outcome.js';
import { oneLine } from './text.js';

/** The one line every format leads with: PASS or FAIL, who, and the level. */
export function verdictLine(o: RunOutcome): string {
  const { header } = o.report;
  const who = oneLine(`${header.adapter.handshake.implementation.name} ${header.adapter.handshake.implementation.version}`);
  if (o.certified) return `PASS: ${who} meets OAP 1.0.1 level ${header.level} (attained level ${o.attained})`;
  return `FAIL: ${who} does not meet OAP 1.0.1 level ${header.level} (attained level ${o.attained})`;
}

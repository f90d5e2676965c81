import type { BaselineCheck } from '../runner/results/baseline.js';
import type { ConformanceResult } from '../runner/results/conformance-result.js';
import type { RunReport } from '../runner/results/model.js';
import type { ConformanceStatement } from '../runner/results/statement.js';
import type { ClaimCheck, Verdicts } from '../runner/results/verdicts.js';
import { oneLine } from './text.js';

/**
 * Everything a formatter may show, computed once by runner/results/outcome.ts. Formatters only
 * render; none of them judges anything itself.
 */
export interface RunOutcome {
  report: RunReport;
  verdicts: Verdicts;
  result: ConformanceResult;
  statement: ConformanceStatement;
  /** The claim for the run's level (header.level). */
  claim: ClaimCheck;
  attained: 0 | 1 | 2 | 3;
  /** Complete run, claim holds, and no disallowed dirty fixture checkout. */
  certified: boolean;
  /** Dirty fixture checkout without --allow-dirty: the result is written but cannot certify. */
  dirtyBlocked: boolean;
  exitCode: number;
  /** One per reason the exit code is not 0. */
  reasons: ExitReason[];
  baseline?: BaselineCheck;
}

/** Why a run exits non-zero: a stable code and one line. */
export interface ExitReason {
  code: string;
  message: string;
}

export const LEVEL_NAMES = { 1: 'Read', 2: 'Read/Write', 3: 'Full' } as const;

/** The levels a run judged: its level and below. */
export function judgedLevels(outcome: Pick<RunOutcome, 'report'>): (1 | 2 | 3)[] {
  return ([1, 2, 3] as const).filter((l) => l <= outcome.report.header.level);
}

export function verdictLine(o: RunOutcome): string {
  const { header } = o.report;
  const who = oneLine(`${header.adapter.handshake.implementation.name} ${header.adapter.handshake.implementation.version}`);
  if (o.certified) return `PASS: ${who} meets OAP 1.0.1 level ${header.level} (attained level ${o.attained})`;
  return `FAIL: ${who} does not meet OAP 1.0.1 level ${header.level} (attained level ${o.attained})`;
}

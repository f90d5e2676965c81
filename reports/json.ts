import type { RunOutcome } from '../results/outcome.js';

/**
 * The JSON outputs. report.json is the RunReport itself, byte for byte what the result's
 * report_jcs_sha256 note digests (after JCS), so verify can recompute every verdict from it.
 */
const pretty = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

export const renderReportJson = (o: RunOutcome): string => pretty(o.report);
export const renderResultJson = (o: RunOutcome): string => pretty(o.result);
export const renderStatementJson = (o: RunOutcome): string => pretty(o.statement);

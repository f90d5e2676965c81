import type { CaseRecord, RunHeader, RunReport } from './model.js';

/** What a reporter hears when the cases are known and the journal is open. */
export interface RunStart {
  header: RunHeader;
  /** Records kept from a resumed journal. */
  resumed: number;
  /** Cases this run will execute. */
  toRun: number;
}

/**
 * A listener to one run, in the manner of vitest's reporters: every hook optional, called by the
 * engine in order (start, then per case start/end, then end). Reporters get read-only records and
 * judge nothing; the engine never formats text itself.
 */
export interface RunReporter {
  onRunStart?(start: RunStart): void;
  onCaseStart?(c: { readonly id: string; readonly title: string }): void;
  onCaseEnd?(record: Readonly<CaseRecord>): void;
  onRunEnd?(report: Readonly<RunReport>): void;
}

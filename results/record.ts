/**
 * The record vocabulary of a run: how a case ended (a union on `status`, each status with exactly
 * its own fields), who is at fault, and where an expectation and an observation differ. The engine
 * turns a case's ending into one of these (runner/engine/run-case.ts); results, reports and every
 * reader of a run stream read them. Cases never build one: they throw (suites/kit/errors.ts).
 */
import type { Difference } from '../spec/document/differences.js';

export type { Difference };

/**
 * How a case ended. Only `pass` proves anything. `fail` is a violation; `error` and `timeout` say the
 * adapter broke the protocol, crashed or hung (or, with fault `suite`, that our check is broken);
 * `skipped` that the adapter declined; `inconclusive` that the case could not reach the observation
 * it exists for; `not-applicable` that the harness declared, and a probe confirmed, that it lacks a
 * capability the spec makes optional.
 */
export type CaseStatus = 'pass' | 'fail' | 'error' | 'timeout' | 'skipped' | 'inconclusive' | 'not-applicable';

export const CASE_STATUSES: readonly CaseStatus[] = ['pass', 'fail', 'error', 'timeout', 'skipped', 'inconclusive', 'not-applicable'];

/** Who a non-passing record blames: the adapter under test, or our own check. */
type Fault = 'adapter' | 'suite';

interface OutcomeBase {
  id: string;
  requirements: string[];
  durationMs: number;
  /** Observations the case recorded (which evidence judged, counts, learned delimiters...). */
  notes?: Record<string, unknown>;
  /** What the adapter wrote to stderr during the case. */
  stderr?: string;
  /** The inputs that produced a result other than pass (ctx.input): profile text, policy, delta. */
  inputs?: Record<string, unknown>;
  /** Where the case's workspace was kept (--keep-workspaces), named after the case ID. */
  workspace?: string;
  /**
   * The accommodations (suites/kit/forms.ts) that changed an input of this case: the legal form the
   * harness accepted, used in place of the one it refused (calibration, in the run header).
   */
  accommodations?: string[];
}

export type CaseOutcome =
  | (OutcomeBase & { status: 'pass' })
  | (OutcomeBase & {
      status: 'fail';
      /** One line naming the first difference. */
      message: string;
      expected?: unknown;
      observed?: unknown;
      differences?: Difference[];
      /** A fuzz case's finding file: its shrunk counterexample, for `oap-conform replay FILE`. */
      finding?: string;
    })
  | (OutcomeBase & {
      status: 'error';
      message: string;
      fault: Fault;
      /** crash: the adapter process died; protocol: it answered outside the protocol; check: our bug. */
      error: { kind: 'crash' | 'protocol' | 'check'; code?: string; exit_code?: number | null; signal?: string | null };
      /** False when the case never started (the adapter could no longer be run). */
      ran: boolean;
    })
  | (OutcomeBase & { status: 'timeout'; message: string; method: string; limit_ms: number })
  | (OutcomeBase & { status: 'skipped'; message: string; method: string; reason: string })
  | (OutcomeBase & {
      status: 'inconclusive';
      message: string;
      /** The one defect that hid the check, e.g. "control profile rejected: schema at /metadata/revision". */
      cause?: string;
      /** The requirement ID that judges that defect, to fix first (e.g. L1-P2 for a valid profile refused). */
      cause_id?: string;
    })
  | (OutcomeBase & {
      status: 'not-applicable';
      message: string;
      /** The optional capability the harness lacks, e.g. "the user discovery root". */
      need: string;
      /** What the probe observed that confirms the capability is absent. */
      probe: string;
      /** The sentence(s) (spec/sentences.ts) that let a harness below Level 3 lack it. */
      permitted_by: string[];
    });

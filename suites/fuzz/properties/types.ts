import type fc from 'fast-check';
import type { CaseContext } from '../../framework/types.js';

/** One broken expectation, with structured evidence for the report and the finding file. */
export interface Violation {
  message: string;
  expected?: unknown;
  observed?: unknown;
}

export type Verdict =
  | { kind: 'holds' }
  /** The input was not one the spec defines (e.g. the oracle rejects the generated profile). */
  | { kind: 'discard'; reason: string }
  | { kind: 'violated'; violation: Violation };

export const HOLDS: Verdict = { kind: 'holds' };
export const discard = (reason: string): Verdict => ({ kind: 'discard', reason });
export const violated = (message: string, expected?: unknown, observed?: unknown): Verdict => ({
  kind: 'violated',
  violation: { message, expected, observed },
});

/** Counters a case reports through ctx.note, so reject rates are visible in the report. */
export interface FuzzStats {
  runs: number;
  discarded: number;
  /** The adapter rejected an input we could not judge further (legitimately or not). */
  adapterRejected: number;
  adapterCalls: number;
  reasons: Record<string, number>;
}

/** What a property execution has: the case context plus a per-case scratch area. */
export interface ExecEnv {
  readonly ctx: CaseContext;
  readonly stats: FuzzStats;
  /** Fresh, never reused directory (absolute) for one execution: the workspace of that run. */
  freshDir(): string;
  /** Per-case memo (e.g. a learned delimiter), so one execution can reuse what an earlier one found. */
  readonly memo: Map<string, unknown>;
}

/**
 * A fuzz property: a generator of JSON inputs and a judge that runs one input against the adapter.
 * Inputs are plain JSON so that a counterexample can be written to a finding file and replayed.
 * Each property is attributed to exactly one requirement, so a finding counts against only the ID
 * whose rule it broke.
 */
export interface FuzzProperty<I = unknown> {
  /** Stable name; part of case IDs and stored in finding files (`property`). */
  name: string;
  requirement: string;
  title: string;
  /** Relative share of the fuzz budget. */
  weight: number;
  /** Inputs per case: bigger means fewer cases (less overhead), smaller means finer reporting. */
  runsPerCase: number;
  arbitrary(): fc.Arbitrary<I>;
  execute(env: ExecEnv, input: I): Promise<Verdict>;
  /**
   * Extra shrink candidates tried greedily after fast-check's own shrinking, for inputs whose
   * arbitrary cannot shrink structurally (json-schema-faker documents come from an opaque seed).
   */
  shrink?(input: I): I[];
}

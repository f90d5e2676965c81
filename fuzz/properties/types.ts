import type fc from 'fast-check';
import type { Difference } from '../../spec/document/differences.js';
import type { ClauseId } from '../../spec/requirements.js';
import type { CaseContext } from '../../suites/kit/types.js';

/** One broken expectation, with structured evidence for the report and the finding file. */
export interface Violation {
  message: string;
  expected?: unknown;
  observed?: unknown;
  /**
   * Where the answer departs, in its own terms (a contract path such as `/permissions/shell`), when
   * the judge knows; else the record's differences are computed from `expected` and `observed`.
   * A baseline names a fuzz failure by its property and first difference.
   */
  differences?: Difference[];
}

/**
 * Why an input was not judged. Only `holds` and `violated` are judgements; an input that is not
 * judged is never counted as holding (fuzz/check.ts decides the case from the judged count).
 *
 * - `rejected`: the adapter refused the input, or the positive control that makes the input's
 *   observation meaningful, for a reason the property does not judge;
 * - `declined`: the adapter declined a call (AdapterNotImplemented / AdapterSkipped) for this input;
 * - `unclaimed`: the input exists only in an encoding the harness does not claim (encodings beyond
 *   one are optional, SPEC §2.1), so it is outside what this harness can be asked;
 * - `generator`: the input is not one the property claims to generate (a generator bug; the
 *   generator test in tests/fuzz keeps these at zero);
 * - `attributed`: the violation the input shows shows without the feature as well (a layer of an
 *   `extends` chain on its own), so it is the base requirement's, not the property's
 *   (suites/support/attribution.ts).
 */
export type NotJudgedCause = 'rejected' | 'declined' | 'unclaimed' | 'generator' | 'attributed';
export const NOT_JUDGED_CAUSES: readonly NotJudgedCause[] = ['rejected', 'declined', 'unclaimed', 'generator', 'attributed'];

export type Verdict =
  | { kind: 'holds' }
  | { kind: 'violated'; violation: Violation }
  | { kind: 'not-judged'; cause: NotJudgedCause; reason: string; causeId?: string };

export const HOLDS: Verdict = { kind: 'holds' };
export const violated = (message: string, expected?: unknown, observed?: unknown, differences?: Difference[]): Verdict => ({
  kind: 'violated',
  violation: { message, expected, observed, ...(differences?.length ? { differences } : {}) },
});
/** `causeId`: the ID that judges a refusal (suites/support/refusal.ts), when the input was refused. */
export const notJudged = (cause: NotJudgedCause, reason: string, causeId?: string): Verdict => ({
  kind: 'not-judged',
  cause,
  reason,
  ...(causeId ? { causeId } : {}),
});
/** The input is not what the property claims (see `FuzzProperty.malformed`). */
export const malformedInput = (reason: string): Verdict => notJudged('generator', `generated input is malformed: ${reason}`);

/** Counters a case reports through ctx.note, so judged and not-judged shares are visible in the report. */
export interface FuzzStats {
  /** Inputs fast-check drew for the case (shrink candidates not counted). */
  generated: number;
  /** Inputs that were judged (`holds` or `violated`). */
  judged: number;
  notJudged: Record<NotJudgedCause, number>;
  adapterCalls: number;
  /** Why inputs were not judged, with a count each. */
  reasons: Record<string, number>;
}

/** What a property execution has: the case context plus a per-case scratch area. */
export interface ExecEnv {
  readonly ctx: CaseContext;
  readonly stats: FuzzStats;
  /** Fresh, never reused directory (absolute) for one execution: the workspace of that run. */
  freshDir(): string;
  /** Per-case memo (a learned delimiter, a control's outcome), so one execution can reuse what an earlier one found. */
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
  /** The clause(s) of `requirement` the property observes. */
  clauses: readonly ClauseId[];
  title: string;
  /** Relative share of the fuzz budget. */
  weight: number;
  /** Inputs per case: bigger means fewer cases (less overhead), smaller means finer reporting. */
  runsPerCase: number;
  arbitrary(): fc.Arbitrary<I>;
  /**
   * Why `input` is not an input this property claims to generate, or undefined when it is: every
   * document it calls valid passes the oracle (schema and every rule), every document it calls
   * invalid is refused by the oracle for the reason it names, ids are unique, each single-valued
   * field holds one text. Pure (no adapter, no disk), so the generator test can hold every
   * generator to it over many seeds; check.ts asks it before `execute`.
   */
  malformed(input: I): string | undefined;
  /** Judge one well-formed input against the adapter. Declines (AdapterNotImplemented/Skipped) may propagate. */
  execute(env: ExecEnv, input: I): Promise<Verdict>;
  /**
   * Extra shrink candidates tried greedily after fast-check's own shrinking, for inputs whose
   * arbitrary cannot shrink structurally (json-schema-faker documents come from an opaque seed).
   */
  shrink?(input: I): I[];
}

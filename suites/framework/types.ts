import type { MethodName, Params, Result, HandshakeT } from '../../adapters/protocol/messages.js';
import type { Workspace } from './workspace.js';

/**
 * What a case may do with the adapter. `call` validates the response against the protocol schema
 * and throws the engine's typed errors (see ./errors.ts): AdapterNotImplemented / AdapterSkipped
 * when the adapter declines, AdapterProtocolError, AdapterCrashed, AdapterTimeout otherwise.
 * A case never catches those: the engine turns them into statuses.
 */
export interface AdapterRpc {
  call<M extends MethodName>(method: M, params: Params<M>): Promise<Result<M>>;
}

/** A second, separately spawned adapter process that the case may kill (crash-safety cases). */
export interface KillableAdapter extends AdapterRpc {
  readonly pid: number;
  /** Send a request without waiting for the answer. */
  send<M extends MethodName>(method: M, params: Params<M>): void;
  kill(signal?: NodeJS.Signals): Promise<void>;
  close(): Promise<void>;
}

export interface CaseContext {
  readonly adapter: AdapterRpc;
  readonly handshake: HandshakeT;
  /** A fresh temporary workspace for this case; an adapter process's HOME, XDG dirs and TMPDIR point inside it while the case runs. */
  readonly workspace: Workspace;
  /** Deterministic per-case seed derived from the run seed and the case ID. */
  readonly seed: number;
  /** Present only when the adapter can be spawned as its own process (stdio, builtin, or module via the host). */
  spawnAdapter?(): Promise<KillableAdapter>;
  /** Record an observation that goes into the report's case record, e.g. which evidence proved A12. */
  note(key: string, value: unknown): void;
  /**
   * Record an input the case gave the adapter (a profile's text, a policy, a delta), so a reader of
   * a failure sees what produced it. The support layer calls this for every instantiate and apply;
   * the same name with another value is kept as `name (2)`, `name (3)`, ...
   */
  input(name: string, value: unknown): void;
}

export type Encoding = 'yaml' | 'json' | 'md';
export type RootKind = 'managed' | 'user' | 'project' | 'plugin';

/**
 * Capabilities the spec makes optional below Level 3, which a case may need. A case whose need the
 * handshake disclaims first probes that the capability really is absent; only then is it
 * `not-applicable` (and its requirement satisfied vacuously by it). When the probe finds the
 * capability present, the full check runs after all. Level 3 requirements that make a capability
 * mandatory (L3-G1 encodings, L3-G3 roots) check the handshake themselves and never use `needs`
 * for it.
 */
export interface CaseNeeds {
  encodings?: Encoding[];
  roots?: RootKind[];
  /** Loading a profile by path from outside every discovery root (disclaimed by listing
   * `profile-path-outside-roots` in the handshake's `unimplemented`). */
  outsideRoots?: boolean;
  /** A separately spawned, killable adapter process (a runner facility, not a capability: when the
   * runner cannot spawn one, the case is inconclusive). */
  process?: boolean;
}

export interface CaseDef {
  /** Stable, unique, e.g. `L1-I3/shell-allow-under-deny`. Never reuse an ID for a different check. */
  id: string;
  /** The requirement IDs this case proves (at least one). */
  requirements: string[];
  title: string;
  /** Fixture IDs the case uses, for the report. */
  fixtures?: string[];
  needs?: CaseNeeds;
  /** Structured expectation, recorded in the report (never message text). */
  expectation?: unknown;
  /** Source of the case: fixture suite or fuzzer. */
  origin?: 'fixture' | 'fuzz' | 'replay';
  run(ctx: CaseContext): Promise<void>;
}

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

/** One differing place between the expectation and the observation (RFC 6901 pointer). */
export interface Difference {
  pointer: string;
  expected?: unknown;
  observed?: unknown;
}

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
    })
  | (OutcomeBase & {
      status: 'not-applicable';
      message: string;
      /** The optional capability the harness lacks, e.g. "the user discovery root". */
      need: string;
      /** What the probe observed that confirms the capability is absent. */
      probe: string;
    });

import type { MethodName, Params, Result, HandshakeT } from '../../protocol/messages.js';
import type { ClauseId } from '../../spec/requirements.js';
import type { FormAspect } from './accommodations.js';
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
  /**
   * Discovery roots the handshake disclaims but a probe found the harness reading (it listed a
   * profile placed only there): the case judges with them as if declared, so a harness that
   * declares less than it does is never failed for it (the note `capability-present-although-
   * disclaimed` says so in the report).
   */
  readonly rootsFound?: readonly RootKind[];
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
  /**
   * The clause(s) of those IDs the case observes (spec/requirements.ts): at least one for each ID in
   * `requirements`, none of another ID. An ID passes only when each of its clauses has a passing case.
   */
  clauses: readonly ClauseId[];
  title: string;
  /** Fixture IDs the case uses, for the report. */
  fixtures?: string[];
  needs?: CaseNeeds;
  /**
   * The legal forms this case judges (./forms.ts): the run's accommodations of these aspects are not
   * applied to its documents and deltas, so the case builds exactly the form it is about (L2-A4 its
   * pins, L2-A10 an absent revision, ...). Every other aspect takes the accommodation calibration
   * learned, and the record names the ones that changed an input.
   */
  about?: readonly FormAspect[];
  /** Structured expectation, recorded in the report (never message text). */
  expectation?: unknown;
  /** Source of the case: fixture suite or fuzzer. */
  origin?: 'fixture' | 'fuzz' | 'replay';
  run(ctx: CaseContext): Promise<void>;
}

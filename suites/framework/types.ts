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
  /** A fresh temporary workspace for this case; HOME and XDG dirs point inside it. */
  readonly workspace: Workspace;
  /** Deterministic per-case seed derived from the run seed and the case ID. */
  readonly seed: number;
  /** Present only when the adapter can be spawned as its own process (stdio, builtin, or module via the host). */
  spawnAdapter?(): Promise<KillableAdapter>;
  /** Record an observation that goes into the report's case record, e.g. which evidence proved A12. */
  note(key: string, value: unknown): void;
}

export type Encoding = 'yaml' | 'json' | 'md';
export type RootKind = 'managed' | 'user' | 'project' | 'plugin';

/** What a case needs from the adapter beyond its level; a case whose need is unmet is not-applicable. */
export interface CaseNeeds {
  encodings?: Encoding[];
  roots?: RootKind[];
  /** Needs a killable adapter process. */
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

export type CaseStatus = 'pass' | 'fail' | 'error' | 'crash' | 'timeout' | 'skipped' | 'not-applicable';

export interface CaseOutcome {
  id: string;
  requirements: string[];
  status: CaseStatus;
  /** One line: why it failed, errored or was skipped. */
  message?: string;
  expected?: unknown;
  observed?: unknown;
  notes?: Record<string, unknown>;
  durationMs: number;
  stderr?: string;
}

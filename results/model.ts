import type { HandshakeT } from '../protocol/messages.js';
import type { CaseOutcome, CaseStatus } from './record.js';

/** One case of the manifest: what a run was asked to judge. */
export interface ManifestCase {
  id: string;
  requirements: string[];
}

/**
 * The one result model. The engine writes a run stream (results/run-stream.ts): this header, a
 * CaseRecord per case as it finishes and a RunFooter when the run ends. Read back, it is a
 * RunReport for results (verdicts, result.json, verify, gating) and reports/ (formatters). Every
 * output format is derived from this; nothing is computed twice.
 */
export interface RunHeader {
  schema: 'oap-conform.report.v1';
  runner: { name: 'oap-conform'; version: string };
  /** sha256 of the canonical JSON of the requirement manifest plus case IDs/requirements. */
  manifest_digest: string;
  /** Every case of the manifest (the digest's input), so completeness can be recomputed from the report. */
  manifest_cases: ManifestCase[];
  fixture_revision: string;
  /** Uncommitted fixture changes were present in the checkout. */
  fixture_dirty: boolean;
  adapter: { spec: string; handshake: HandshakeT };
  /** The level the run judged (requested with --level, else the adapter's claim). */
  level: 1 | 2 | 3;
  seed: number;
  options: RunOptions;
  /** What calibration learned before the cases (absent with --no-calibrate). */
  calibration?: RunCalibration;
  started_at: string;
  /** How the runner was invoked (`npx oap-conform`), so a rerun line repeats the command the user typed. */
  invoked_as?: string;
}

/**
 * Calibration (suites/calibration): the legal forms tried before the cases, what the adapter said
 * to each, and the accommodations every case not about their aspect then took (each record names
 * the ones that changed its inputs). --resume and a rerun line reuse them.
 */
interface RunCalibration {
  accommodations: string[];
  probes: { subject: 'profile' | 'delta'; form: string; accommodations: string[]; accepted: boolean; evidence: string }[];
  requests: number;
  error?: string;
}

/**
 * The run's parameters as recorded in its header: what a rerun line repeats and what --resume and
 * merge must find equal. The runner builds them from its one RunConfig (runner/engine/config.ts).
 */
export interface RunOptions {
  jobs: number;
  timeout_ms: number;
  filter?: string;
  fuzz: number;
  shard?: { index: number; count: number };
  /** The replayed upstream tree (`--fixtures`), as an absolute path. */
  fixtures_dir?: string;
  /** `sha256:` over every file of the replayed tree (relative path and content). */
  fixtures_digest?: string;
  /** `--case ID`: exactly these cases were run (a rerun of a reported case). */
  case?: string[];
  /** `--check-protocol` and `--process`, which can change a verdict, so a rerun line repeats them. */
  check_protocol?: boolean;
  process?: boolean;
  /**
   * `--adapter-env` as given: `NAME` for a variable passed through from the runner's environment
   * (its value is not recorded), `NAME=VALUE` for a value set on the command line (recorded).
   */
  adapter_env?: string[];
  /** `--max-restarts`, when not the default 5: restarts of a faulted adapter per worker before its remaining cases are errors. */
  max_restarts?: number;
  /** `--no-calibrate`: every case was built in its plain form. */
  calibrate?: false;
  /** `--accommodate`: the accommodations given instead of calibrating. */
  accommodate?: string[];
  /** Set by `merge --allow-partial`: which shards are missing. Such a report never certifies. */
  partial?: string;
}

/** What the report knows of a case besides its outcome. */
export interface CaseInfo {
  title: string;
  /** The clauses of `requirements` the case observes (spec/requirements.ts); verdicts are judged per clause. */
  clauses: string[];
  level: 1 | 2 | 3;
  origin: 'fixture' | 'fuzz' | 'replay';
  fixtures?: string[];
  /** The files of those fixtures, relative to the package root (`fixtures/level-1/…`). */
  fixture_files?: string[];
  /** The case's structured expectation (never message text). */
  expectation?: unknown;
}

/** One case of a run: its outcome (a union on `status`, each with exactly its own fields) and its info. */
export type CaseRecord = CaseOutcome & CaseInfo;

/** The last line of the run stream, written when the run ends; a stream without one is refused by every reader but --resume. */
export interface RunFooter {
  finished_at: string;
  /** False when the run was interrupted. */
  complete: boolean;
  interrupted: boolean;
  counts: Record<CaseStatus, number> & { total: number };
  /** Fuzzing: seed, fuzz cases run, the finding files they wrote (each also its case record's `finding`). */
  fuzz?: { seed: number; cases: number; findings: string[]; rejected_generated?: number };
  /** Why the adapter could not be run, when it could not. */
  adapter_error?: string;
}

/**
 * One advisory (a spec MUST without a conformance ID) as judged from its cases, with the sentence it
 * rests on. Written into report.json for readers; never part of passed/failed, never gating, and
 * `verify` ignores it for claims.
 */
export interface AdvisoryRecord {
  id: string;
  level: 1 | 2 | 3;
  area: string;
  title: string;
  rests_on: string;
  verdict: 'pass' | 'fail' | 'errored' | 'inconclusive' | 'skipped' | 'untested';
  cases: string[];
  reason?: string;
}

/**
 * One whole run: the run stream's header, records and footer (results/run-stream.ts reads and
 * writes it), and report.json is this document.
 */
export interface RunReport {
  header: RunHeader;
  cases: CaseRecord[];
  footer: RunFooter;
  /** Advisories judged at the run's level and below (set when the run is judged). */
  advisories?: AdvisoryRecord[];
}

import type { HandshakeT } from '../adapters/protocol/messages.js';
import type { CaseOutcome } from '../suites/framework/types.js';

/**
 * The one result model. The engine streams CaseRecords into a journal as cases finish and, at the
 * end, hands a RunReport to results (verdicts, result.json, verify, gating) and reports/
 * (formatters). Every output format is derived from this; nothing is computed twice.
 */
export interface RunHeader {
  schema: 'oap-conform.report.v1';
  runner: { name: 'oap-conform'; version: string };
  /** sha256 of the canonical JSON of the requirement manifest plus case IDs/requirements. */
  manifest_digest: string;
  fixture_revision: string;
  /** Uncommitted fixture changes were present in the checkout. */
  fixture_dirty: boolean;
  adapter: { spec: string; handshake: HandshakeT };
  /** The level the run judged (requested with --level, else the adapter's claim). */
  level: 1 | 2 | 3;
  seed: number;
  options: {
    jobs: number;
    timeout_ms: number;
    filter?: string;
    fuzz: number;
    shard?: { index: number; count: number };
    fixtures_dir?: string;
  };
  started_at: string;
}

export interface CaseRecord extends CaseOutcome {
  title: string;
  level: 1 | 2 | 3;
  origin: 'fixture' | 'fuzz' | 'replay';
  fixtures?: string[];
  /** The case's structured expectation when it did not fail with its own. */
  expectation?: unknown;
}

export interface RunFooter {
  finished_at: string;
  /** False when the run was interrupted; absence of the footer means the report was truncated. */
  complete: boolean;
  interrupted: boolean;
  counts: Record<CaseRecord['status'], number> & { total: number };
  /** Fuzzing: seed, cases generated, counterexample files written. */
  fuzz?: { seed: number; cases: number; findings: string[]; rejected_generated?: number };
  /** Why the adapter could not be run, when it could not. */
  adapter_error?: string;
}

export interface RunReport {
  header: RunHeader;
  cases: CaseRecord[];
  footer?: RunFooter;
}

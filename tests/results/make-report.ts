import type { CaseInfo, CaseRecord, RunReport } from '../../results/model.js';
import { manifestCases, manifestDigest } from '../../results/manifest.js';
import { countStatuses } from '../../results/predicates.js';
import type { CaseOutcome, CaseStatus } from '../../results/record.js';
import { clausesOf, levelOfId, REQUIREMENTS } from '../../spec/requirements.js';

/** Test support: RunReports built by hand, as the engine would hand them to finalizeRun. */
const REVISION = '0123456789abcdef0123456789abcdef01234567';

/** The fields each status must carry, with plausible values. */
function statusFields(status: CaseStatus, message: string): CaseOutcome {
  const base = { id: '', requirements: [], durationMs: 5 };
  switch (status) {
    case 'pass':
      return { ...base, status };
    case 'fail':
      return { ...base, status, message };
    case 'error':
      return { ...base, status, message, fault: 'adapter', error: { kind: 'crash', exit_code: 1, signal: null }, ran: true };
    case 'timeout':
      return { ...base, status, message, method: 'instantiate', limit_ms: 10_000 };
    case 'skipped':
      return { ...base, status, message, method: 'instantiate', reason: 'not implemented' };
    case 'inconclusive':
      return { ...base, status, message, cause: 'control profile rejected: schema at /metadata/revision' };
    case 'not-applicable':
      return {
        ...base,
        status,
        message,
        need: 'the user discovery root',
        probe: 'discover did not list a profile placed only in the user root',
        permitted_by: ['CONF-2.2-1'],
      };
  }
}

export function makeCase(
  id: string,
  requirements: string[],
  status: CaseStatus = 'pass',
  extra: Partial<CaseInfo> & {
    message?: string | undefined; // verify.test.ts hands it undefined members on purpose
    notes?: Record<string, unknown>;
    stderr?: string;
    expected?: unknown;
    observed?: unknown;
    finding?: string;
  } = {},
): CaseRecord {
  const level = Math.max(...requirements.map(levelOfId)) as 1 | 2 | 3;
  const { message, ...rest } = extra;
  const outcome = statusFields(status, message ?? `${status} for test`);
  // A case made here observes every clause of its IDs unless the test names the clauses.
  const clauses = requirements.flatMap((r) => clausesOf(r).map((c) => c.id));
  return {
    ...outcome,
    id,
    requirements,
    title: `checks ${requirements.join(', ')}`,
    clauses,
    level,
    origin: 'fixture',
    ...rest,
  } as CaseRecord;
}

export interface MakeReportOptions {
  level?: 1 | 2 | 3;
  /** Status of the one case per requirement ID (default pass); IDs above `level` get no case. */
  statuses?: Record<string, CaseStatus>;
  extraCases?: CaseRecord[];
  dirty?: boolean;
  footer?: Partial<RunReport['footer']>;
  shard?: { index: number; count: number };
  seed?: number;
  name?: string;
}

/** One case per requirement ID at or below the level, `<ID>/basic`, all passing unless overridden. */
export function makeReport(opts: MakeReportOptions = {}): RunReport {
  const level = opts.level ?? 3;
  const cases = REQUIREMENTS.filter((q) => q.level <= level).map((q) => makeCase(`${q.id}/basic`, [q.id], opts.statuses?.[q.id] ?? 'pass'));
  cases.push(...(opts.extraCases ?? []));
  return withFooter(
    {
      header: {
        schema: 'oap-conform.report.v1',
        runner: { name: 'oap-conform', version: '0.1.0' },
        manifest_digest: manifestDigest(cases),
        manifest_cases: manifestCases(cases),
        fixture_revision: REVISION,
        fixture_dirty: opts.dirty ?? false,
        adapter: {
          spec: 'builtin:test',
          handshake: {
            protocol_version: '1.0',
            implementation: { name: opts.name ?? 'testharness', version: '1.2.3', language: 'typescript' },
            level,
            encodings: ['yaml', 'json'],
            discovery_roots: ['project', 'user'],
            unimplemented: ['extends'],
          },
        },
        level,
        seed: opts.seed ?? 42,
        options: { jobs: 1, timeout_ms: 10_000, fuzz: 0, ...(opts.shard ? { shard: opts.shard } : {}) },
        started_at: '2025-01-01T00:00:00.000Z',
      },
      cases,
    },
    opts.footer,
  );
}

/** Recomputes the footer counts from the cases. */
export function withFooter(report: Omit<RunReport, 'footer'>, footer: MakeReportOptions['footer'] = {}): RunReport {
  const counts = countStatuses(report.cases);
  return { ...report, footer: { finished_at: '2025-01-01T00:01:00.000Z', complete: true, interrupted: false, counts, ...footer } };
}

/** Captures writes so tests can assert on summaries without touching the real stdout. */
export function sink(): { write(s: string): boolean; text(): string } {
  let buf = '';
  return {
    write(s: string) {
      buf += s;
      return true;
    },
    text: () => buf,
  };
}

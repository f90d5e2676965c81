import { REQUIREMENTS } from '../spec/requirements.js';
import { REPORT_DIGEST_NOTE } from './digest.js';
import type { RunReport } from './model.js';
import { schemaProblems } from './schemas.js';
import { checkClaim, isComplete, partialRun, type Verdicts } from './verdicts.js';

/** `oap.conformance-result.v1` exactly as spec/schemas/oap-1.0.1/result.schema.json has it. */
export interface ConformanceResult {
  schema: 'oap.conformance-result.v1';
  oap: '1.0';
  maintenance_release: '1.0.1';
  implementation: string;
  implementation_version: string;
  level: 1 | 2 | 3;
  fixture_revision: string;
  passed: string[];
  failed: string[];
  notes?: string[];
  generated_at: string;
}

/**
 * Machine-readable note prefixes. The official schema only allows free strings in `notes`, so
 * everything beyond passed/failed is carried there as `key:value` lines that `verify` parses.
 */
export const NOTE = {
  reportDigest: REPORT_DIGEST_NOTE,
  attained: 'attained_level:',
  claim: 'claim:',
  dirty: 'fixture_dirty:',
  incomplete: 'incomplete:',
  runner: 'runner:',
  manifest: 'manifest_digest:',
  should: 'should_not_required:',
  shouldNotMet: 'should_not_met:',
  vacuous: 'vacuous:',
  advisory: 'advisory:',
  unknown: 'unknown_requirement:',
  partial: 'partial_run:',
  seed: 'seed:',
  fixturesDigest: 'fixtures_digest:',
} as const;

class InvalidResultError extends Error {
  readonly code = 'invalid-result';
}

export interface BuildResultInput {
  report: RunReport;
  verdicts: Verdicts;
  attained: 0 | 1 | 2 | 3;
  reportDigest: string;
  generatedAt: Date;
  /** The dirty fixture checkout was explicitly allowed (--allow-dirty). */
  allowDirty: boolean;
}

export function buildConformanceResult(input: BuildResultInput): ConformanceResult {
  const { report, verdicts, attained } = input;
  const { header } = report;
  const impl = header.adapter.handshake.implementation;
  const claim = checkClaim(header.level, verdicts);
  const notes: string[] = [
    `${NOTE.reportDigest}${input.reportDigest}`,
    `${NOTE.attained}${attained}`,
    partialRun(report) !== undefined
      ? `${NOTE.claim}level ${header.level} not judged (partial run)`
      : claim.holds && isComplete(report)
        ? `${NOTE.claim}level ${header.level} holds`
        : `${NOTE.claim}level ${header.level} does not hold (${claim.problems.length} requirement(s) not passed)`,
    `${NOTE.runner}${header.runner.name}@${header.runner.version}`,
    `${NOTE.manifest}${header.manifest_digest}`,
    `${NOTE.seed}${header.seed}`,
    ...(header.options.fixtures_digest ? [`${NOTE.fixturesDigest}${header.options.fixtures_digest}`] : []),
  ];
  const partial = partialRun(report);
  if (partial !== undefined) notes.push(`${NOTE.partial}${partial} (not a certifying result: run the whole suite, or merge every shard)`);
  if (header.fixture_dirty) {
    notes.push(
      `${NOTE.dirty}true${input.allowDirty ? ' (allowed with --allow-dirty; not a certifying result)' : ' (not a certifying result)'}`,
    );
  }
  if (report.footer.interrupted) notes.push(`${NOTE.incomplete}run interrupted`);
  else if (!report.footer.complete)
    notes.push(`${NOTE.incomplete}run did not complete${report.footer.adapter_error ? `: ${report.footer.adapter_error}` : ''}`);
  for (const v of verdicts.byId.values()) {
    if (v.requirement.level > header.level) continue; // not judged by this run
    // One note per ID that is not a plain pass or a MUST failure, with the case and cause that decided it.
    if (v.verdict === 'pass' && v.vacuous) notes.push(`${NOTE.vacuous}${v.id}: ${v.reason ?? ''}`.trimEnd());
    else if (v.verdict === 'fail' && v.requirement.strength === 'SHOULD')
      notes.push(`${NOTE.shouldNotMet}${v.id}: ${v.reason ?? ''}`.trimEnd());
    else if (v.verdict !== 'pass' && v.verdict !== 'fail') notes.push(`${v.verdict}:${v.id}: ${v.reason ?? ''}`.trimEnd());
  }
  const should = REQUIREMENTS.filter((q) => q.strength === 'SHOULD' && q.level <= header.level).map((q) => q.id);
  if (should.length > 0) notes.push(`${NOTE.should}${should.join(',')}`);
  // Advisories: reported for the reader, never part of passed/failed (their IDs are not requirement IDs).
  for (const a of verdicts.advisories.values()) {
    if (a.advisory.level > header.level || a.verdict === 'untested') continue;
    notes.push(`${NOTE.advisory}${a.id}: ${a.verdict}${a.reason ? `: ${a.reason}` : ''}`);
  }
  for (const id of verdicts.unknown) notes.push(`${NOTE.unknown}${id}`);

  const result: ConformanceResult = {
    schema: 'oap.conformance-result.v1',
    oap: '1.0',
    maintenance_release: '1.0.1',
    implementation: impl.name,
    implementation_version: impl.version,
    level: header.level,
    fixture_revision: header.fixture_revision,
    passed: verdicts.passed,
    failed: verdicts.failed,
    notes,
    generated_at: input.generatedAt.toISOString(),
  };
  // Our own output must be valid; an invalid result is a bug here, never something to write.
  const problems = schemaProblems('result', result);
  if (problems.length > 0) throw new InvalidResultError(`generated result.json violates result.schema.json: ${problems.join('; ')}`);
  return result;
}

/** Parses the `key:value` notes back (last one wins); used by verify and the reporters. */
export function noteValue(result: Pick<ConformanceResult, 'notes'>, prefix: string): string | undefined {
  const found = (result.notes ?? []).filter((n) => n.startsWith(prefix)).at(-1);
  return found?.slice(prefix.length);
}

import type { KeyObject } from 'node:crypto';
import { REQUIREMENT_IDS, requiredIdsUpTo } from '../spec/requirements.js';
import { NOTE, noteValue, type ConformanceResult } from './conformance-result.js';
import { REPORT_DIGEST_NOTE, reportDigest } from './digest.js';
import { manifestDigest, missingCases } from './manifest.js';
import type { RunReport } from './model.js';
import { schemaProblems } from './schemas.js';
import { ATTESTATION_FILE, checkAttestation } from './attestation.js';
import { checkSignature } from './signature.js';
import { computeVerdicts, isComplete, partialRun, sortRequirementIds } from './verdicts.js';

/**
 * Independent checking of a result.json, as a certification authority would do it: the upstream
 * rules (schema, empty `failed`, 40-hex revision, every required ID of the claimed level and below
 * in `passed`), then our bindings: the detailed report recomputes to exactly the same passed/failed
 * and hashes to the digest in the notes, and the ed25519 signature holds.
 */
export interface VerifyInput {
  result: unknown;
  /** The detailed report, read through results/run-stream.ts (schema, footer, no case twice). */
  report?: RunReport | undefined;
  signature?: unknown | undefined;
  /** result.dsse.json and the text of result.json it attests (its subject is the file's bytes). */
  attestation?: { envelope: unknown; resultText: string } | undefined;
  publicKey?: KeyObject | undefined;
  allowDirty?: boolean | undefined;
}

interface VerifyProblem {
  code: string;
  message: string;
}

export interface VerifyOutcome {
  ok: boolean;
  /**
   * Whether passed and failed were recomputed from the case records of a report bound to the
   * result. Without it only the result's structure was checked: every published claim that comes
   * without its report is "structurally valid; evidence not checked", never "verified".
   */
  evidenceChecked: boolean;
  problems: VerifyProblem[];
  warnings: string[];
}

const FULL_SHA = /^[0-9a-f]{40}$/;

export function verifyResult(input: VerifyInput): VerifyOutcome {
  const problems: VerifyProblem[] = [];
  const warnings: string[] = [];
  const fail = (code: string, message: string) => problems.push({ code, message });

  const schema = schemaProblems('result', input.result);
  if (schema.length > 0) {
    fail('schema', `result.json does not match oap.conformance-result.v1: ${schema.join('; ')}`);
    return { ok: false, evidenceChecked: false, problems, warnings }; // nothing below can be trusted on a malformed result
  }
  const result = input.result as ConformanceResult;

  if (!FULL_SHA.test(result.fixture_revision))
    fail('revision', `fixture_revision "${result.fixture_revision}" is not a full 40-hex Git commit`);
  if (result.failed.length > 0) fail('failed-not-empty', `failed is not empty: ${result.failed.join(', ')}`);
  const both = result.passed.filter((id) => result.failed.includes(id));
  if (both.length > 0) fail('contradiction', `in both passed and failed: ${both.join(', ')}`);
  const unknown = [...result.passed, ...result.failed].filter((id) => !REQUIREMENT_IDS.has(id));
  if (unknown.length > 0) fail('unknown-id', `not OAP 1.0.1 requirement IDs: ${unknown.join(', ')}`);
  const passed = new Set(result.passed);
  const missing = requiredIdsUpTo(result.level).filter((id) => !passed.has(id));
  if (missing.length > 0) fail('missing-required', `level ${result.level} requires these IDs in passed: ${missing.join(', ')}`);

  const dirty = noteValue(result, NOTE.dirty);
  if (dirty !== undefined && !input.allowDirty) fail('dirty-fixtures', `produced from a dirty fixture checkout (${dirty})`);
  const partial = noteValue(result, NOTE.partial);
  if (partial !== undefined) fail('partial-run', `the result covers part of the suite only: ${partial}`);
  const incomplete = noteValue(result, NOTE.incomplete);
  if (incomplete !== undefined) fail('incomplete', `the run was incomplete: ${incomplete}`);

  if (input.report !== undefined) checkAgainstReport(result, input.report, fail);

  if (input.publicKey) {
    if (input.signature === undefined) fail('signature-missing', 'a public key was given but there is no signature (result.sig)');
    else {
      const problem = checkSignature(input.result, input.signature, input.publicKey);
      if (problem) fail('signature-invalid', problem);
    }
    if (input.attestation === undefined)
      warnings.push(`no ${ATTESTATION_FILE} beside the result: only the detached signature (result.sig) was checked`);
    else {
      const checked = checkAttestation(input.attestation.envelope, input.publicKey, result, input.attestation.resultText);
      for (const problem of checked.problems) fail('attestation-invalid', `${ATTESTATION_FILE}: ${problem}`);
      for (const warning of checked.warnings) warnings.push(`${ATTESTATION_FILE}: ${warning}`);
    }
  } else if (input.signature !== undefined || input.attestation !== undefined) {
    warnings.push('result is signed but no --key was given: the signature was not checked');
  }
  return { ok: problems.length === 0, evidenceChecked: input.report !== undefined, problems, warnings };
}

function checkAgainstReport(result: ConformanceResult, report: RunReport, fail: (code: string, message: string) => void): void {
  const recorded = noteValue(result, REPORT_DIGEST_NOTE);
  const actual = reportDigest(report);
  if (recorded === undefined) fail('digest-missing', `result.json has no ${REPORT_DIGEST_NOTE} note binding it to a report`);
  else if (recorded !== actual)
    fail('digest-mismatch', `report.json digest ${actual} differs from the ${recorded} recorded in result.json`);

  const h = report.header;
  const partial = partialRun(report);
  if (partial !== undefined && noteValue(result, NOTE.partial) === undefined)
    fail('partial-run', `report.json is of a partial run (${partial}) but result.json does not say so`);
  const pairs: [string, unknown, unknown][] = [
    ['implementation', result.implementation, h.adapter.handshake.implementation.name],
    ['implementation_version', result.implementation_version, h.adapter.handshake.implementation.version],
    ['level', result.level, h.level],
    ['fixture_revision', result.fixture_revision, h.fixture_revision],
  ];
  for (const [field, inResult, inReport] of pairs) {
    if (inResult !== inReport)
      fail('report-mismatch', `${field} is ${JSON.stringify(inResult)} in result.json but ${JSON.stringify(inReport)} in report.json`);
  }
  if (h.fixture_dirty && noteValue(result, NOTE.dirty) === undefined)
    fail('report-mismatch', 'report.json says the fixture checkout was dirty; result.json does not');
  if (noteValue(result, NOTE.fixturesDigest) !== h.options.fixtures_digest)
    fail(
      'report-mismatch',
      `the replayed fixture tree is ${h.options.fixtures_digest ?? 'none'} in report.json but ${noteValue(result, NOTE.fixturesDigest) ?? 'none'} in result.json`,
    );
  if (!isComplete(report)) fail('incomplete', 'report.json is of an interrupted or unfinished run');
  // Completeness is recomputed, not trusted: the case list must hash to the manifest digest, and
  // every manifest case at the judged level and below must have a record.
  if (manifestDigest(h.manifest_cases) !== h.manifest_digest)
    fail('manifest-mismatch', `report.json's case list does not hash to its manifest digest ${h.manifest_digest}`);
  const missing = missingCases(report);
  if (missing.length > 0 && partial === undefined)
    fail(
      'incomplete-cases',
      `${missing.length} case(s) of the manifest have no record in report.json (first: ${missing.slice(0, 3).join(', ')})`,
    );

  // One line per ID whose place in result.json differs from what the report's cases give it.
  const v = computeVerdicts(report.cases);
  const place = (passed: string[], failed: string[], id: string) =>
    passed.includes(id) ? 'passed' : failed.includes(id) ? 'failed' : 'neither passed nor failed';
  const ids = new Set([...result.passed, ...result.failed, ...v.passed, ...v.failed]);
  const diffs: string[] = [];
  for (const id of sortRequirementIds(ids)) {
    const claimed = place(result.passed, result.failed, id);
    const judged = place(v.passed, v.failed, id);
    if (claimed !== judged)
      diffs.push(`${id} is ${claimed} in result.json but the report's cases make it ${v.byId.get(id)?.verdict ?? 'unknown'}`);
  }
  for (const d of diffs) fail('verdict-mismatch', d);
}

import { createHash, type KeyObject, sign } from 'node:crypto';
import { crypto as sigstoreCrypto, dsse } from '@sigstore/core';
import type { ConformanceResult } from './conformance-result.js';
import { canonicalJson } from './digest.js';
import type { RunOutcome } from './outcome.js';
import { schemaProblems } from './schemas.js';
import { keyFingerprint } from './signature.js';

/**
 * The signed result in a format other tools verify: an in-toto Statement (predicate type
 * test-result v0.1) in a DSSE envelope, signed with the same ed25519 key as result.sig, beside it
 * as result.dsse.json. result.sig (a detached signature over the JCS form of result.json) stays.
 *
 * DSSE's pre-authentication encoding and the signature check are @sigstore/core's (the DSSE code
 * of sigstore-js, the maintained JavaScript implementation); the envelope is DSSE's JSON
 * serialization, its payload the Statement. The Statement's subject is result.json by the sha256
 * of its bytes, so a verifier that hashes the file (cosign verify-blob-attestation, for one) finds
 * it; its tests are OAP requirement IDs (results-schema/test-result-statement.schema.json).
 */

/** The envelope's file name, beside result.json. */
export const ATTESTATION_FILE = 'result.dsse.json';
const IN_TOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';
const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
const TEST_RESULT_PREDICATE = 'https://in-toto.io/attestation/test-result/v0.1';

/** in-toto ResourceDescriptor: at least one of uri, digest and content. */
interface ResourceDescriptor {
  name?: string;
  uri?: string;
  digest?: Record<string, string>;
  mediaType?: string;
  annotations?: Record<string, unknown>;
}

export interface TestResultStatement {
  _type: typeof STATEMENT_TYPE;
  subject: ResourceDescriptor[];
  predicateType: typeof TEST_RESULT_PREDICATE;
  predicate: {
    result: 'PASSED' | 'WARNED' | 'FAILED';
    configuration: ResourceDescriptor[];
    passedTests: string[];
    warnedTests: string[];
    failedTests: string[];
  };
}

/** DSSE's JSON serialization: payload and signatures base64 (standard alphabet). */
export interface DsseEnvelope {
  payloadType: string;
  payload: string;
  signatures: { keyid?: string; sig: string }[];
}

const sha256 = (bytes: string | Buffer): string => createHash('sha256').update(bytes).digest('hex');

/**
 * The Statement of a judged run: `resultText` and `reportText` are result.json and report.json as
 * written. FAILED when the run does not certify its claim (every MUST ID of the level and below that
 * did not pass is a failed test), WARNED when it does with a SHOULD ID not met or an advisory
 * failing (those are the warned tests), else PASSED.
 */
export function testResultStatement(o: RunOutcome, resultText: string, reportText: string): TestResultStatement {
  const { header } = o.report;
  const judged = [...o.verdicts.byId.values()].filter((v) => v.requirement.level <= header.level);
  const failedTests = judged.filter((v) => v.requirement.strength === 'MUST' && v.verdict !== 'pass').map((v) => v.id);
  const warnedTests = [...o.verdicts.shouldNotMet, ...(o.report.advisories ?? []).filter((a) => a.verdict === 'fail').map((a) => a.id)];
  const impl = header.adapter.handshake.implementation;
  return {
    _type: STATEMENT_TYPE,
    subject: [
      {
        name: 'result.json',
        digest: { sha256: sha256(resultText) },
        mediaType: 'application/json',
        // The form result.sig signs: the same result re-indented is still this one.
        annotations: { jcs_sha256: sha256(canonicalJson(o.result)) },
      },
    ],
    predicateType: TEST_RESULT_PREDICATE,
    predicate: {
      result: !o.certified || failedTests.length > 0 ? 'FAILED' : warnedTests.length > 0 ? 'WARNED' : 'PASSED',
      configuration: [
        {
          name: 'oap-conform',
          uri: `pkg:npm/oap-conform@${header.runner.version}`,
          annotations: {
            oap: o.result.oap,
            maintenance_release: o.result.maintenance_release,
            level: header.level,
            attained_level: o.attained,
            seed: header.seed,
            adapter: header.adapter.spec,
            implementation: impl.name,
            implementation_version: impl.version,
          },
        },
        { name: 'fixtures', digest: { gitCommit: header.fixture_revision } },
        { name: 'report.json', digest: { sha256: sha256(reportText) }, mediaType: 'application/json' },
      ],
      passedTests: [...o.result.passed],
      warnedTests,
      failedTests,
    },
  };
}

/** The Statement signed into a DSSE envelope with an ed25519 private key. */
export function signStatement(statement: TestResultStatement, privateKey: KeyObject): DsseEnvelope {
  const payload = Buffer.from(JSON.stringify(statement), 'utf8');
  const sig = sign(null, dsse.preAuthEncoding(IN_TOTO_PAYLOAD_TYPE, payload), privateKey);
  return {
    payloadType: IN_TOTO_PAYLOAD_TYPE,
    payload: payload.toString('base64'),
    signatures: [{ keyid: keyFingerprint(privateKey), sig: sig.toString('base64') }],
  };
}

/**
 * An envelope checked as the attestation of `result` (whose file held `resultText`): problems, one
 * line each, empty when a signature by `publicKey` holds over its payload and the payload is the
 * in-toto Statement of this result (subject, predicate type, passed tests); warnings for what holds
 * for oap-conform but not for a tool that hashes the file (result.json re-indented since).
 */
export function checkAttestation(
  envelope: unknown,
  publicKey: KeyObject,
  result: ConformanceResult,
  resultText: string,
): { problems: string[]; warnings: string[] } {
  const layout = schemaProblems('dsse-envelope', envelope);
  if (layout.length > 0) return { problems: [`not a DSSE envelope: ${layout[0]}`], warnings: [] };
  const env = envelope as DsseEnvelope;
  const payload = Buffer.from(env.payload, 'base64');
  const pae = dsse.preAuthEncoding(env.payloadType, payload);
  if (!env.signatures.some((s) => sigstoreCrypto.verify(pae, publicKey, Buffer.from(s.sig, 'base64')))) {
    const mine = keyFingerprint(publicKey);
    const other = env.signatures.every((s) => s.keyid !== undefined && s.keyid !== mine);
    return {
      problems: [
        other
          ? `the envelope was signed with another key (${String(env.signatures[0]?.keyid).slice(0, 12)}…), not the given public key`
          : 'no signature of the envelope holds for the given public key (the payload was changed after signing)',
      ],
      warnings: [],
    };
  }
  let statement: unknown;
  try {
    statement = JSON.parse(payload.toString('utf8'));
  } catch {
    return { problems: ['the envelope payload is not JSON'], warnings: [] };
  }
  const shape = schemaProblems('test-result-statement', statement);
  if (shape.length > 0) return { problems: [`the envelope payload is not an in-toto test-result Statement: ${shape[0]}`], warnings: [] };
  const s = statement as TestResultStatement;
  const problems: string[] = [];
  const warnings: string[] = [];
  const subject = s.subject.find((d) => d.name === 'result.json');
  if (subject?.digest?.sha256 !== sha256(resultText)) {
    if (subject?.annotations?.['jcs_sha256'] === sha256(canonicalJson(result)))
      warnings.push(
        "result.json was re-formatted since it was attested: its content is the attested one (canonical form), but a tool that hashes the file's bytes will not find it as the Statement's subject",
      );
    else problems.push("the Statement's subject is not this result.json (its sha256 differs: the file was changed or replaced)");
  }
  const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));
  if (!same(s.predicate.passedTests, result.passed)) problems.push("the Statement's passed tests are not result.json's passed IDs");
  return { problems, warnings };
}

/**
 * Issue 24 item 4: the signed result as an in-toto Statement (test-result v0.1) in a DSSE envelope,
 * signed with the same ed25519 key as result.sig. Its acceptance: an envelope written by
 * `run --sign` verifies with `verify --key` and fails after one byte of its payload changes, and
 * the envelope is held to the DSSE and in-toto Statement layouts, written out here from their specs
 * rather than taken from our own schemas.
 */
import { createHash, createPublicKey, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dsse } from '@sigstore/core';
import { schemaProblems } from '../../results/schemas.js';
import { generateSigningKeys } from '../../results/signature.js';
import { runCli } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'oap-dsse-'));
const out = join(dir, 'results');
const keys = generateSigningKeys();
const KEY = join(dir, 'signing.key');
const PUB = join(dir, 'signing.pub');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeAll(async () => {
  writeFileSync(KEY, keys.privatePem);
  writeFileSync(PUB, keys.publicPem);
  const r = await runCli([
    'run',
    '--adapter',
    'builtin:reference',
    '--level',
    '1',
    '--fuzz',
    '0',
    '--quiet',
    '--allow-dirty',
    '--sign',
    KEY,
    '--out',
    out,
  ]);
  expect(r.status, r.stderr).toBe(0);
}, 120_000);

const read = (name: string): string => readFileSync(join(out, name), 'utf8');
const envelopeOf = (): { payloadType: string; payload: string; signatures: { keyid?: string; sig: string }[] } =>
  JSON.parse(read('result.dsse.json'));
const verifyKey = () => runCli(['verify', join(out, 'result.json'), '--key', PUB, '--allow-dirty']);

describe('DSSE envelope of the in-toto Statement', () => {
  it('run --sign writes result.dsse.json beside result.sig, and verify --key checks both', async () => {
    expect(read('result.sig')).toContain('"payload": "jcs(result.json)"');
    const r = await verifyKey();
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^verified: .*, signature and result\.dsse\.json valid\n$/);
    expect(r.status).toBe(0);
  });

  it('the envelope has the DSSE JSON layout and its payload the in-toto Statement v1 layout with the test-result v0.1 predicate', () => {
    const env = envelopeOf();
    // DSSE envelope.md: payloadType, payload (base64), signatures [{keyid, sig (base64)}].
    expect(Object.keys(env).sort()).toEqual(['payload', 'payloadType', 'signatures']);
    expect(env.payloadType).toBe('application/vnd.in-toto+json');
    expect(env.signatures).toHaveLength(1);
    expect(env.signatures[0]!.sig).toMatch(/^[A-Za-z0-9+/]+=*$/);
    const statement = JSON.parse(Buffer.from(env.payload, 'base64').toString('utf8'));
    // in-toto spec/v1/statement.md.
    expect(statement._type).toBe('https://in-toto.io/Statement/v1');
    expect(statement.predicateType).toBe('https://in-toto.io/attestation/test-result/v0.1');
    const result = JSON.parse(read('result.json'));
    expect(statement.subject).toEqual([
      expect.objectContaining({
        name: 'result.json',
        digest: { sha256: createHash('sha256').update(read('result.json')).digest('hex') },
      }),
    ]);
    // spec/predicates/test-result.md: result, configuration, passedTests, warnedTests, failedTests.
    const p = statement.predicate;
    expect(Object.keys(p).sort()).toEqual(['configuration', 'failedTests', 'passedTests', 'result', 'warnedTests']);
    expect(['PASSED', 'WARNED', 'FAILED']).toContain(p.result);
    expect(p.result).toBe('PASSED');
    expect(p.passedTests).toEqual(result.passed);
    expect(p.failedTests).toEqual([]);
    // Every ResourceDescriptor has one of uri, digest and content.
    for (const d of p.configuration) expect(d.uri ?? d.digest ?? d.content, JSON.stringify(d)).toBeDefined();
    expect(p.configuration).toContainEqual({ name: 'fixtures', digest: { gitCommit: result.fixture_revision } });
    // And our schemas say the same.
    expect(schemaProblems('dsse-envelope', env)).toEqual([]);
    expect(schemaProblems('test-result-statement', statement)).toEqual([]);
  });

  it('the signature is ed25519 over DSSE’s pre-authentication encoding, as any DSSE verifier computes it', () => {
    // The DSSE spec's own example (protocol.md).
    expect(dsse.preAuthEncoding('http://example.com/HelloWorld', Buffer.from('hello world')).toString()).toBe(
      'DSSEv1 29 http://example.com/HelloWorld 11 hello world',
    );
    const env = envelopeOf();
    const payload = Buffer.from(env.payload, 'base64');
    const type = Buffer.from(env.payloadType);
    const pae = Buffer.concat([Buffer.from(`DSSEv1 ${type.length} `), type, Buffer.from(` ${payload.length} `), payload]);
    expect(verify(null, pae, createPublicKey(keys.publicPem), Buffer.from(env.signatures[0]!.sig, 'base64'))).toBe(true);
  });

  it('one byte of the payload changed: verify --key fails naming the envelope', async () => {
    const original = read('result.dsse.json');
    try {
      const env = envelopeOf();
      const payload = Buffer.from(env.payload, 'base64');
      payload[payload.indexOf('PASSED')] = 'F'.charCodeAt(0);
      writeFileSync(join(out, 'result.dsse.json'), JSON.stringify({ ...env, payload: payload.toString('base64') }));
      const r = await verifyKey();
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(
        'oap-conform: attestation-invalid: result.dsse.json: no signature of the envelope holds for the given public key (the payload was changed after signing)',
      );
    } finally {
      writeFileSync(join(out, 'result.dsse.json'), original);
    }
  });

  it('result.json re-indented still verifies (the JCS signature holds), with a warning that its bytes are no longer the subject', async () => {
    const original = read('result.json');
    try {
      writeFileSync(join(out, 'result.json'), JSON.stringify(JSON.parse(original)));
      const r = await verifyKey();
      expect(r.status).toBe(0);
      expect(r.stderr).toMatch(/warning: result\.dsse\.json: result\.json was re-formatted since it was attested/);
      const changed = { ...JSON.parse(original), implementation_version: '9.9.9' };
      writeFileSync(join(out, 'result.json'), JSON.stringify(changed, null, 2));
      const bad = await verifyKey();
      expect(bad.status).toBe(1);
      expect(bad.stderr).toContain("attestation-invalid: result.dsse.json: the Statement's subject is not this result.json");
    } finally {
      writeFileSync(join(out, 'result.json'), original);
    }
  });
});

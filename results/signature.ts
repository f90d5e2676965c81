import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { canonicalJson } from './digest.js';

/**
 * Detached ed25519 signatures over the JCS form of result.json, written as result.sig. The key
 * fingerprint lets a verifier tell "wrong key" from "tampered result".
 */
/** The detached signature's file name, beside result.json. */
export const SIGNATURE_FILE = 'result.sig';

export interface DetachedSignature {
  schema: 'oap-conform.signature.v1';
  alg: 'ed25519';
  /** What was signed: the RFC 8785 canonical JSON of result.json. */
  payload: 'jcs(result.json)';
  /** sha256 of the public key's SPKI DER encoding. */
  key_sha256: string;
  signature: string;
}

class SignatureError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function generateSigningKeys(): { privatePem: string; publicPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

export function loadPrivateKey(path: string): KeyObject {
  const key = readKey(path, (pem) => createPrivateKey(pem));
  if (key.asymmetricKeyType !== 'ed25519')
    throw new SignatureError('bad-key', `${path} is a ${key.asymmetricKeyType} key; an ed25519 private key is required`);
  return key;
}

/** Accepts a public key PEM or a private key PEM (whose public half is used). */
export function loadPublicKey(path: string): KeyObject {
  const key = readKey(path, (pem) => createPublicKey(pem));
  if (key.asymmetricKeyType !== 'ed25519')
    throw new SignatureError('bad-key', `${path} is a ${key.asymmetricKeyType} key; an ed25519 public key is required`);
  return key;
}

function readKey(path: string, parse: (pem: string) => KeyObject): KeyObject {
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch {
    throw new SignatureError('unreadable-key', `cannot read key file ${path}`);
  }
  try {
    return parse(pem);
  } catch {
    throw new SignatureError('bad-key', `${path} is not a PEM key`);
  }
}

/** sha256 of the public key's SPKI DER encoding: result.sig's key_sha256 and the DSSE envelope's keyid. */
export function keyFingerprint(key: KeyObject): string {
  const pub = key.type === 'private' ? createPublicKey(key) : key;
  return createHash('sha256')
    .update(pub.export({ type: 'spki', format: 'der' }))
    .digest('hex');
}

export function signResult(result: unknown, privateKey: KeyObject): DetachedSignature {
  const signature = sign(null, Buffer.from(canonicalJson(result), 'utf8'), privateKey).toString('base64');
  return {
    schema: 'oap-conform.signature.v1',
    alg: 'ed25519',
    payload: 'jcs(result.json)',
    key_sha256: keyFingerprint(privateKey),
    signature,
  };
}

/** Returns a one-line problem, or undefined when the signature is valid for `result` under `publicKey`. */
export function checkSignature(result: unknown, sig: unknown, publicKey: KeyObject): string | undefined {
  const s = sig as Partial<DetachedSignature> | null;
  if (!s || typeof s !== 'object' || s.alg !== 'ed25519' || typeof s.signature !== 'string') {
    return 'signature file is not an oap-conform ed25519 signature';
  }
  if (s.key_sha256 !== undefined && s.key_sha256 !== keyFingerprint(publicKey)) {
    return `signature was made with another key (${String(s.key_sha256).slice(0, 12)}…), not the given public key`;
  }
  const ok = verify(null, Buffer.from(canonicalJson(result), 'utf8'), publicKey, Buffer.from(s.signature, 'base64'));
  return ok ? undefined : 'signature does not match result.json (the result was changed after signing)';
}

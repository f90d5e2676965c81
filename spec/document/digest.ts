import { createHash } from 'node:crypto';
import { isPlainObject, setOwn, type JsonObject } from './json-data.js';
import { CanonicalizationError, canonicalJson } from './jcs.js';

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** `sha256:` + hex SHA-256 of the UTF-8 JCS form of any JSON value. */
export function documentDigest(value: unknown): string {
  return `sha256:${sha256Hex(canonicalJson(value))}`;
}

/** Profile digest (SPEC §2.2): over the whole document, `state` and `history` included. */
export function profileDigest(doc: unknown): string {
  return documentDigest(doc);
}

/** Applicator- and resolver-owned metadata, excluded so writeback and trust keep the spec digest. */
const SPEC_DIGEST_EXCLUDED_METADATA: readonly string[] = ['revision', 'updated_at', 'trust'];

/**
 * The object the spec digest is computed over: `{metadata: normalized_metadata, spec}`
 * (SPEC §2.2). Throws when the profile has no object `metadata` or no `spec`.
 */
export function specDigestInput(doc: unknown): { metadata: JsonObject; spec: unknown } {
  if (!isPlainObject(doc) || !isPlainObject(doc.metadata)) {
    throw new CanonicalizationError('schema.type', '/metadata', 'spec digest needs an object metadata');
  }
  if (doc.spec === undefined) throw new CanonicalizationError('schema.required', '/spec', 'spec digest needs spec');
  const metadata: JsonObject = {};
  for (const [key, value] of Object.entries(doc.metadata)) {
    if (!SPEC_DIGEST_EXCLUDED_METADATA.includes(key)) setOwn(metadata, key, value);
  }
  return { metadata, spec: doc.spec };
}

export function specDigest(doc: unknown): string {
  return documentDigest(specDigestInput(doc));
}

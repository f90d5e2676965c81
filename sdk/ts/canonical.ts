import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

/**
 * RFC 8785 (JCS) canonical JSON and the SPEC 2.2 digests, for adapters whose harness does not
 * compute them itself. The same `canonicalize` package the runner uses does the serialising; this
 * wrapper refuses what JCS cannot represent (non-finite numbers, non-JSON values) instead of
 * letting it become `null`, because OAP requires rejecting such documents.
 */
export function canonicalJson(value: unknown): string {
  assertJsonData(value);
  const out = canonicalize(value);
  if (out === undefined) throw new Error('value has no JSON form');
  return out;
}

function assertJsonData(value: unknown): void {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`${value} cannot be canonicalized (non-finite number)`);
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) assertJsonData(item);
    return;
  }
  const proto = typeof value === 'object' ? Object.getPrototypeOf(value) : undefined;
  if (proto !== Object.prototype && proto !== null) throw new Error(`${typeof value} is not JSON data`);
  for (const item of Object.values(value as Record<string, unknown>)) assertJsonData(item);
}

/** Metadata the applicator and the resolver own; excluded so write-back and trust keep the spec digest. */
export const SPEC_DIGEST_EXCLUDED_METADATA: readonly string[] = ['revision', 'updated_at', 'trust'];

/** SPEC 2.2 profile digest: `sha256:` + hex SHA-256 of the JCS form of the whole document. */
export function profileDigest(doc: unknown): string {
  return `sha256:${createHash('sha256').update(canonicalJson(doc), 'utf8').digest('hex')}`;
}

/**
 * SPEC 2.2 spec digest (what `session.spec_digest` reports): over `{metadata, spec}` without
 * metadata.revision, updated_at and trust. Compare with `oap-conform validate --digest FILE`.
 */
export function specDigest(doc: { metadata: Record<string, unknown>; spec: unknown }): string {
  const metadata = Object.fromEntries(Object.entries(doc.metadata).filter(([k]) => !SPEC_DIGEST_EXCLUDED_METADATA.includes(k)));
  return profileDigest({ metadata, spec: doc.spec });
}

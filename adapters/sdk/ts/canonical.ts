import { createHash } from 'node:crypto';

/**
 * RFC 8785 (JCS) canonical JSON and the SPEC 2.2 digests, for adapters whose harness does not
 * compute them itself. For values JSON.parse produces, JavaScript's own number formatting and
 * default (UTF-16 code unit) key order are exactly JCS's. Non-finite numbers and non-JSON values
 * throw: JCS cannot represent them, and OAP requires rejecting them.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`${value} cannot be canonicalized (non-finite number)`);
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const proto = typeof value === 'object' ? Object.getPrototypeOf(value) : undefined;
  if (proto === Object.prototype || proto === null) {
    const obj = value as Record<string, unknown>;
    return `{${Object.keys(obj)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`)
      .join(',')}}`;
  }
  throw new Error(`${typeof value} is not JSON data`);
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

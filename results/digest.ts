import { canonicalJson, sha256Hex } from '../spec/document/index.js';

/**
 * result.json is bound to report.json by the SHA-256 of the report's RFC 8785 (JCS) canonical
 * form, not of the file bytes: re-indenting either file does not break the binding, changing any
 * value does. The report must be in written form (see normalizeReport).
 */
export const REPORT_DIGEST_NOTE = 'report_jcs_sha256:';

export function reportDigest(report: unknown): string {
  return sha256Hex(canonicalJson(report));
}

export { canonicalJson };

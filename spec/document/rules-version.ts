import { issue, type OapIssue } from './issue.js';
import { hasOwn, isPlainObject } from './json-data.js';

/** The one `oap` version this implementation implements completely (maintenance release 1.0.1). */
const SUPPORTED_VERSION = { major: 1, minor: 0 } as const;

/**
 * `oap` is MAJOR.MINOR (SPEC §2.4). Another major fails (L1-P3); a higher minor fails too (L1-P4,
 * tightened by the 1.0.1 errata): reading a 1.1 document as 1.0 would mean dropping fields whose
 * semantics we do not know, which is exactly the forward compatibility §2.4 forbids.
 *
 * Runs before schema validation so `oap: "2.0"` is reported as a version problem, not only as a
 * pattern mismatch. Non-strings and strings that are not a version at all are left to the schema.
 */
export function checkVersion(doc: unknown): OapIssue[] {
  if (!isPlainObject(doc) || !hasOwn(doc, 'oap')) return [];
  const v = doc.oap;
  if (typeof v !== 'string') return [];
  const full = /^([0-9]+)\.([0-9]+)$/.exec(v);
  const major = full ? Number(full[1]) : Number(/^([0-9]+)(?:\.|$)/.exec(v)?.[1] ?? NaN);
  if (Number.isNaN(major)) return [];
  const supported = `${SUPPORTED_VERSION.major}.${SUPPORTED_VERSION.minor}`;
  if (major !== SUPPORTED_VERSION.major) {
    return [issue('version-major', '/oap', `oap major version ${major} is not implemented (supported: ${supported})`)];
  }
  if (full && Number(full[2]) > SUPPORTED_VERSION.minor) {
    return [issue('version-minor', '/oap', `oap ${v} is newer than the implemented ${supported}; unsupported minor versions are rejected`)];
  }
  return [];
}

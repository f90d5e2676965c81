import { issue, type OapIssue } from './issue.js';
import { isPlainObject } from './json-data.js';
import { checkDeltaRules } from './rules-delta.js';
import { classifyKind, type DocumentKind } from './rules-kind.js';
import { checkProfileRules, type RuleOptions } from './rules-profile.js';
import { scanDocument } from './rules-scan.js';
import { checkVersion } from './rules-version.js';
import { validateDeltaSchema, validateProfileSchema } from './schema.js';
import { sortIssues } from './sort.js';

export interface DocumentReport {
  /** The kind whose schema and rules were applied; undefined when the kind was not usable. */
  kind: DocumentKind | undefined;
  /** Sorted deterministically (see sort.ts); the document is valid when none is an error. */
  issues: OapIssue[];
}

/**
 * Version, kind, schema and rules for one parsed document. The kind picks the schema; a document
 * whose kind is missing, unknown or reserved gets no schema validation (there is no schema to
 * guess), only the version check and the document-wide scan.
 */
export function validateDocument(doc: unknown, options: RuleOptions = {}): DocumentReport {
  if (!isPlainObject(doc)) {
    return { kind: undefined, issues: [issue('schema.type', '', 'an OAP document must be an object')] };
  }
  const { kind, issues: kindIssues } = classifyKind(doc);
  const issues = [...checkVersion(doc), ...kindIssues];
  if (kind === 'AgentProfile') issues.push(...validateProfileSchema(doc), ...checkProfileRules(doc, options));
  else if (kind === 'AgentStateDelta') issues.push(...validateDeltaSchema(doc), ...checkDeltaRules(doc, options));
  else issues.push(...scanDocument(doc));
  return { kind, issues: sortIssues(issues) };
}

export function isValid(issues: readonly OapIssue[]): boolean {
  return !issues.some((i) => i.severity === 'error');
}

/** A deep copy without object members whose value is `null` (arrays keep their elements). */
export function withoutNullMembers(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutNullMembers);
  if (typeof v !== 'object' || v === null) return v;
  return Object.fromEntries(Object.entries(v).flatMap(([k, x]) => (x === null ? [] : [[k, withoutNullMembers(x)]])));
}

/**
 * A document as validation reads it: in a layer that uses `extends`, an explicit `null` is a merge
 * directive (SPEC §4 rule 3), not a value, so it is left out before validating; the merged result
 * is validated again after the merge (INTERPRETATIONS.md, L3-E1, null in a layer).
 */
export function validationSubject(doc: unknown): unknown {
  const layer =
    typeof doc === 'object' && doc !== null && !Array.isArray(doc) && Array.isArray((doc as Record<string, unknown>)['extends']);
  return layer ? withoutNullMembers(doc) : doc;
}

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

import type { OapIssue } from './issue.js';
import { checkHistory } from './rules-history.js';
import { checkMcpSecrets } from './rules-mcp.js';
import { checkProfilePaths, type PathRuleOptions } from './rules-paths.js';
import { scanDocument } from './rules-scan.js';

export type RuleOptions = PathRuleOptions;

/**
 * The profile rules JSON Schema cannot express: secret literals in MCP env/headers, workspace
 * path escapes, history order against the revision counter, and the document-wide scan
 * (credentials, non-finite numbers, unrepresentable strings). Tolerates any shape; structural problems are the schema's to report.
 */
export function checkProfileRules(doc: unknown, options: RuleOptions = {}): OapIssue[] {
  return [...scanDocument(doc), ...checkMcpSecrets(doc), ...checkProfilePaths(doc, options), ...checkHistory(doc)];
}

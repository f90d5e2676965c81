/**
 * Words the runner and every adapter share. An adapter reports a problem by category, never by our
 * own detail codes, so checks compare categories and pointers, not message text.
 */
export const ISSUE_CATEGORIES = [
  'parse', // the bytes are not a document in the declared encoding
  'duplicate-key', // a mapping/object has the same key twice
  'limit', // a hostile-input bound was hit (size, nesting depth, alias expansion)
  'encoding', // encoding-specific rule (Markdown frontmatter, instructions in both places)
  'schema', // JSON Schema validation failure
  'version-major', // `oap` major version not implemented
  'version-minor', // `oap` minor version higher than implemented
  'kind', // unknown or reserved `kind`
  'secret-literal', // literal value in mcp_servers[].env or headers
  'secret-pattern', // credential-shaped string anywhere in the document
  'path-escape', // a workspace path escapes the workspace
  'delta-scope', // a delta operation outside /state
  'delta-reserved-op', // move/copy/test
  'non-finite', // a number JCS cannot represent
  'extends-cycle',
  'extends-depth',
  'extends-missing',
  'digest-mismatch', // a pinned digest does not match
  'variable-undefined', // ${{ vars.KEY }} with KEY undefined
  'env-missing', // ${ENV} missing for a required MCP server
  'skill-missing', // required skill unavailable
  'store-missing', // required memory store unavailable
  'delegation-denied', // subagent not in runtime.subagents.allow
  'delegation-depth', // max_depth exceeded
  'delegation-concurrency', // max_concurrent exceeded
  'collision', // two profiles with one name in one discovery root
  'revision-conflict', // delta target.revision differs from the profile's
  'io', // the file could not be read or written
  'other',
] as const;

export type IssueCategory = (typeof ISSUE_CATEGORIES)[number];

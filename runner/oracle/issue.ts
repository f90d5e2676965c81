/**
 * One problem found in a document. Every problem the oracle reports carries a stable `code`
 * and an RFC 6901 JSON Pointer into the logical document; `line`/`column` (1-based) are added
 * where the source encoding has them. Messages are for humans and are never compared.
 *
 * A code is `<category>` or `<category>.<detail>`. The category vocabulary is shared with the
 * adapter protocol (adapters report a category, never our detail codes), so checks compare
 * categories and pointers, not text.
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

export interface OapIssue {
  /** Stable machine code: `<category>` or `<category>.<detail>`, e.g. `schema.required`. */
  code: string;
  /** RFC 6901 JSON Pointer into the logical document; `""` is the whole document. */
  pointer: string;
  message: string;
  severity: 'error' | 'warning';
  line?: number;
  column?: number;
}

export function categoryOf(code: string): IssueCategory {
  const head = code.split('.')[0] as IssueCategory;
  return (ISSUE_CATEGORIES as readonly string[]).includes(head) ? head : 'other';
}

export function issue(code: string, pointer: string, message: string, extra: Partial<OapIssue> = {}): OapIssue {
  return { code, pointer, message, severity: 'error', ...extra };
}

/** RFC 6901 encoding of one reference token. */
export function escapePointerToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

export function pointerOf(tokens: ReadonlyArray<string | number>): string {
  return tokens.map((t) => '/' + escapePointerToken(t)).join('');
}

export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new Error(`not a JSON Pointer: ${pointer}`);
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * The reference harness's window onto the document layer (spec/document): reading a document from
 * text or a file through the harness's reader (the readDocument rule). Validation, digests and the
 * rest are rules too (./rules.ts); only document-level rules come from spec/document, every harness
 * behaviour (discovery, resolution, narrowing, prompts, deltas) is implemented in this directory.
 */
import { readFileSync } from 'node:fs';
import { encodingFromPath } from '../../spec/document/index.js';
import { issue, type OapIssue } from '../../spec/document/issue.js';
import { parsePointer, valueAt } from '../../spec/semantics/index.js';
import type { Encoding, Read } from './json.js';
import type { Rules } from './rules.js';

/** A protocol document source: a file, or text in an encoding. */
export type DocumentSource = { path: string } | { content: string; encoding: Encoding };

/** Read a file and parse it in the encoding its name implies. */
export function readDocumentFile(path: string, rules: Rules): Read {
  const encoding = encodingFromPath(path);
  if (!encoding) return { issues: [issue('encoding', '', `no OAP encoding for file name ${path}`)] };
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    return { encoding, issues: [issue('io', '', `cannot read ${path}: ${(err as Error).message}`)] };
  }
  return { encoding, ...rules.readDocument(bytes, encoding) };
}

/** Read a protocol document source. */
export function readSource(source: DocumentSource, rules: Rules): Read {
  return 'path' in source ? readDocumentFile(source.path, rules) : rules.readDocument(source.content, source.encoding);
}

/** The MCP env or header value a finding points at: its place, key and value (for checks of the value itself). */
export function mcpSecretAt(i: OapIssue, doc: unknown): { place: string; key: string; value: unknown } | undefined {
  const m = /^\/spec\/tools\/mcp_servers\/\d+\/(env|headers)\/[^/]+$/.exec(i.pointer);
  const tokens = m ? parsePointer(i.pointer) : undefined;
  return m && tokens ? { place: m[1]!, key: tokens[tokens.length - 1]!, value: valueAt(doc, tokens) } : undefined;
}

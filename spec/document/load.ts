import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { encodingFromPath, type Encoding } from './encoding.js';
import { issue, type OapIssue } from './issue.js';
import { resolveLimits, type ParseLimits } from './limits.js';
import { parseDocument } from './parse.js';
import type { Locate } from './parse-result.js';
import type { DocumentKind } from './rules-kind.js';
import type { RuleOptions } from './rules-profile.js';
import { sizeIssue } from './source.js';
import { isValid, validateDocument } from './validate.js';

export interface LoadedDocument {
  encoding: Encoding | undefined;
  kind: DocumentKind | undefined;
  /** The parsed document; absent when it could not be read or parsed. */
  value?: unknown;
  valid: boolean;
  /** Parse, version, kind, schema and rule issues, with line/column wherever the source has them. */
  issues: OapIssue[];
}

/** Parse + validate text or bytes already in memory. */
export function loadDocument(
  input: string | Uint8Array,
  encoding: Encoding,
  limits?: Partial<ParseLimits>,
  options: RuleOptions = {},
): LoadedDocument {
  const parsed = parseDocument(input, encoding, limits);
  if (!parsed.ok) return { encoding, kind: undefined, valid: false, issues: parsed.issues };
  const report = validateDocument(parsed.value, options);
  const issues = report.issues.map((i) => withPosition(i, parsed.locate));
  return { encoding, kind: report.kind, value: parsed.value, valid: isValid(issues), issues };
}

/**
 * Read, parse and validate one file. Never throws for a bad file: unreadable input becomes an
 * `io.*` issue (`io.not-found`, `io.is-directory`, `io.permission`, `io.read`), an unknown
 * extension `parse.encoding-unknown`, and a file over the size limit `limit.size` before it
 * is read.
 */
export function loadDocumentFile(path: string, limits?: Partial<ParseLimits>, options: RuleOptions = {}): LoadedDocument {
  const encoding = encodingFromPath(path);
  const failed = (i: OapIssue): LoadedDocument => ({ encoding, kind: undefined, valid: false, issues: [i] });
  if (encoding === undefined) {
    return failed(issue('parse.encoding-unknown', '', 'file name has no OAP encoding extension (.yaml, .yml, .json, .md)'));
  }
  const bounds = resolveLimits(limits);
  let bytes: Buffer;
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const stat = fstatSync(fd);
    if (stat.isDirectory()) return failed(issue('io.is-directory', '', `${path} is a directory`));
    if (stat.size > bounds.maxBytes) return failed(sizeIssue(stat.size, bounds.maxBytes));
    bytes = readFileSync(fd);
  } catch (err) {
    return failed(ioIssue(path, err));
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return loadDocument(bytes, encoding, bounds, options);
}

function ioIssue(path: string, err: unknown): OapIssue {
  const code = (err as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return issue('io.not-found', '', `${path}: no such file`);
    case 'EISDIR':
      return issue('io.is-directory', '', `${path} is a directory`);
    case 'EACCES':
    case 'EPERM':
      return issue('io.permission', '', `${path}: permission denied`);
    default:
      return issue('io.read', '', `${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * Issues found on the data get the source position of their pointer; a pointer to something
 * absent (a missing required member) gets the position of its nearest existing ancestor.
 */
function withPosition(i: OapIssue, locate: Locate): OapIssue {
  if (i.line !== undefined) return i;
  let pointer = i.pointer;
  for (;;) {
    const pos = locate(pointer);
    if (pos !== undefined) return { ...i, line: pos.line, column: pos.column };
    if (pointer === '') return i;
    pointer = pointer.slice(0, pointer.lastIndexOf('/'));
  }
}

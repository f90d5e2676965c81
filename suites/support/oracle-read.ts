/**
 * Reading a profile file the way the oracle does (spec/document), never the way the adapter does:
 * what a case judges about a file on disk is what any conforming reader would find in it.
 */
import { loadDocumentFile, type OapIssue } from '../../spec/document/index.js';

export interface ReadBack {
  /** A parseable, valid AgentProfile. */
  ok: boolean;
  doc?: Record<string, unknown>;
  issues: OapIssue[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Parse and validate a profile file (encoding from its name). Never throws. */
export function readBack(path: string): ReadBack {
  const loaded = loadDocumentFile(path);
  const doc = isRecord(loaded.value) ? loaded.value : undefined;
  return { ok: loaded.valid && loaded.kind === 'AgentProfile' && doc !== undefined, ...(doc ? { doc } : {}), issues: loaded.issues };
}

/** The logical document in a file; a file the oracle cannot read at all is a suite bug. */
export function oracleRead(path: string): Record<string, unknown> {
  const loaded = loadDocumentFile(path);
  if (!isRecord(loaded.value)) {
    throw new Error(`suite bug: the oracle cannot read ${path}: ${loaded.issues.map((i) => i.code).join(', ')}`);
  }
  return loaded.value;
}

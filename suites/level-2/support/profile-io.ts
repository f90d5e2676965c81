/**
 * Writing profiles into the case workspace and reading back what the adapter left on disk.
 * Every judgement about a file goes through the oracle (parse + validate), and "untouched" is
 * judged on bytes, mtime and inode together, so neither a rewrite with identical bytes nor a
 * same-size in-place edit goes unnoticed.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { HandshakeT } from '../../../adapters/protocol/messages.js';
import { loadDocument, type OapIssue } from '../../../spec/document/index.js';
import { fail } from '../../framework/assert.js';
import type { CaseContext } from '../../framework/types.js';
import { serializeDocument } from '../../framework/workspace.js';
import { inconclusive, isObject } from './common.js';

export type Enc = 'yaml' | 'json' | 'md';

/**
 * The encoding profiles are written in: the first of `prefer` the adapter declares. YAML first by
 * default (the RECOMMENDED authoring form); crash cases prefer JSON, where any truncation is a
 * parse failure.
 */
export function pickEncoding(handshake: HandshakeT, prefer: Enc[] = ['yaml', 'json', 'md']): Enc {
  const found = prefer.find((e) => handshake.encodings.includes(e));
  return found ?? handshake.encodings[0] ?? 'yaml';
}

export function profileFileName(name: string, enc: Enc): string {
  return `${name}.agent.${enc}`;
}

export interface Written {
  path: string;
  enc: Enc;
  bytes: Buffer;
}

/** Write `doc` as `<dir>/<name>.agent.<enc>`; `dir` defaults to the project root `.agents/`. */
export function writeProfile(ctx: CaseContext, doc: Record<string, unknown>, opts: { dir?: string; enc?: Enc } = {}): Written {
  const enc = opts.enc ?? pickEncoding(ctx.handshake);
  const meta = doc.metadata as { name: string };
  const path = ctx.workspace.writeDocument(opts.dir ?? ctx.workspace.projectAgents, profileFileName(meta.name, enc), doc, enc);
  return { path, enc, bytes: readFileSync(path) };
}

/** The bytes a document serializes to, for callers that want to write raw text themselves. */
export function serialize(doc: unknown, enc: Enc): string {
  return serializeDocument(doc, enc);
}

export interface Fingerprint {
  exists: boolean;
  sha256: string;
  size: number;
  mtimeMs: number;
  ino: number;
}

export function fingerprint(path: string): Fingerprint {
  if (!existsSync(path)) return { exists: false, sha256: '', size: 0, mtimeMs: 0, ino: 0 };
  const st = statSync(path);
  return {
    exists: true,
    sha256: createHash('sha256').update(readFileSync(path)).digest('hex'),
    size: st.size,
    mtimeMs: st.mtimeMs,
    ino: st.ino,
  };
}

/** Same bytes, same mtime, same inode: the file was not written at all. */
export function untouched(a: Fingerprint, b: Fingerprint): boolean {
  return a.exists === b.exists && a.sha256 === b.sha256 && a.mtimeMs === b.mtimeMs && a.ino === b.ino;
}

export function sameBytes(a: Fingerprint, b: Fingerprint): boolean {
  return a.exists === b.exists && a.sha256 === b.sha256;
}

export interface ReadBack {
  ok: boolean;
  doc?: Record<string, unknown>;
  issues: OapIssue[];
}

/** Parse and validate a profile file with the oracle. Never throws. */
export function readProfile(path: string, enc: Enc): ReadBack {
  if (!existsSync(path)) return { ok: false, issues: [{ code: 'io.not-found', pointer: '', message: path, severity: 'error' }] };
  const loaded = loadDocument(readFileSync(path), enc);
  const doc = isObject(loaded.value) ? loaded.value : undefined;
  return { ok: loaded.valid && loaded.kind === 'AgentProfile' && doc !== undefined, ...(doc ? { doc } : {}), issues: loaded.issues };
}

/**
 * Read back a profile that a case needs to inspect. An unreadable or invalid file after a write is
 * a failure of the case's own requirement only when `own` says so; otherwise it is inconclusive
 * for this case (another requirement's case judges torn or invalid files).
 */
export function mustReadProfile(path: string, enc: Enc, own: boolean, what: string): Record<string, unknown> {
  const r = readProfile(path, enc);
  if (r.ok && r.doc) return r.doc;
  const codes = r.issues.slice(0, 5).map((i) => ({ code: i.code, pointer: i.pointer }));
  if (own) fail(`${what}: the profile on disk is not a valid AgentProfile`, { valid: true }, codes);
  return inconclusive(`${what}: the profile on disk is not a valid AgentProfile (${JSON.stringify(codes)})`);
}

/** A sub-directory of the workspace for cases that need several independent profile trees. */
export function subdir(ctx: CaseContext, ...parts: string[]): string {
  return join(ctx.workspace.dir, ...parts);
}

/**
 * What the adapter left on disk. Every judgement about a file goes through the oracle (parse +
 * validate, suites/support readBack), and "untouched" is judged on bytes, mtime and inode together,
 * so neither a rewrite with identical bytes nor a same-size in-place edit goes unnoticed.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { fail } from '../../kit/assert.js';
import { inconclusive, readBack } from '../../support/index.js';

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

/**
 * Read back a profile that a case needs to inspect. An unreadable or invalid file after a write is
 * a failure of the case's own requirement only when `own` says so; otherwise it is inconclusive
 * for this case (another requirement's case judges torn or invalid files).
 */
export function mustReadProfile(path: string, own: boolean, what: string): Record<string, unknown> {
  const r = readBack(path);
  if (r.ok && r.doc) return r.doc;
  const codes = r.issues.slice(0, 5).map((i) => ({ code: i.code, pointer: i.pointer }));
  if (own) fail(`${what}: the profile on disk is not a valid AgentProfile`, { valid: true }, codes);
  return inconclusive(
    `${what}: the profile on disk is not a valid AgentProfile`,
    `profile on disk invalid: ${codes.map((c) => `${c.code} at ${c.pointer || '/'}`).join('; ')}`,
  );
}

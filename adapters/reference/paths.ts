/**
 * Workspace containment for profile paths (SPEC §3.5, §3.6; security.md T6): checked at resolve
 * time, after following symlinks, so `docs -> /etc` is caught even though "docs" looks harmless.
 */
import { existsSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { realOrResolved } from './roots.js';

export type Containment = { ok: true; relative: string } | { ok: false; reason: string };

/**
 * Is `p` inside `workspace`? On success returns the normalized workspace-relative path with `/`
 * separators ("." for the workspace itself).
 */
export function containPath(workspace: string, p: string, allowAbsolute: boolean): Containment {
  if (isAbsolute(p) && !allowAbsolute) return { ok: false, reason: 'absolute paths are not permitted by harness policy' };
  const root = realOrResolved(workspace);
  const target = isAbsolute(p) ? resolve(p) : resolve(workspace, p);
  const lexical = relative(resolve(workspace), target);
  // An absolute path the harness allows may name the workspace through its real path.
  const lexicalRoot = isAbsolute(p) ? root : resolve(workspace);
  const lexicalRel = isAbsolute(p) ? relative(lexicalRoot, target) : lexical;
  if (escapes(lexicalRel)) return { ok: false, reason: 'path escapes the workspace' };
  const real = realPrefix(target);
  const realRel = relative(root, real);
  if (escapes(realRel)) return { ok: false, reason: 'path escapes the workspace through a symbolic link' };
  return { ok: true, relative: realRel === '' ? '.' : realRel.split(sep).join('/') };
}

function escapes(rel: string): boolean {
  return rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel);
}

/** Real path of the longest existing prefix, with the non-existing rest appended unchanged. */
function realPrefix(p: string): string {
  let existing = p;
  const rest: string[] = [];
  while (!existsSync(existing)) {
    const parent = dirname(existing);
    if (parent === existing) return p;
    rest.unshift(existing.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
    existing = parent;
  }
  return join(realpathSync(existing), ...rest);
}

/** Normalize a workspace-relative root for comparison: "./src/" -> "src", "" -> ".". */
export function normalizeRelative(p: string): string {
  const parts: string[] = [];
  for (const seg of p.split(/[\\/]+/)) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  return parts.length === 0 ? '.' : parts.join('/');
}

/** Is workspace-relative `inner` equal to or below `outer`? */
export function isWithin(inner: string, outer: string): boolean {
  if (outer === '.') return true;
  return inner === outer || inner.startsWith(`${outer}/`);
}

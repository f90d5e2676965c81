/**
 * Workspace containment for profile paths (SPEC §3.5, §3.6; security.md T6): checked at resolve
 * time, after following symlinks, so `docs -> /etc` is caught even though "docs" looks harmless.
 * The lexical part (normal form, climbing out) is the spec model's `normalizeRoot`; following
 * symlinks needs the file system and is this harness's own job.
 */
import { existsSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { normalizeRoot } from '../../spec/semantics/index.js';
import { realOrResolved } from './roots.js';

export type Containment = { ok: true; relative: string } | { ok: false; reason: string };

/**
 * Is `p` inside `workspace`? On success returns the normalized workspace-relative path with `/`
 * separators ("." for the workspace itself).
 */
export function containPath(workspace: string, p: string, allowAbsolute: boolean): Containment {
  if (isAbsolute(p) && !allowAbsolute) return { ok: false, reason: 'absolute paths are not permitted by harness policy' };
  const root = realOrResolved(workspace);
  // An absolute path the harness allows may name the workspace through its real path.
  const lexical = isAbsolute(p) ? normalizeRoot(resolve(p), root) : normalizeRoot(p);
  if (lexical === undefined) return { ok: false, reason: 'path escapes the workspace' };
  const real = realPrefix(isAbsolute(p) ? resolve(p) : resolve(workspace, lexical));
  const realRel = relative(root, real);
  if (realRel === '..' || realRel.startsWith(`..${sep}`) || isAbsolute(realRel))
    return { ok: false, reason: 'path escapes the workspace through a symbolic link' };
  return { ok: true, relative: realRel === '' ? '.' : realRel.split(sep).join('/') };
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

/**
 * Workspace containment for profile paths (SPEC §3.5, §3.6; security.md T6): checked at resolve
 * time, after following symlinks, so `docs -> /etc` is caught even though "docs" looks harmless.
 * The lexical part (normal form, climbing out) is the spec model's `normalizeRoot`, and the
 * physical part its `physicalPath` (the one rule that reads the disk). Symlinks are resolved the way the
 * file system resolves the path, one segment at a time, so a `..` after a symlink climbs from the
 * link's target ("Resolve symlinks before the check", T6): `linked/..` is the target's parent.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { normalizeRoot, physicalPath } from '../../spec/semantics/index.js';
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
  const real = physicalPath(root, p);
  const realRel = relative(root, real);
  if (realRel === '..' || realRel.startsWith(`..${sep}`) || isAbsolute(realRel))
    return { ok: false, reason: 'path escapes the workspace through a symbolic link' };
  return { ok: true, relative: realRel === '' ? '.' : realRel.split(sep).join('/') };
}

/**
 * Where a path leads on the file system (security.md T6: "Resolve symlinks before the check"): the
 * one rule of the spec model that reads the disk, since T6 is about what the disk says. The roots
 * rule (./path.ts) reads paths lexically; a case that has laid out symlinks in its workspace asks
 * this module where an effective root really goes and hands the answer to that rule, and the
 * reference harness resolves profile paths with the same function before its containment check.
 */
import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';

/**
 * The path the file system reaches for `p` from the directory `base`: segment by segment, each
 * existing segment replaced by its real path (symlinks followed), `..` taken from the real parent
 * (so `link/..` is the parent of the link's target, as the kernel resolves it); segments that do
 * not exist are appended as written.
 */
export function physicalPath(base: string, p: string): string {
  let current = isAbsolute(p) ? '/' : realpathSync(base);
  for (const segment of p.split(/[\\/]+/)) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      current = dirname(current);
      continue;
    }
    const next = join(current, segment);
    try {
      current = realpathSync(next);
    } catch {
      current = next;
    }
  }
  return current;
}

/**
 * A root as the spec model should judge it: the workspace-relative path (`/`-separated, `.` for
 * the workspace) when it physically stays inside `workspace`, else the absolute real path, which
 * the spec model reads as outside the workspace.
 */
export function physicalRoot(workspace: string, root: string): string {
  const real = physicalPath(workspace, root);
  const rel = relative(realpathSync(workspace), real);
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return real;
  return rel === '' ? '.' : rel.split(sep).join('/');
}

/**
 * Workspace-relative filesystem roots (SPEC §3.5, §7.2 "filesystem roots"; security.md T6).
 *
 * Reading (INTERPRETATIONS.md#roots): `read_roots` and `write_roots` "are
 * workspace-relative unless the harness explicitly permits absolute paths" and "path traversal
 * escaping the workspace MUST be rejected" (§3.5); T6 asks for the check on "the normalized form".
 * So a root is normalized lexically (`./src/` → `src`, `''` and `.` → `.`, `src/../lib` → `lib`,
 * `\` read as `/`), and a root that climbs out of the workspace or is absolute is not a workspace
 * root at all (`undefined`). A root covers itself and everything below it by whole segments:
 * `src` covers `src` and `src/a`, never `srcx` or `src2/a`; `.` covers the whole workspace. A root
 * that is a glob (glob.ts dialect) covers every path it or one of its ancestors matches.
 * `deny_paths` subtract from both read and write roots. This is lexical only: following symlinks
 * (T6 "Resolve symlinks before the check") needs the filesystem and is the harness's job.
 *
 * | root         | path        | covered |
 * | ------------ | ----------- | ------- |
 * | `src`        | `src/a.ts`  | yes     |
 * | `src`        | `srcx/a.ts` | no      |
 * | `./src/`     | `src`       | yes     |
 * | `lib`        | `src/../lib`| yes     |
 * | `.`          | `README.md` | yes     |
 * | `../x`       | anything    | no      |
 */
import { globMatch, isGlob } from './glob.js';

const ABSOLUTE = /^(?:\/|[A-Za-z]:(?:\/|$))/;

/**
 * The normal form of a workspace-relative path or root, or undefined when it is absolute or climbs
 * out of the workspace. With `workspace`, an absolute path inside it is mapped back to relative
 * (an adapter may report effective roots that way).
 */
export function normalizeRoot(p: string, workspace?: string): string | undefined {
  let rel = p.replace(/\\/g, '/');
  if (ABSOLUTE.test(rel)) {
    if (workspace === undefined) return undefined;
    const ws = workspace.replace(/\\/g, '/').replace(/\/+$/, '');
    if (rel.replace(/\/+$/, '') === ws) return '.';
    if (!rel.startsWith(`${ws}/`)) return undefined;
    rel = rel.slice(ws.length + 1);
  }
  const parts: string[] = [];
  for (const seg of rel.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(seg);
  }
  return parts.length === 0 ? '.' : parts.join('/');
}

/** `path` and each of its ancestors, nearest first, ending at `.` (all in normal form). */
function selfAndAncestors(path: string): string[] {
  if (path === '.') return ['.'];
  const segs = path.split('/');
  const out: string[] = [];
  for (let n = segs.length; n > 0; n--) out.push(segs.slice(0, n).join('/'));
  out.push('.');
  return out;
}

/** The segments of a glob root before its first glob segment (`.` when it starts with one). */
function staticPrefix(root: string): string {
  const segs = root === '.' ? [] : root.split('/');
  const i = segs.findIndex(isGlob);
  const fixed = i < 0 ? segs : segs.slice(0, i);
  return fixed.length === 0 ? '.' : fixed.join('/');
}

function covers(root: string, path: string): boolean {
  if (root === '.') return true;
  if (isGlob(root)) return selfAndAncestors(path).some((a) => a !== '.' && globMatch(root, a));
  return path === root || path.startsWith(`${root}/`);
}

/** Does `root` cover the workspace-relative `path` (whole segments; globs through glob.ts)? */
export function rootCovers(root: string, path: string, workspace?: string): boolean {
  const r = normalizeRoot(root, workspace);
  const p = normalizeRoot(path, workspace);
  return r !== undefined && p !== undefined && covers(r, p);
}

/** Is `path` inside one of `roots` and inside none of `denyPaths`? */
export function pathAllowed(roots: readonly string[], denyPaths: readonly string[], path: string, workspace?: string): boolean {
  return roots.some((r) => rootCovers(r, path, workspace)) && !denyPaths.some((d) => rootCovers(d, path, workspace));
}

/** Does `outer` cover every path `inner` covers? */
export function rootWithin(inner: string, outer: string, workspace?: string): boolean {
  const i = normalizeRoot(inner, workspace);
  const o = normalizeRoot(outer, workspace);
  if (i === undefined || o === undefined) return false;
  // A glob root covers no more than its fixed prefix does, so that prefix is what must fit.
  return covers(o, isGlob(i) ? staticPrefix(i) : i);
}

/** Does every one of `roots` lie within one of `ceilingRoots`? */
export function rootsWithin(roots: readonly string[], ceilingRoots: readonly string[], workspace?: string): boolean {
  return roots.every((r) => ceilingRoots.some((c) => rootWithin(r, c, workspace)));
}

/** The roots among `roots` that lie within none of `ceilingRoots`. */
export function rootsBeyond(roots: readonly string[], ceilingRoots: readonly string[], workspace?: string): string[] {
  return roots.filter((r) => !ceilingRoots.some((c) => rootWithin(r, c, workspace)));
}

import { normalizeRoot } from '../semantics/path.js';
import { issue, type OapIssue } from './issue.js';

export interface WorkspacePathOptions {
  /** The harness permits absolute paths (SPEC §3.5); POSIX `/x` and `C:/x` are then accepted. */
  allowAbsolute?: boolean | undefined;
  /** Pointer recorded on the issue. */
  pointer?: string | undefined;
}

const PERCENT_ESCAPE = /%(?:2e|2f|5c|00|25|c0|c1)/i;
const UNC = /^(?:[\\/]{2})/;
const DRIVE = /^[A-Za-z]:/;
const URL_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]+:/;
const NON_ASCII = /[^\x00-\x7f]/;
const SEPARATOR_OR_DOT = /[./\\]/g;

/**
 * Rejects a workspace-relative path that could name something outside the workspace
 * (SPEC §3.5/§3.6, security.md T6, L1-I5), judged on the string alone. A harness still has to
 * resolve symlinks; this is the part that can be decided at resolve time without a filesystem.
 *
 * Anything a platform, shell, URL decoder or Unicode normaliser might turn into a separator, a
 * root or a parent reference is refused, not just literal `..`: the profile is shared across
 * harnesses and we cannot know which of those transformations the reader applies. Issue codes
 * are `path-escape.<why>`.
 */
export function checkWorkspacePath(path: string, options: WorkspacePathOptions = {}): OapIssue | null {
  const fail = (why: string, message: string): OapIssue => issue(`path-escape.${why}`, options.pointer ?? '', message);
  const allowAbsolute = options.allowAbsolute === true;

  if (path.includes('\u0000')) return fail('nul', 'path contains a NUL byte');
  if (PERCENT_ESCAPE.test(path)) return fail('percent-encoded', 'path contains a percent-encoded dot, separator, NUL or percent sign');
  if (NON_ASCII.test(path) && countSeparators(path.normalize('NFKC')) !== countSeparators(path)) {
    return fail('confusable', 'path contains characters that normalise to dots or separators');
  }
  if (UNC.test(path)) return fail('unc', 'path names a network share (UNC or //host)');
  if (DRIVE.test(path)) {
    if (!(allowAbsolute && /^[A-Za-z]:\//.test(path) && !path.includes('\\'))) {
      return fail('drive', 'path starts with a Windows drive letter');
    }
  } else if (URL_SCHEME.test(path)) {
    return fail('scheme', 'path starts with a URL scheme');
  }
  if (path.includes('\\')) return fail('backslash', 'path contains a backslash; use / as the only separator');
  if (path.startsWith('~')) return fail('home', 'path starts with ~ (home directory expansion)');
  if (path.startsWith('$')) return fail('variable', 'path starts with a variable expansion');

  const absolute = path.startsWith('/') || DRIVE.test(path);
  if (absolute) return allowAbsolute ? null : fail('absolute', 'absolute path; workspace paths are relative');

  // Lexical climbing out is the spec model's reading of a workspace root (spec/semantics/path.ts).
  if (normalizeRoot(path) === undefined) return fail('traversal', 'path climbs above the workspace root');
  for (const segment of path.split('/')) {
    // Windows strips trailing dots and spaces, so "... " or ".. " can act as "..".
    if (segment !== '.' && segment !== '..' && /^[. ]+$/.test(segment)) return fail('dot-segment', `ambiguous dot segment "${segment}"`);
  }
  return null;
}

function countSeparators(s: string): number {
  return s.match(SEPARATOR_OR_DOT)?.length ?? 0;
}

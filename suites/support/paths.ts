import { realpathSync } from 'node:fs';

/** `path` with its symlinks resolved (a temporary directory may be one), or as written when it does not exist. */
function realOrWritten(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Do two paths a harness and a case wrote name the same file? */
export function samePath(a: string, b: string): boolean {
  return realOrWritten(a) === realOrWritten(b);
}

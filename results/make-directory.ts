import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { InputError } from './load.js';

/**
 * Create `path` and its missing parents, one level at a time. `mkdirSync(path, { recursive: true })`
 * never returns where the parent exists but refuses new entries with ENOENT (anywhere under /proc):
 * Node creates the parent (EEXIST) and retries the child forever, at 100% CPU and deaf to signals,
 * since the loop never yields. Here such a path fails at once with the filesystem's own error (its
 * `code` is ENOENT, EACCES, ENOTDIR, ...).
 */
export function makeDirectory(path: string): void {
  const missing: string[] = [];
  for (let p = resolve(path); !existsSync(p); p = dirname(p)) {
    missing.push(p);
    if (dirname(p) === p) break;
  }
  for (const dir of missing.reverse()) {
    try {
      mkdirSync(dir);
    } catch (err) {
      // Another process created it in between: that is what was asked for.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}

/**
 * An output directory (`--out DIR`) made ready to write into, or an InputError (code `out-dir`,
 * exit 2 at the CLI) saying why not in the user's terms: a file in the way, no permission, or a
 * place that takes no new directories.
 */
export function prepareOutputDirectory(dir: string, flag = '--out'): void {
  try {
    makeDirectory(dir);
    if (!statSync(dir).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
    accessSync(dir, constants.W_OK);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const why =
      e.code === 'EEXIST' || e.code === 'ENOTDIR'
        ? 'it or one of its parents is a file, not a directory'
        : e.code === 'EACCES' || e.code === 'EPERM' || e.code === 'EROFS'
          ? 'permission denied'
          : e.code === 'ENOENT'
            ? 'no directory can be created there'
            : e.message;
    throw new InputError('out-dir', `cannot write results to ${flag} ${dir}: ${why}`);
  }
}

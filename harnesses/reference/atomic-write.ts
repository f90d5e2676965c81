/**
 * Durable file replacement (SPEC §5.6 step 10): the new bytes go to a temporary file in the same
 * directory (so the rename cannot cross a file system), which is flushed with fsync, renamed over
 * the target, and then the directory is fsynced so the rename itself survives a crash. A reader
 * therefore sees the old file or the new one, never a mix.
 */
import { closeSync, fsyncSync, openSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';

/** `fsync` flushes the temporary file before the rename (the harness's fsyncBeforeRename rule). */
export function writeFileAtomic(path: string, content: string, fsync: (fd: number) => void): void {
  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  let mode = 0o644;
  try {
    mode = statSync(path).mode & 0o777;
  } catch {
    // a new file keeps the default mode
  }
  const fd = openSync(tmp, 'wx', mode);
  try {
    writeSync(fd, content);
    fsync(fd);
  } catch (err) {
    closeSync(fd);
    unlinkSync(tmp);
    throw err;
  }
  closeSync(fd);
  try {
    renameSync(tmp, path);
  } catch (err) {
    unlinkSync(tmp);
    throw err;
  }
  syncDirectory(dir);
}

function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some platforms cannot fsync a directory; the rename is still atomic there.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

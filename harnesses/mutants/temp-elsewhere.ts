/**
 * A write path that keeps every step of the durable replacement but one: the temporary file is
 * written in the system's temporary directory, not beside the profile. fsync and rename are still
 * there, and where the two directories share a file system the rename is atomic, which is why the
 * defect goes unnoticed until they do not (then the rename fails with EXDEV, and a harness falls
 * back to copying over the profile).
 */
import { randomBytes } from 'node:crypto';
import { closeSync, copyFileSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

export function writeViaTmpdir(path: string, content: string): void {
  const tmp = join(tmpdir(), `${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(tmp, 'wx', 0o644);
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    copyFileSync(tmp, path);
    unlinkSync(tmp);
  }
}

import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { physicalPath, physicalRoot } from '../../../spec/semantics/index.js';

// security.md T6 "Resolve symlinks before the check": where a path leads on disk, segment by
// segment as the kernel resolves it (INTERPRETATIONS.md, L1-I5 and L1-I3 filesystem roots).
let base: string;
let ws: string;
beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'oap-physical-')));
  ws = join(base, 'ws');
  mkdirSync(join(ws, 'docs', 'deep'), { recursive: true });
  mkdirSync(join(base, 'outside', 'inner'), { recursive: true });
  symlinkSync(join(base, 'outside'), join(ws, 'linked'), 'dir');
  symlinkSync(join(ws, 'docs'), join(ws, 'alias'), 'dir');
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('physicalRoot: a root as the roots rule should judge it', () => {
  it.each([
    ['.', '.'],
    ['docs', 'docs'],
    ['docs/deep/..', 'docs'],
    ['alias/deep', 'docs/deep'],
    ['alias/..', '.'],
    ['not-there/yet', 'not-there/yet'],
  ])('%s stays inside as %s', (root, expected) => {
    expect(physicalRoot(ws, root)).toBe(expected);
  });

  it.each([
    ['linked', 'outside'],
    ['linked/inner', 'outside/inner'],
    // `..` after a symlink climbs from the link's target, not lexically back into the workspace.
    ['linked/..', '.'],
    ['docs/../../outside', 'outside'],
  ])('%s leaves the workspace, to its real path', (root, real) => {
    expect(physicalRoot(ws, root)).toBe(join(base, real).replace(/\/\.$/, ''));
  });
});

describe('physicalPath', () => {
  it('keeps segments that do not exist as written, below the last real one', () => {
    expect(physicalPath(ws, 'linked/missing/file.txt')).toBe(join(base, 'outside', 'missing', 'file.txt'));
  });
  it('reads an absolute path from the file system root', () => {
    expect(physicalPath(ws, join(ws, 'alias'))).toBe(join(ws, 'docs'));
  });
});

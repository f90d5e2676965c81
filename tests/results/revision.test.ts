import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureRevision, writeEmbeddedRevision } from '../../results/revision.js';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'oap-rev-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    encoding: 'utf8',
  }).trim();

function checkout(): string {
  const root = tmp();
  git(root, 'init', '-q');
  mkdirSync(join(root, 'fixtures'));
  writeFileSync(join(root, 'fixtures', 'a.yaml'), 'x: 1\n');
  writeFileSync(join(root, 'README'), 'r\n');
  git(root, 'add', '.');
  git(root, 'commit', '-q', '-m', 'init');
  return root;
}

describe('fixtureRevision', () => {
  it('reads the full HEAD commit of a checkout and notices dirty fixtures only', () => {
    const root = checkout();
    const head = git(root, 'rev-parse', 'HEAD');
    expect(fixtureRevision(root)).toEqual({ revision: head, dirty: false });
    writeFileSync(join(root, 'README'), 'changed\n');
    expect(fixtureRevision(root).dirty).toBe(false);
    writeFileSync(join(root, 'fixtures', 'a.yaml'), 'x: 2\n');
    expect(fixtureRevision(root)).toEqual({ revision: head, dirty: true });
  });

  it('uses the embedded file when the root is not a checkout, and the build step writes it', () => {
    const root = checkout();
    const written = writeEmbeddedRevision(root);
    const installed = tmp();
    mkdirSync(join(installed, 'dist'));
    execFileSync('cp', [join(root, 'dist', 'fixture-revision.json'), join(installed, 'dist')]);
    expect(fixtureRevision(installed)).toEqual(written);
  });

  it('ignores the Git repository of a harness that has us installed in node_modules', () => {
    const harness = checkout();
    const pkg = join(harness, 'node_modules', 'oap-conform');
    mkdirSync(join(pkg, 'dist'), { recursive: true });
    const embedded = { revision: 'a'.repeat(40), dirty: false };
    writeFileSync(join(pkg, 'dist', 'fixture-revision.json'), JSON.stringify(embedded));
    expect(fixtureRevision(pkg)).toEqual(embedded);
  });

  it('fails with a code when neither Git nor the embedded file can say', () => {
    expect(() => fixtureRevision(tmp())).toThrow(expect.objectContaining({ code: 'fixture-revision-unavailable' }));
    const bad = tmp();
    mkdirSync(join(bad, 'dist'));
    writeFileSync(join(bad, 'dist', 'fixture-revision.json'), JSON.stringify({ revision: 'abc', dirty: false }));
    expect(() => fixtureRevision(bad)).toThrow(/40 hex/);
  });
});

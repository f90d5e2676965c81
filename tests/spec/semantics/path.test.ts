import { describe, expect, it } from 'vitest';
import { normalizeRoot, pathAllowed, rootCovers, rootsBeyond, rootsWithin, rootWithin } from '../../../spec/semantics/index.js';

describe('normalizeRoot (SPEC §3.5 workspace-relative roots, security.md T6; INTERPRETATIONS.md, roots)', () => {
  it.each([
    ['./src/', 'src'],
    ['src', 'src'],
    ['', '.'],
    ['.', '.'],
    ['./', '.'],
    ['src//lib', 'src/lib'],
    ['src/../lib', 'lib'],
    ['src/lib/..', 'src'],
    ['src\\lib', 'src/lib'],
    ['..', undefined],
    ['../x', undefined],
    ['a/../..', undefined],
    ['src/../../etc', undefined],
    ['/etc', undefined],
    ['C:/x', undefined],
  ] as Array<[string, string | undefined]>)('normalizeRoot(%j) = %j', (p, want) => expect(normalizeRoot(p)).toBe(want));

  it.each([
    ['/ws/src', '/ws', 'src'],
    ['/ws', '/ws', '.'],
    ['/ws/', '/ws', '.'],
    ['/other/src', '/ws', undefined],
    ['/wsx/src', '/ws', undefined],
  ] as Array<[string, string, string | undefined]>)('an absolute %j under workspace %j maps to %j', (p, ws, want) =>
    expect(normalizeRoot(p, ws)).toBe(want),
  );
});

describe('rootCovers by whole segments (SPEC §3.5)', () => {
  it.each([
    ['src', 'src/a.ts', true, 'below the root'],
    ['src', 'src', true, 'the root itself'],
    ['src', 'srcx/a.ts', false, 'a longer name is another directory'],
    ['src', 'src2/a', false, 'a longer name is another directory'],
    ['./src/', 'src/a', true, 'spelling does not matter'],
    ['lib', 'src/../lib', true, 'lexical normalization (T6 "normalized form")'],
    ['.', 'README.md', true, '. is the whole workspace'],
    ['', 'docs/x', true, "'' is the whole workspace"],
    ['../x', 'x', false, 'a climbing root is no workspace root'],
    ['src', '../src/a', false, 'a climbing path is outside'],
    ['src/*', 'src/a/b.ts', true, 'a glob root covers below what it matches'],
    ['src/*', 'src', false, 'a glob root does not cover its parent'],
    ['src/*', 'docs/a', false, 'a glob root elsewhere'],
  ])('rootCovers(%j, %j) = %s (%s)', (root, path, want) => expect(rootCovers(root, path)).toBe(want));

  it.each([
    [['.', 'src/app'], ['src/secrets'], 'src/secrets/key.pem', false, 'deny_paths subtract'],
    [['src'], ['src/secrets'], 'src/main.ts', true, 'outside the denied subtree'],
    [[], [], 'a', false, 'no roots: nothing'],
  ])('pathAllowed(%j, %j, %j) = %s (%s)', (roots, deny, path, want) => expect(pathAllowed(roots, deny, path)).toBe(want));
});

describe('rootWithin and rootsWithin (SPEC §7.2 "filesystem roots")', () => {
  it.each([
    ['src/lib', 'src', true],
    ['src', 'src/lib', false],
    ['src', '.', true],
    ['.', 'src', false],
    ['srcx', 'src', false],
    ['src/../docs', 'docs', true],
    ['../x', '.', false],
    ['src/*', 'src', true],
    ['*', 'src', false],
  ])('rootWithin(%j, %j) = %s', (inner, outer, want) => expect(rootWithin(inner, outer)).toBe(want));

  it('rootsWithin and rootsBeyond agree', () => {
    expect(rootsWithin(['src/a', 'docs'], ['src', 'docs'])).toBe(true);
    expect(rootsBeyond(['src/a', 'vendor'], ['src', 'docs'])).toEqual(['vendor']);
  });
});

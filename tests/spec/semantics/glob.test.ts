import { describe, expect, it } from 'vitest';
import { globMatch, isGlob, matchesAny } from '../../../spec/semantics/index.js';

// The rows of the dialect table in spec/semantics/glob.ts (INTERPRETATIONS.md, glob dialect).
describe('tool-name glob dialect (SPEC §3.4 "Names MAY be globs")', () => {
  it.each([
    ['*', 'read', true, 'one segment'],
    ['', 'read', false, 'the empty pattern names no tool'],
    ['*', 'git/diff', false, '* stays inside one segment'],
    ['*', '.hidden', true, 'a leading dot is an ordinary letter'],
    ['*/*', 'git/diff', true, 'two segments'],
    ['*/*', 'mcp/github/issues', false, 'exactly two segments'],
    ['**', 'mcp/github/issues', true, '** crosses segments'],
    ['**', '.x/y', true, '** with dot names'],
    ['mcp/github/*', 'mcp/github/issues', true, 'SPEC §3.4: every tool of the github server'],
    ['mcp/github/*', 'mcp/github/a/b', false, 'one segment only'],
    ['mcp/github/*', 'mcp/gitlab/issues', false, 'another server'],
    ['git/*', 'git', false, 'the prefix alone is no tool of it'],
    ['git/?iff', 'git/diff', true, '? is one character'],
    ['web/[fx]etch', 'web/fetch', true, 'classes'],
    ['{read,edit}', 'read', false, 'no brace expansion'],
    ['{read,edit}', '{read,edit}', true, 'a brace pattern is a literal name'],
    ['+(a)', 'a', false, 'no extglobs'],
    ['read', 'read', true, 'a literal name'],
    ['read', 'reader', false, 'literal names match whole'],
  ])('globMatch(%j, %j) = %s (%s)', (pattern, name, want) => expect(globMatch(pattern, name)).toBe(want));

  it.each([
    [['read', 'git/*'], 'git/log', true],
    [[], 'read', false],
    [['*'], 'web/fetch', false],
  ])('matchesAny(%j, %j) = %s', (patterns, name, want) => expect(matchesAny(patterns, name)).toBe(want));

  it.each([
    ['*', true],
    ['git/?iff', true],
    ['[ab]', true],
    ['read', false],
    ['{a,b}', false],
    ['mcp/github/issues', false],
  ])('isGlob(%j) = %s', (s, want) => expect(isGlob(s)).toBe(want));
});

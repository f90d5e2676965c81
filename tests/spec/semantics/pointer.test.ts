import { describe, expect, it } from 'vitest';
import {
  decodePointer,
  escapePointerToken,
  idOfToken,
  inStateScope,
  isPositionIndependent,
  parsePointer,
  pointerOf,
} from '../../../spec/semantics/index.js';

describe('RFC 6901 tokens (SPEC §6.2)', () => {
  it.each([
    ['a/b', 'a~1b'],
    ['a~b', 'a~0b'],
    ['~1', '~01'],
    [0, '0'],
  ] as Array<[string | number, string]>)('escapePointerToken(%j) = %j', (t, want) => expect(escapePointerToken(t)).toBe(want));

  it.each([
    [[], ''],
    [['metadata', 'annotations', 'x.io/k'], '/metadata/annotations/x.io~1k'],
    [['state', 'facts', 0], '/state/facts/0'],
  ] as Array<[Array<string | number>, string]>)('pointerOf(%j) = %j', (tokens, want) => expect(pointerOf(tokens)).toBe(want));

  it.each([
    ['', []],
    ['/', ['']],
    ['/state/~1..~1spec', ['state', '/../spec']],
    ['/a~01', ['a~1']],
    ['state', undefined],
    ['/a~2', undefined],
  ] as Array<[string, string[] | undefined]>)('decodePointer(%j) = %j', (p, want) => expect(decodePointer(p)).toEqual(want));

  it('parsePointer throws on a non-pointer', () => {
    expect(() => parsePointer('state/x')).toThrow();
    expect(parsePointer('/a~1b')).toEqual(['a/b']);
  });
});

describe('inStateScope (SPEC §6.2 "rooted at /state"; INTERPRETATIONS.md, pointers)', () => {
  it.each([
    ['/state', true, 'the state block itself'],
    ['/state/facts/-', true, 'an append'],
    ['/state/../spec/x', true, 'a `..` token is a member literally named `..` inside /state'],
    ['/state/facts/0/../../../spec', true, 'still literal keys inside /state'],
    ['/state/~1..~1spec', true, 'an escaped slash is part of one token'],
    ['/statex/summary', false, 'another member'],
    ['/State/summary', false, 'tokens are case-sensitive'],
    ['/state~1summary', false, 'one token "state/summary"'],
    ['/spec/tools/allow/-', false, 'outside'],
    ['', false, 'the whole document'],
    ['/', false, 'the member ""'],
    ['state/summary', false, 'not a pointer'],
    ['/../state', false, 'first token ".."'],
  ])('inStateScope(%j) = %s (%s)', (p, want) => expect(inStateScope(p)).toBe(want));
});

describe('id tokens and position independence (SPEC §6.2, §6.3)', () => {
  it.each([
    ['id:fact-a', 'fact-a'],
    ['id:', ''],
    ['fact-a', undefined],
    ['0', undefined],
  ] as Array<[string, string | undefined]>)('idOfToken(%j) = %j', (t, want) => expect(idOfToken(t)).toBe(want));

  it.each([
    ['/state/facts/-', true, 'an append means the same on a newer revision'],
    ['/state/facts/id:fact-a/text', true, 'addressed by id'],
    ['/state/facts/0/text', false, 'SPEC §6.3: array indices usually do not rebase'],
    ['/state/summary', false, 'a plain member'],
  ])('isPositionIndependent(%j) = %s (%s)', (p, want) => expect(isPositionIndependent(p)).toBe(want));
});

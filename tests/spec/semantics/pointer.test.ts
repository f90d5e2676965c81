import { describe, expect, it } from 'vitest';
import {
  arrayIndexOf,
  decodePointer,
  escapePointerToken,
  idOfToken,
  inStateScope,
  isAncestorOrSelf,
  isPositionIndependent,
  parentPointer,
  parsePointer,
  pointerOf,
  valueAt,
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

  it('parsePointer decodes what decodePointer decodes and throws on the rest', () => {
    expect(() => parsePointer('state/x')).toThrow();
    expect(() => parsePointer('/a~2')).toThrow();
    expect(() => parsePointer('/a~')).toThrow();
    expect(parsePointer('/a~1b')).toEqual(['a/b']);
    expect(parsePointer('')).toEqual([]);
  });

  it.each([
    ['/a/b', '/a'],
    ['/a', ''],
    ['/a~1b/c', '/a~1b'],
    ['/', ''],
    ['', undefined],
    ['a/b', undefined],
    ['/a~2/b', undefined],
  ] as Array<[string, string | undefined]>)('parentPointer(%j) = %j', (p, want) => expect(parentPointer(p)).toBe(want));

  it.each([
    ['0', 0],
    ['7', 7],
    ['10', 10],
    ['01', undefined],
    ['-', undefined],
    ['', undefined],
    ['1.0', undefined],
    [' 1', undefined],
    ['1e0', undefined],
    ['-1', undefined],
    ['id:a', undefined],
  ] as Array<[string, number | undefined]>)('arrayIndexOf(%j) = %j', (t, want) => expect(arrayIndexOf(t)).toBe(want));
});

describe('isAncestorOrSelf (token-wise)', () => {
  it.each([
    ['', '/spec/tools', true, "the whole document is everything's ancestor"],
    ['/spec', '/spec', true, 'a pointer is its own ancestor'],
    ['/spec', '/spec/tools/allow', true, 'a deeper descendant'],
    ['/spec/tools', '/spec', false, 'a descendant is no ancestor'],
    ['/a', '/ab', false, 'a longer member name is no descendant'],
    ['/a~1b', '/a~1b/c', true, 'escaped tokens compare decoded'],
    ['/a', '/a~1b', false, '`a/b` is one token, not `a` then `b`'],
    ['/spec/', '/spec', false, 'the member "" of /spec'],
    ['/spec', '/spec/x~2', false, 'not a pointer: related to nothing'],
    ['spec', 'spec/tools', false, 'not pointers'],
  ])('isAncestorOrSelf(%j, %j) = %s (%s)', (a, p, want) => expect(isAncestorOrSelf(a, p)).toBe(want));

  it('takes tokens as well as pointer strings', () => {
    expect(isAncestorOrSelf(['spec', 'tools'], '/spec/tools/deny/-')).toBe(true);
    expect(isAncestorOrSelf('/spec/runtime/subagents', ['spec', 'runtime'])).toBe(false);
    expect(isAncestorOrSelf([], [])).toBe(true);
  });
});

describe('valueAt: the value a pointer names (the table in spec/semantics/pointer.ts)', () => {
  const doc = {
    metadata: { name: 'a', 'x.io/k': 'slash', 'a~b': 'tilde', '': 'empty key' },
    state: {
      facts: [{ id: 'fact-a', text: 'first' }, { id: 'fact-b', text: 'second' }, 'not an entry', { id: 'fact-a', text: 'a duplicate id' }],
      summary: null,
    },
  };
  it.each([
    ['', doc, 'the whole document'],
    ['/metadata/name', 'a', 'an object member'],
    ['/metadata/x.io~1k', 'slash', '~1 is a slash inside a token'],
    ['/metadata/a~0b', 'tilde', '~0 is a tilde'],
    ['/metadata/', 'empty key', 'the member named ""'],
    ['/state/summary', null, 'null is a value, not a missing one'],
    ['/state/facts/0/text', 'first', 'an array index'],
    ['/state/facts/2', 'not an entry', 'an index names any element'],
    ['/state/facts/4', undefined, 'an index past the end'],
    ['/state/facts/01', undefined, 'a leading zero is not an index'],
    ['/state/facts/', undefined, '"" is not an index'],
    ['/state/facts/-', undefined, '`-` names the element after the last, which does not exist'],
    ['/state/facts/id:fact-b/text', 'second', 'an `id:` token names the entry with that id'],
    ['/state/facts/id:fact-a/text', 'first', 'the first entry with that id'],
    ['/state/facts/id:fact-z', undefined, 'no entry with that id'],
    ['/state/facts/length', undefined, 'array properties are not elements'],
    ['/metadata/id:x', undefined, '`id:` inside an object is a member name like any other'],
    ['/metadata/constructor', undefined, 'inherited names are not members'],
    ['/metadata/__proto__', undefined, 'nor is the prototype'],
    ['/metadata/name/0', undefined, 'a string has no members'],
    ['/nothing/here', undefined, 'a missing path'],
    ['metadata', undefined, 'not a pointer'],
    ['/metadata/a~2b', undefined, 'not a pointer (~2)'],
  ] as Array<[string, unknown, string]>)('valueAt(doc, %j) = %j (%s)', (p, want) => expect(valueAt(doc, p)).toEqual(want));

  it('follows tokens as well as pointer strings', () => {
    expect(valueAt(doc, ['metadata', 'x.io/k'])).toBe('slash');
    expect(valueAt(doc, ['state', 'facts', 'id:fact-b', 'text'])).toBe('second');
    expect(valueAt(doc, [])).toBe(doc);
    expect(valueAt({ 'id:x': 1 }, ['id:x'])).toBe(1);
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

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDocument, type OapIssue } from '../../spec/document/index.js';

function issues(text: string): OapIssue[] {
  const r = parseDocument(text, 'json');
  return r.ok ? [] : r.issues;
}

describe('strict RFC 8259 grammar', () => {
  it.each([
    '{}',
    '[]',
    '0',
    '-0',
    '1.5e-3',
    '1E+2',
    '"x"',
    'true',
    'null',
    ' \t\r\n{ "a" : [ 1 , 2 ] } \n',
    '{"a":{"b":{"c":[[],{}]}}}',
    '"\\u00e9\\n\\t\\"\\\\\\/\\b\\f\\r"',
    '"\\ud83d\\ude00"',
  ])('accepts %s like JSON.parse', (text) => {
    expect(parseDocument(text, 'json')).toMatchObject({ ok: true, value: JSON.parse(text) });
  });

  it.each([
    ['trailing comma in object', '{"a": 1,}'],
    ['trailing comma in array', '[1,]'],
    ['single quotes', "{'a': 1}"],
    ['unquoted key', '{a: 1}'],
    ['comment', '{"a": 1 /* c */}'],
    ['leading zero', '[01]'],
    ['leading plus', '[+1]'],
    ['bare fraction', '[.5]'],
    ['dangling point', '[1.]'],
    ['NaN literal', '[NaN]'],
    ['Infinity literal', '[Infinity]'],
    ['hex number', '[0x10]'],
    ['raw tab in string', '"a\tb"'],
    ['raw newline in string', '"a\nb"'],
    ['bad escape', '"\\x41"'],
    ['short unicode escape', '"\\u12"'],
    ['unterminated string', '"abc'],
    ['missing colon', '{"a" 1}'],
    ['missing value', '{"a":}'],
    ['two values', '{} {}'],
    ['empty input', ''],
    ['whitespace only', '  \n'],
    ['capitalised literal', 'True'],
    ['vertical tab whitespace', '\u000b{}'],
  ])('rejects %s with parse.syntax', (_label, text) => {
    expect(issues(text).map((i) => i.code)).toEqual(['parse.syntax']);
  });

  it('reports the syntax error position', () => {
    expect(issues('{\n  "a": 1,\n  "b": ]\n}')[0]).toMatchObject({ code: 'parse.syntax', line: 3, column: 8 });
  });

  it('agrees with JSON.parse on arbitrary valid JSON text', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        expect(parseDocument(text, 'json')).toMatchObject({ ok: true, value: JSON.parse(text) as unknown });
      }),
    );
  });
});

describe('what JSON.parse hides', () => {
  it('reports duplicate keys (JSON.parse keeps the last) with pointer and position', () => {
    expect(issues('{"a": {"b": 1,\n "b": 2}}')).toEqual([
      expect.objectContaining({ code: 'duplicate-key', pointer: '/a/b', line: 2, column: 2 }),
    ]);
  });

  it('reports every duplicate, including inside arrays and at the root', () => {
    expect(issues('{"x": [{"k": 1, "k": 2}], "x": 3}').map((i) => i.pointer)).toEqual(['/x/0/k', '/x']);
  });

  it('escapes pointer tokens of duplicate keys', () => {
    expect(issues('{"a/b": 1, "a/b": 2, "c~d": 1, "c~d": 2}').map((i) => i.pointer)).toEqual(['/a~1b', '/c~0d']);
  });

  it('reports numbers that overflow to Infinity as non-finite', () => {
    expect(issues('{"a": [1, 1e400, -1e999]}')).toEqual([
      expect.objectContaining({ code: 'non-finite', pointer: '/a/1', line: 1, column: 11 }),
      expect.objectContaining({ code: 'non-finite', pointer: '/a/2' }),
    ]);
    expect(issues('1e400')[0]).toMatchObject({ code: 'non-finite', pointer: '' });
  });

  it('keeps underflow (1e-400 is 0) and -0', () => {
    const r = parseDocument('[1e-400, -0.0]', 'json');
    expect(r.ok && Object.is((r.value as number[])[1], -0) && (r.value as number[])[0] === 0).toBe(true);
  });

  it('keeps __proto__ as an own member', () => {
    const r = parseDocument('{"__proto__": {"polluted": true}}', 'json');
    if (!r.ok) throw new Error('parse failed');
    expect(Object.getPrototypeOf(r.value)).toBe(Object.prototype);
    expect(Object.keys(r.value as object)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('parses unpaired surrogate escapes (grammatical JSON; the rules reject them)', () => {
    expect(parseDocument('"\\ud800"', 'json')).toMatchObject({ ok: true, value: '\ud800' });
  });
});

describe('JSON locate', () => {
  const r = parseDocument('{\n  "a": [1,\n    {"b": 2}],\n  "c~/": null\n}', 'json');
  if (!r.ok) throw new Error('parse failed');

  it('maps members to their key and elements to their first character', () => {
    expect(r.locate('')).toEqual({ line: 1, column: 1 });
    expect(r.locate('/a')).toEqual({ line: 2, column: 3 });
    expect(r.locate('/a/0')).toEqual({ line: 2, column: 9 });
    expect(r.locate('/a/1')).toEqual({ line: 3, column: 5 });
    expect(r.locate('/a/1/b')).toEqual({ line: 3, column: 6 });
    expect(r.locate('/c~0~1')).toEqual({ line: 4, column: 3 });
  });

  it('returns undefined for what is not there', () => {
    expect(r.locate('/a/2')).toBeUndefined();
    expect(r.locate('/a/01')).toBeUndefined();
    expect(r.locate('/zzz')).toBeUndefined();
    expect(r.locate('/a/1/b/c')).toBeUndefined();
  });
});

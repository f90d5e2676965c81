import { describe, expect, it } from 'vitest';
import { parseDocument, type OapIssue } from '../../spec/document/index.js';

function value(text: string): unknown {
  const r = parseDocument(text, 'yaml');
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.value;
}

function issues(text: string): OapIssue[] {
  const r = parseDocument(text, 'yaml');
  if (r.ok) throw new Error(`expected failure, got ${JSON.stringify(r.value)}`);
  return r.issues;
}

describe('YAML 1.2 core schema', () => {
  it('keeps YAML 1.1 booleans and timestamps as strings', () => {
    expect(value('a: off\nb: yes\nc: no\nd: on\ne: Y\nf: 2026-08-14T18:04:11Z\ng: 2026-08-14\n')).toEqual({
      a: 'off',
      b: 'yes',
      c: 'no',
      d: 'on',
      e: 'Y',
      f: '2026-08-14T18:04:11Z',
      g: '2026-08-14',
    });
  });

  it('resolves core scalars: null, booleans, ints (dec/oct/hex), floats, -0', () => {
    const v = value('n1: ~\nn2: null\nn3:\nt: true\nf: False\ni: 42\no: 0o17\nh: 0x1F\nx: 1.5e3\nz: -0.0\n') as Record<string, unknown>;
    expect(v).toEqual({ n1: null, n2: null, n3: null, t: true, f: false, i: 42, o: 15, h: 31, x: 1500, z: -0 });
    expect(Object.is(v.z, -0)).toBe(true);
  });

  it('produces plain data: no Map, Date, Uint8Array or prototype tricks', () => {
    const v = value('__proto__: {polluted: true}\nlist: [1, {a: b}]\n') as Record<string, unknown>;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.keys(v)).toEqual(['__proto__', 'list']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // biome-ignore lint/suspicious/noProto: reads the own data property named "__proto__" that the parser must create (prototype-pollution check), not the prototype accessor
    expect(v.__proto__).toEqual({ polluted: true });
  });

  it('coerces scalar keys to strings as written', () => {
    expect(value('1: a\n1.50: b\ntrue: c\n~: d\n"quoted": e\n')).toEqual({ '1': 'a', '1.50': 'b', true: 'c', '~': 'd', quoted: 'e' });
  });

  it('treats an empty document as null', () => {
    expect(value('')).toBeNull();
    expect(value('# only a comment\n')).toBeNull();
  });
});

describe('YAML errors', () => {
  it('reports duplicate keys at the second key with line/column', () => {
    expect(issues('a: 1\nb:\n  c: 2\n  c: 3\n')).toEqual([
      expect.objectContaining({ code: 'duplicate-key', pointer: '/b/c', line: 4, column: 3 }),
    ]);
  });

  it('reports keys that collide only after string coercion', () => {
    expect(issues('m:\n  1: a\n  "1": b\n')).toEqual([expect.objectContaining({ code: 'duplicate-key', pointer: '/m/1', line: 3 })]);
  });

  it('reports keys that YAML itself considers equal (1 and 1.0)', () => {
    expect(issues('m:\n  1: a\n  1.0: b\n')[0]).toMatchObject({ code: 'duplicate-key', line: 3 });
  });

  it('rejects multi-document streams', () => {
    expect(issues('a: 1\n---\nb: 2\n')).toEqual([expect.objectContaining({ code: 'parse.multi-document', pointer: '', line: 2 })]);
  });

  it('accepts one explicit document and an end marker', () => {
    expect(value('---\na: 1\n...\n')).toEqual({ a: 1 });
  });

  it.each([
    ['.inf', '/a'],
    ['-.Inf', '/a'],
    ['.NaN', '/a'],
    ['1e400', '/a'],
  ])('rejects non-finite %s at its pointer', (literal, pointer) => {
    expect(issues(`a: ${literal}\n`)).toEqual([expect.objectContaining({ code: 'non-finite', pointer, line: 1, column: 4 })]);
  });

  it('reports every non-finite number, inside sequences too', () => {
    expect(issues('a: [1, .nan, 2, .inf]\n').map((i) => i.pointer)).toEqual(['/a/1', '/a/3']);
  });

  it.each(['!!binary aGk=', '!!set {a, b}', '!!timestamp 2020-01-01', '!!omap [a: 1]', '!custom x'])('rejects tag %s', (tagged) => {
    expect(issues(`a: ${tagged}\n`)[0]?.code).toBe('parse.unsupported-tag');
  });

  it('accepts core tags', () => {
    expect(value('a: !!str 123\nb: !!int "7"\nc: !!float 1.5\nd: !!null ~\n')).toEqual({ a: '123', b: 7, c: 1.5, d: null });
  });

  it('rejects a %YAML 1.1 directive and accepts 1.2', () => {
    expect(issues('%YAML 1.1\n---\na: yes\n')[0]?.code).toBe('parse.yaml-version');
    expect(value('%YAML 1.2\n---\na: yes\n')).toEqual({ a: 'yes' });
  });

  it('does not apply YAML 1.1 merge keys', () => {
    expect(value('base: &b {x: 1}\nchild:\n  <<: *b\n  y: 2\n')).toEqual({ base: { x: 1 }, child: { '<<': { x: 1 }, y: 2 } });
  });

  it('rejects unresolved and self-referencing aliases', () => {
    expect(issues('a: *nope\n')[0]).toMatchObject({ code: 'parse.alias-unresolved', pointer: '/a' });
    expect(issues('a: &x [*x]\n')[0]).toMatchObject({ code: 'parse.alias-unresolved', pointer: '/a/0' });
  });

  it('resolves an alias to the most recent completed anchor', () => {
    expect(value('a: &x 1\nb: &x 2\nc: *x\n')).toEqual({ a: 1, b: 2, c: 2 });
  });

  it('rejects collection keys', () => {
    expect(issues('? [a, b]\n: c\n')[0]).toMatchObject({ code: 'parse.non-scalar-key', pointer: '' });
  });

  it('reports syntax errors with a position', () => {
    expect(issues('a: [1, 2\nb: c\n')[0]).toMatchObject({ code: 'parse.syntax', line: expect.any(Number) });
    expect(issues('a:\n\t- tab indent\n')[0]?.code).toBe('parse.syntax');
  });
});

describe('YAML locate', () => {
  const r = parseDocument('# c\na:\n  b: 1\n  list:\n    - x\n    - key: v\n', 'yaml');
  if (!r.ok) throw new Error('parse failed');

  it('maps members to their key and elements to their node', () => {
    expect(r.locate('')).toEqual({ line: 2, column: 1 });
    expect(r.locate('/a/b')).toEqual({ line: 3, column: 3 });
    expect(r.locate('/a/list/0')).toEqual({ line: 5, column: 7 });
    expect(r.locate('/a/list/1/key')).toEqual({ line: 6, column: 7 });
  });

  it('returns undefined for absent members and malformed pointers', () => {
    expect(r.locate('/a/missing')).toBeUndefined();
    expect(r.locate('/a/list/9')).toBeUndefined();
    expect(r.locate('no-slash')).toBeUndefined();
  });
});

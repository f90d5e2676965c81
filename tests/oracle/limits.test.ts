import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixture, fixtureBytes } from '../../fixtures/index.js';
import {
  DEFAULT_LIMITS,
  loadDocumentFile,
  parseDocument,
  type Encoding,
  type OapIssue,
  type ParseLimits,
} from '../../spec/document/index.js';

function issuesOf(input: string | Uint8Array, encoding: Encoding, limits?: Partial<ParseLimits>): OapIssue[] {
  const r = parseDocument(input, encoding, limits);
  return r.ok ? [] : r.issues;
}

const codes = (issues: OapIssue[]): string[] => issues.map((i) => i.code);

// How fast each hostile input is refused is a benchmark with its bound (bench/limits.ts), not a test.
/** The negative fixture doc-neg-billion-laughs: nine levels of nine aliases each. */
const billionLaughs = (): string => fixtureBytes(fixture('documents', 'doc-neg-billion-laughs')).toString('utf8');

describe('defaults', () => {
  it('are 5 MiB, depth 64, 100 aliases', () => {
    expect(DEFAULT_LIMITS).toMatchObject({ maxBytes: 5 * 1024 * 1024, maxDepth: 64, maxAliases: 100 });
  });
});

describe('alias expansion (limit.aliases)', () => {
  it('stops a billion-laughs document', () => {
    expect(codes(issuesOf(billionLaughs(), 'yaml'))).toEqual(['limit.aliases']);
  });

  it('stops a single alias of a huge anchored node by expansion volume', () => {
    const big = `a: &a [${Array(60_000).fill('1').join(',')}]\nb: *a\nc: *a\n`;
    expect(codes(issuesOf(big, 'yaml'))).toEqual(['limit.aliases']);
  });

  it('allows ordinary aliasing and honours a custom limit', () => {
    const doc = 'x: &x [1, 2]\ny: *x\nz: *x\n';
    expect(parseDocument(doc, 'yaml')).toMatchObject({ ok: true, value: { x: [1, 2], y: [1, 2], z: [1, 2] } });
    expect(codes(issuesOf(doc, 'yaml', { maxAliases: 1 }))).toEqual(['limit.aliases']);
  });

  it('expands aliases into independent copies', () => {
    const r = parseDocument('x: &x {a: 1}\ny: *x\n', 'yaml');
    if (!r.ok) throw new Error('parse failed');
    const v = r.value as { x: object; y: object };
    expect(v.y).toEqual(v.x);
    expect(v.y).not.toBe(v.x);
  });
});

describe('nesting depth (limit.depth)', () => {
  const n = 100_000;
  const cases: Array<[string, string, Encoding]> = [
    ['JSON arrays', '['.repeat(n) + ']'.repeat(n), 'json'],
    ['JSON objects', `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`, 'json'],
    ['YAML flow sequences', '['.repeat(n) + ']'.repeat(n), 'yaml'],
    ['YAML flow mappings', `${'{a: '.repeat(n)}1${'}'.repeat(n)}`, 'yaml'],
    ['YAML compact block sequences', `${'- '.repeat(n)}x\n`, 'yaml'],
    ['Markdown frontmatter', `---\nx: ${'['.repeat(n)}${']'.repeat(n)}\n---\nbody\n`, 'md'],
  ];

  it.each(cases)('%s 100k deep → limit.depth, no RangeError', (_label, text, encoding) => {
    const value = issuesOf(text, encoding);
    expect(codes(value)).toEqual(['limit.depth']);
    expect(value[0]?.line).toBeGreaterThanOrEqual(1);
  });

  it('YAML block mappings 70 deep → limit.depth', () => {
    let text = '';
    for (let i = 0; i < 70; i++) text += `${' '.repeat(i * 2)}k${i}:\n`;
    expect(codes(issuesOf(`${text}${' '.repeat(140)}leaf\n`, 'yaml'))).toEqual(['limit.depth']);
  });

  it.each<Encoding>(['json', 'yaml'])('%s: exactly maxDepth is accepted, one more is not', (encoding) => {
    const doc = (d: number): string => '['.repeat(d) + ']'.repeat(d);
    expect(parseDocument(doc(64), encoding).ok).toBe(true);
    expect(codes(issuesOf(doc(65), encoding))).toEqual(['limit.depth']);
    expect(parseDocument(doc(10), encoding, { maxDepth: 10 }).ok).toBe(true);
    expect(codes(issuesOf(doc(11), encoding, { maxDepth: 10 }))).toEqual(['limit.depth']);
  });

  it('counts depth after alias expansion', () => {
    const inner = '['.repeat(40) + ']'.repeat(40);
    expect(codes(issuesOf(`a: &a ${inner}\nb: ${'['.repeat(30)}*a${']'.repeat(30)}\n`, 'yaml'))).toEqual(['limit.depth']);
  });

  it('reports the JSON pointer where the limit was hit', () => {
    const [i] = issuesOf(`{"a": [${'['.repeat(70)}${']'.repeat(70)}]}`, 'json');
    expect(i?.pointer.startsWith('/a/0/0/0')).toBe(true);
  });
});

describe('size (limit.size)', () => {
  const over = DEFAULT_LIMITS.maxBytes + 1;
  const dir = mkdtempSync(join(tmpdir(), 'oap-oracle-limits-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses oversized strings and bytes before parsing', () => {
    const text = `a: "${'x'.repeat(over)}"\n`;
    expect(codes(issuesOf(text, 'yaml'))).toEqual(['limit.size']);
    expect(codes(issuesOf(new Uint8Array(over), 'json'))).toEqual(['limit.size']);
  });

  it('counts UTF-8 bytes, not characters', () => {
    const limit = 1000;
    const fits = `"${'é'.repeat(499)}"`; // 998 bytes + 2 quotes
    const tooBig = `"${'é'.repeat(500)}"`;
    expect(parseDocument(fits, 'json', { maxBytes: limit }).ok).toBe(true);
    expect(codes(issuesOf(tooBig, 'json', { maxBytes: limit }))).toEqual(['limit.size']);
  });

  it('checks a file size before reading it', () => {
    const file = join(dir, 'huge.agent.yaml');
    writeFileSync(file, Buffer.alloc(over, 0x20));
    const loaded = loadDocumentFile(file);
    expect(codes(loaded.issues)).toEqual(['limit.size']);
    expect(loaded.valid).toBe(false);
    expect(codes(loadDocumentFile(file, { maxBytes: over + 10 }).issues)).not.toContain('limit.size');
  });
});

describe('UTF-8 (parse.utf8)', () => {
  it.each([
    ['a lone continuation byte', [0x61, 0x80], 1],
    ['a truncated sequence', [0x61, 0x0a, 0xe2, 0x82], 2],
    ['an overlong encoding of /', [0xc0, 0xaf], 1],
    ['a UTF-16 surrogate encoded as UTF-8', [0xed, 0xa0, 0x80], 1],
    ['a Latin-1 byte', [0x6e, 0x3a, 0x20, 0x63, 0x61, 0x66, 0xe9, 0x0a], 1],
  ])('rejects %s with its line', (_label, bytes, line) => {
    const [i] = issuesOf(new Uint8Array(bytes), 'yaml');
    expect(i).toMatchObject({ code: 'parse.utf8', line });
  });

  it('accepts valid multi-byte UTF-8 and drops a byte order mark', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from('{"s": "é😀"}', 'utf8')]);
    expect(parseDocument(bytes, 'json')).toMatchObject({ ok: true, value: { s: 'é😀' } });
    expect(parseDocument('\ufeff{"a": 1}', 'json')).toMatchObject({ ok: true, value: { a: 1 } });
  });
});

/**
 * The grammar boundaries of the two OAP schemas (spec/document/schema-bounds.ts, issue 20 part 3)
 * are what they claim: every inside value, placed in an otherwise minimal document, is valid under
 * the project's own validator, and every outside value is refused by the very keyword it stands
 * for, at its place. Values admitted by the keyword but refused by a rule beyond the schema, and
 * the disputed edges of `format`, are held to what they say too.
 */
import { describe, expect, it } from 'vitest';
import { isValid, validateDocument } from '../../spec/document/index.js';
import { patternBoundary } from '../../spec/document/pattern-grammar.js';
import { minimalDocument, placeAt, placedPointer, schemaBounds, type SchemaBound } from '../../spec/document/schema-bounds.js';

const label = (v: unknown): string => {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 60 ? `${s.slice(0, 40)}… (${s.length} chars)` : s;
};

/** The bound's pointer as a pattern over concrete issue pointers (`*` = one token). */
const placePattern = (pointer: string): RegExp =>
  new RegExp(
    `^${pointer
      .split('/')
      .map((t) => (t === '*' ? '[^/]+' : t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/')}$`,
  );

const issuesOf = (b: SchemaBound, value: unknown) => validateDocument(placeAt(b.schema, b.pointer, value)).issues;

const BOUNDS = schemaBounds();

describe('minimal documents', () => {
  it.each(['profile', 'delta'] as const)('the minimal %s is valid', (schema) => {
    expect(validateDocument(minimalDocument(schema)).issues).toEqual([]);
  });
});

describe('every bound of both schemas is found', () => {
  const count = (keyword: string, schema?: string): number =>
    BOUNDS.filter((b) => b.keyword === keyword && (schema === undefined || b.schema === schema)).length;

  it.each([
    // Counted from the vendored schemas by hand, per place (a $defs entry counts once per use).
    ['pattern', 'profile', 8],
    ['pattern', 'delta', 5],
    ['format', 'profile', 13],
    ['format', 'delta', 2],
    ['exclusiveMinimum', 'profile', 1],
    ['minLength', 'profile', 4],
    ['minLength', 'delta', 1],
  ] as const)('%s in the %s schema: %i places', (keyword, schema, n) => expect(count(keyword, schema)).toBe(n));

  it('ids are unique and every keyword kind appears', () => {
    expect(new Set(BOUNDS.map((b) => b.id)).size).toBe(BOUNDS.length);
    for (const k of [
      'pattern',
      'minLength',
      'maxLength',
      'minimum',
      'maximum',
      'exclusiveMinimum',
      'maxItems',
      'enum',
      'const',
      'format',
    ]) {
      expect(count(k), k).toBeGreaterThan(0);
    }
  });

  it('every bound has values on both sides', () => {
    for (const b of BOUNDS) {
      expect(b.inside.length, b.id).toBeGreaterThan(0);
      expect(b.outside.length, b.id).toBeGreaterThan(0);
    }
  });
});

describe.each(BOUNDS.map((b) => [b.id, b] as const))('%s', (_id, b) => {
  it.each(b.inside.map((v) => [label(v.value), v.why, v.value] as const))('inside %s (%s) is valid', (_l, _why, value) => {
    expect(issuesOf(b, value).filter((i) => i.severity === 'error')).toEqual([]);
  });

  it.each(b.outside.map((v) => [label(v.value), v.why, v] as const))('outside %s (%s) is refused by its own keyword', (_l, _why, v) => {
    const issues = issuesOf(b, v.value);
    expect(isValid(issues)).toBe(false);
    const at = placePattern(b.pointer);
    const code = v.refusedAs ?? `schema.${b.keyword}`;
    expect(
      issues.some((i) => i.code === code && at.test(i.pointer)),
      JSON.stringify(issues),
    ).toBe(true);
  });

  if (b.beyondSchema.length > 0) {
    it.each(b.beyondSchema.map((v) => [label(v.value), v.rule, v.value] as const))(
      'beyond the schema %s is refused by a rule (%s)',
      (_l, _rule, value) => {
        const issues = issuesOf(b, value);
        expect(isValid(issues)).toBe(false);
        expect(issues.filter((i) => i.code.startsWith('schema.'))).toEqual([]);
      },
    );
  }

  if (b.disputed.length > 0) {
    it.each(b.disputed.map((v) => [label(v.value), v.reading, v.value] as const))(
      'disputed %s: the validator accepts it (%s)',
      (_l, _reading, value) => {
        expect(isValid(issuesOf(b, value))).toBe(true);
      },
    );
  }
});

describe('known answers', () => {
  const bound = (id: string): SchemaBound => {
    const b = BOUNDS.find((x) => x.id === id);
    if (b === undefined) throw new Error(`no bound ${id}`);
    return b;
  };
  const values = (vs: ReadonlyArray<{ value: unknown }>): unknown[] => vs.map((v) => v.value);

  it('metadata.name: the longest legal name is 64 characters, one past is 65, every class at every position', () => {
    const b = bound('profile:/metadata/name:pattern');
    expect(values(b.inside)).toEqual(expect.arrayContaining(['a', 'z', '0', '9', 'a.a', 'a_a', 'a-a', 'a'.repeat(64)]));
    expect(values(b.outside)).toEqual(
      expect.arrayContaining(['a'.repeat(65), 'A', '.', '-', 'a.', 'a-', 'a_', 'aAa', 'a/a', 'aéa', 'a\n', ' a', '']),
    );
  });

  it('env references: a 64-character name is the longest, a digit or underscore cannot start one', () => {
    const b = bound('profile:/spec/tools/mcp_servers/*/env/*:pattern');
    expect(values(b.inside)).toEqual(expect.arrayContaining(['${A}', '${A_}', '${A9}', `\${${'A'.repeat(64)}}`]));
    expect(values(b.outside)).toEqual(expect.arrayContaining(['${a}', '${0}', '${_}', `\${${'A'.repeat(65)}}`, '${A}\n', '$A}']));
  });

  it('headers: Bearer is case sensitive and takes one space', () => {
    const b = bound('profile:/spec/tools/mcp_servers/*/headers/*:pattern');
    expect(values(b.inside)).toEqual(expect.arrayContaining(['Bearer ${A}', '${A}']));
    expect(values(b.outside)).toEqual(expect.arrayContaining(['bearer ${A}', 'Bearer${A}', 'Bearer Bearer ${A}']));
  });

  it('state pointers: a prefix is not the segment, a line terminator is outside `.`, 500 characters is the longest', () => {
    const b = bound('delta:/operations/*/path:pattern');
    expect(values(b.inside)).toEqual(expect.arrayContaining(['/state', '/state/', '/state/😀', `/state/${'a'.repeat(493)}`]));
    expect(values(b.outside)).toEqual(expect.arrayContaining(['/statex', '/State', '/state/\n', '/state/\u2028']));
  });

  it('oap: minors above 0 are inside the pattern and refused by the version rule', () => {
    const b = bound('profile:/oap:pattern');
    expect(values(b.inside)).toContain('1.0');
    expect(values(b.beyondSchema)).toContain('1.9');
    expect(values(b.outside)).toEqual(expect.arrayContaining(['1.', '10', '1.0\n']));
  });

  it('numbers: next doubles at a number bound, negative zero beside a bound of 0', () => {
    expect(values(bound('profile:/spec/model/parameters/temperature:maximum').outside)).toEqual([2.0000000000000004]);
    expect(values(bound('profile:/spec/runtime/max_cost_usd:exclusiveMinimum').inside)).toEqual([5e-324]);
    expect(values(bound('profile:/spec/runtime/max_cost_usd:exclusiveMinimum').outside)).toEqual([0, -0]);
    expect(values(bound('profile:/spec/runtime/max_tool_calls:minimum').inside)).toEqual([0, 1, -0]);
  });

  it('lengths count code points: maxLength n of astral characters is inside', () => {
    const b = bound('profile:/metadata/description:maxLength');
    expect(values(b.inside)).toContain('😀'.repeat(500));
    expect(values(b.outside)).toContain('😀'.repeat(501));
  });

  it('dates are outside format only; a case may not require refusing them', () => {
    const b = bound('profile:/metadata/created_at:format');
    expect(b.outsideJudged).toBe(false);
    expect(values(b.inside)).toEqual(expect.arrayContaining(['2016-12-31T23:59:60Z', '2026-01-01t00:00:00z', '2000-02-29T00:00:00Z']));
    expect(values(b.outside)).toEqual(expect.arrayContaining(['2100-02-29T00:00:00Z', '2026-01-01T00:00:00']));
  });
});

describe('placedPointer: where placeAt put a value', () => {
  it('reads `*` as placeAt does: the first array item, or the free key the value names', () => {
    const doc = placeAt('profile', '/spec/tools/mcp_servers/*/env/*', '${TOKEN}');
    placeAt('profile', '/spec/tools/mcp_servers/*/command', 'run', doc);
    expect(placedPointer('/spec/tools/mcp_servers/*/env/*', '${TOKEN}', doc)).toBe('/spec/tools/mcp_servers/0/env/TOKEN');
    expect(placedPointer('/spec/tools/mcp_servers/*/command', 'run', doc)).toBe('/spec/tools/mcp_servers/0/command');
  });

  it('is undefined where the document has no such path', () => {
    expect(
      placedPointer('/spec/tools/mcp_servers/*/env/*', '${OTHER}', placeAt('profile', '/spec/tools/mcp_servers/*/env/*', '${TOKEN}')),
    ).toBe(undefined);
    expect(placedPointer('/metadata/labels/*', 'x', minimalDocument('profile'))).toBe(undefined);
  });
});

describe('the pattern grammar refuses what it does not understand', () => {
  it.each(['a$', '^a', '^(?=a)$', '^[^a]$', '^\\d$', '^a{2,x}$'])('%s throws', (p) => expect(() => patternBoundary(p)).toThrow());
});

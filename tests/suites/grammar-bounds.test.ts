/**
 * The grammar-boundary cases (issue 20 part 3: suites/level-1/grammar-bounds.ts,
 * suites/level-2/delta-bounds.ts) submit what they claim: every profile document, written in any
 * of the three encodings, reads back as the very document the bound stands for (a case about a
 * 64-character name must not be a case about the YAML writer), and the cases cover every bound of
 * both schemas on every side that is judged.
 */
import { describe, expect, it } from 'vitest';
import { canonicalJson, parseDocument } from '../../spec/document/index.js';
import { minimalDocument, placeAt, schemaBounds } from '../../spec/document/schema-bounds.js';
import { serializeDocument } from '../../suites/kit/workspace.js';
import { boundGroups } from '../../suites/support/bound-values.js';
import { allCases } from '../../suites/index.js';

describe('profile documents read back as themselves in every encoding', () => {
  const documents = (['inside', 'outside', 'beyond'] as const).flatMap((side) =>
    boundGroups('profile', side).flatMap((g) =>
      g.values().map((v) => ({ side, v, doc: placeAt('profile', v.bound.pointer, v.value, minimalDocument('profile')) })),
    ),
  );

  /** A Markdown body ends with a line break that is not content (INTERPRETATIONS.md, L3-G1): the body read without it. */
  const chomped = (read: unknown): unknown => {
    const role = (read as { spec?: { role?: { instructions?: unknown } } }).spec?.role;
    if (typeof role?.instructions === 'string') role.instructions = role.instructions.replace(/\n$/, '');
    return read;
  };

  it.each(['yaml', 'json', 'md'] as const)('%s', (encoding) => {
    const differ = documents.flatMap(({ side, v, doc }) => {
      // The cases leave these out in Markdown: the body cannot end without a line break.
      if (encoding === 'md' && v.bound.pointer === '/spec/role/instructions') return [];
      const read = parseDocument(serializeDocument(doc, encoding), encoding);
      const value = read.ok ? (encoding === 'md' ? chomped(read.value) : read.value) : undefined;
      return read.ok && canonicalJson(value) === canonicalJson(doc)
        ? []
        : [`${side} ${v.bound.id} ${JSON.stringify(v.value)?.slice(0, 40)}`];
    });
    expect(differ).toEqual([]);
  });
});

describe('the cases cover every bound', () => {
  const cases = allCases().filter((c) => /\/(delta-)?bounds-/.test(c.id));
  const boundsOf = (pattern: RegExp): string[] =>
    cases.filter((c) => pattern.test(c.id)).flatMap((c) => (c.expectation as { bounds: string[] }).bounds);
  /** Not submitted inside: `kind`'s one value is the control document, and deltas inside these are not applied by design (suites/level-2/delta-bounds.ts). */
  const NOT_APPLIED = [
    'profile:/kind:const',
    'delta:/kind:const',
    'delta:/target/digest:pattern',
    'delta:/operations/*/path:pattern',
    'delta:/operations/*/path:maxLength',
  ];

  it('one case per schema, keyword and side, each naming its clauses', () => {
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
    for (const c of cases) expect(c.clauses.length, c.id).toBeGreaterThan(0);
  });

  it('every bound is inside a case once, every judged outside one (`oap` split by its rule), and the beyond-schema minor once', () => {
    const all = schemaBounds();
    const inside = boundsOf(/inside/);
    const outside = boundsOf(/outside/);
    expect(inside.sort()).toEqual(
      all
        .map((b) => b.id)
        .filter((id) => !NOT_APPLIED.includes(id))
        .sort(),
    );
    expect([...new Set(outside)].sort()).toEqual(
      all
        .filter((b) => b.outsideJudged)
        .map((b) => b.id)
        .sort(),
    );
    expect(outside.filter((id) => id === 'profile:/oap:pattern')).toHaveLength(2);
    expect(boundsOf(/beyond/)).toEqual(all.filter((b) => b.schema === 'profile' && b.beyondSchema.length > 0).map((b) => b.id));
  });
});

/**
 * parseDocument keeps its recent results (a run parses the same documents many times): a repeated
 * parse gives the same answer, every caller gets a value of its own to edit, and the limits are
 * part of what is remembered.
 */
import { describe, expect, it } from 'vitest';
import { type Encoding, parseDocument } from '../../spec/document/index.js';

const DOCS: Array<[Encoding, string]> = [
  ['yaml', 'oap: "1.0"\nkind: AgentProfile\nmetadata:\n  name: cached\n  tags: [a, b]\nspec:\n  role:\n    instructions: x\n'],
  ['json', '{"oap":"1.0","kind":"AgentProfile","metadata":{"name":"cached","tags":["a","b"]},"spec":{"role":{"instructions":"x"}}}'],
  ['md', '---\noap: "1.0"\nkind: AgentProfile\nmetadata:\n  name: cached\n  tags: [a, b]\n---\nx\n'],
];

describe('parseDocument, parsed again', () => {
  it.each(DOCS)('%s: the same value, position map and copy of its own for each caller', (encoding, text) => {
    const first = parseDocument(text, encoding);
    if (!first.ok) throw new Error(`does not parse: ${JSON.stringify(first.issues)}`);
    const pristine = structuredClone(first.value);
    const tags = (first.value as { metadata: { tags: string[]; name: string } }).metadata;
    tags.tags.push('edited');
    tags.name = 'edited';
    const again = parseDocument(Buffer.from(text, 'utf8'), encoding);
    if (!again.ok) throw new Error('does not parse the second time');
    expect(again.value).toEqual(pristine);
    expect(again.value).not.toBe(first.value);
    expect(again.locate('/metadata/name')).toEqual(first.locate('/metadata/name'));
    expect(again.locate('/metadata/name')).toBeDefined();
  });

  it('gives each caller its own issues', () => {
    const text = 'a: 1\na: 2\n';
    const first = parseDocument(text, 'yaml');
    if (first.ok) throw new Error('a duplicate key must not parse');
    const codes = first.issues.map((i) => i.code);
    first.issues.length = 0;
    const again = parseDocument(text, 'yaml');
    expect(again.ok ? [] : again.issues.map((i) => i.code)).toEqual(codes);
  });

  it('tells the same text under other limits apart, in either order', () => {
    const text = 'a:\n  b:\n    c: 1\n';
    expect(parseDocument(text, 'yaml').ok).toBe(true);
    const shallow = parseDocument(text, 'yaml', { maxDepth: 2 });
    expect(shallow.ok ? [] : shallow.issues.map((i) => i.code)).toEqual(['limit.depth']);
    expect(parseDocument(text, 'yaml').ok).toBe(true);
  });
});

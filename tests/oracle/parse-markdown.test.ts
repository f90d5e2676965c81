import { describe, expect, it } from 'vitest';
import { parseDocument, type ParseResult } from '../../spec/document/index.js';

const FM = '---\noap: "1.0"\nkind: AgentProfile\nmetadata:\n  name: m\n  description: d\n';

function md(text: string): ParseResult {
  return parseDocument(text, 'md');
}

function instructions(r: ParseResult): unknown {
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return (r.value as { spec?: { role?: { instructions?: unknown } } }).spec?.role?.instructions;
}

describe('Markdown body → spec.role.instructions', () => {
  it('creates spec and role when the frontmatter has neither', () => {
    const r = md(`${FM}---\nBe helpful.\n`);
    expect(r).toMatchObject({ ok: true, value: { oap: '1.0', spec: { role: { instructions: 'Be helpful.\n' } } } });
  });

  it('extends an existing spec.role', () => {
    const r = md(`${FM}spec:\n  role:\n    constraints: [x]\n  model: {tier: standard}\n---\nBody\n`);
    expect(r).toMatchObject({
      ok: true,
      value: { spec: { role: { constraints: ['x'], instructions: 'Body\n' }, model: { tier: 'standard' } } },
    });
  });

  it('normalises like a YAML literal block: leading blank lines and trailing whitespace dropped, one final newline', () => {
    expect(instructions(md(`${FM}---\n\n  \n# Title\n\n  indented line\nlast line   \n\n\n`))).toBe(
      '# Title\n\n  indented line\nlast line\n',
    );
  });

  it('converts CRLF to LF, in frontmatter and body', () => {
    const r = md(`${FM.replace(/\n/g, '\r\n')}---\r\n\r\nLine one\r\nLine two\r\n`);
    expect(r).toMatchObject({ ok: true, value: { metadata: { name: 'm' } } });
    expect(instructions(r)).toBe('Line one\nLine two\n');
  });

  it('keeps a --- line inside the body (only the first closing fence counts)', () => {
    expect(instructions(md(`${FM}---\nAbove\n---\nBelow\n`))).toBe('Above\n---\nBelow\n');
  });

  it('accepts trailing spaces on fence lines and an empty frontmatter', () => {
    expect(md('--- \n---  \nBody\n')).toMatchObject({ ok: true, value: { spec: { role: { instructions: 'Body\n' } } } });
  });

  it('leaves instructions absent when the body is empty (the schema reports it)', () => {
    const r = md(`${FM}spec:\n  role: {}\n---\n\n \n`);
    expect(r).toMatchObject({ ok: true, value: { spec: { role: {} } } });
    expect(instructions(r)).toBeUndefined();
  });

  it('does not overwrite a non-object spec', () => {
    expect(md(`${FM}spec: text\n---\nBody\n`)).toMatchObject({ ok: true, value: { spec: 'text' } });
  });

  it('locates the instructions at the first body line and other members in the frontmatter', () => {
    const r = md(`${FM}spec:\n  model: {tier: standard}\n---\n\n\nFirst line\n`);
    if (!r.ok) throw new Error('parse failed');
    expect(r.locate('/spec/role/instructions')).toEqual({ line: 12, column: 1 });
    expect(r.locate('/metadata/name')).toEqual({ line: 5, column: 3 });
    expect(r.locate('/spec/model/tier')).toEqual({ line: 8, column: 11 });
  });
});

describe('Markdown encoding errors', () => {
  it('rejects instructions in frontmatter and body (L3-G1) at the frontmatter key', () => {
    const r = md(`${FM}spec:\n  role:\n    instructions: Front.\n---\nBody.\n`);
    expect(r).toEqual({
      ok: false,
      issues: [expect.objectContaining({ code: 'encoding.instructions-in-both', pointer: '/spec/role/instructions', line: 9, column: 5 })],
    });
  });

  it('rejects instructions in frontmatter even with an empty body (SPEC §2.1 MUST NOT)', () => {
    const r = md(`${FM}spec:\n  role:\n    instructions: Front.\n---\n`);
    expect(r).toMatchObject({ ok: false, issues: [{ code: 'encoding.instructions-in-frontmatter', pointer: '/spec/role/instructions' }] });
  });

  it.each([
    ['no frontmatter at all', '# Title\nBody\n', 'encoding.frontmatter-missing'],
    ['frontmatter not on the first line', '\n---\na: 1\n---\nBody\n', 'encoding.frontmatter-missing'],
    ['a longer fence', '----\na: 1\n----\nBody\n', 'encoding.frontmatter-missing'],
    ['an unterminated frontmatter', '---\na: 1\nBody\n', 'encoding.frontmatter-unterminated'],
    ['a sequence as frontmatter', '---\n- a\n---\nBody\n', 'encoding.frontmatter-not-mapping'],
    ['a scalar as frontmatter', '---\njust text\n---\nBody\n', 'encoding.frontmatter-not-mapping'],
  ])('rejects %s', (_label, text, code) => {
    expect(md(text)).toMatchObject({ ok: false, issues: [{ code }] });
  });

  it('reports frontmatter YAML errors with file line numbers', () => {
    expect(md('---\na: 1\na: 2\n---\nBody\n')).toMatchObject({ ok: false, issues: [{ code: 'duplicate-key', pointer: '/a', line: 3 }] });
    expect(md('---\na: .inf\n---\nBody\n')).toMatchObject({ ok: false, issues: [{ code: 'non-finite', pointer: '/a', line: 2 }] });
  });
});

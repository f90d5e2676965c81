import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { encodingFromPath, isOapDocumentName, loadDocument, loadDocumentFile } from '../../spec/document/index.js';

describe('encodingFromPath', () => {
  it.each([
    ['a.agent.yaml', 'yaml'],
    ['a.agent.yml', 'yaml'],
    ['a.AGENT.YAML', 'yaml'],
    ['x.delta.yaml', 'yaml'],
    ['x.delta.yml', 'yaml'],
    ['plain.yaml', 'yaml'],
    ['a.agent.json', 'json'],
    ['x.delta.json', 'json'],
    ['a.agent.md', 'md'],
    ['dir.yaml/file.txt', undefined],
    ['README', undefined],
    ['a.agent.toml', undefined],
  ])('%s → %s', (path, encoding) => {
    expect(encodingFromPath(path)).toBe(encoding);
  });

  it.each([
    ['a.agent.yaml', true],
    ['a.agent.yml', true],
    ['a.agent.json', true],
    ['a.agent.md', true],
    ['x.delta.yaml', true],
    ['x.delta.json', true],
    ['x.delta.md', false],
    ['notes.yaml', false],
    ['agent.yaml', false],
  ])('isOapDocumentName(%s) = %s', (name, expected) => {
    expect(isOapDocumentName(name)).toBe(expected);
  });
});

describe('loadDocument', () => {
  it('attaches source positions to schema and rule issues, falling back to the nearest ancestor', () => {
    const text =
      'oap: "1.0"\nkind: AgentProfile\nmetadata:\n  name: p\n  description: d\nspec:\n  role:\n    constraints: [x]\n  context:\n    files:\n      - path: ../x\n';
    const r = loadDocument(text, 'yaml');
    expect(r.valid).toBe(false);
    expect(r.kind).toBe('AgentProfile');
    expect(r.issues).toEqual([
      expect.objectContaining({ code: 'path-escape.traversal', pointer: '/spec/context/files/0/path', line: 11, column: 9 }),
      expect.objectContaining({ code: 'schema.required', pointer: '/spec/role/instructions', line: 7, column: 3 }),
    ]);
  });

  it('returns parse issues without a value', () => {
    const r = loadDocument('{"a": 1, "a": 2}', 'json');
    expect(r).toMatchObject({ valid: false, kind: undefined, issues: [{ code: 'duplicate-key' }] });
    expect(r.value).toBeUndefined();
  });

  it('passes rule options through', () => {
    const text = JSON.stringify({
      oap: '1.0',
      kind: 'AgentProfile',
      metadata: { name: 'p', description: 'd' },
      spec: { role: { instructions: 'x' }, permissions: { filesystem: { read_roots: ['/srv/data'] } } },
    });
    expect(loadDocument(text, 'json').valid).toBe(false);
    expect(loadDocument(text, 'json', undefined, { allowAbsolutePaths: true }).valid).toBe(true);
  });
});

describe('loadDocumentFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'oap-oracle-load-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reports unreadable input as io issues instead of throwing', () => {
    expect(loadDocumentFile(join(dir, 'missing.agent.yaml')).issues).toEqual([expect.objectContaining({ code: 'io.not-found' })]);
    expect(loadDocumentFile(join(dir, 'missing', 'deeper.agent.yaml')).issues[0]?.code).toBe('io.not-found');
    const sub = join(dir, 'sub.agent.yaml');
    mkdirSync(sub);
    expect(loadDocumentFile(sub).issues[0]?.code).toBe('io.is-directory');
  });

  it('refuses unknown extensions', () => {
    const file = join(dir, 'profile.txt');
    writeFileSync(file, 'oap: "1.0"');
    expect(loadDocumentFile(file)).toMatchObject({ encoding: undefined, valid: false, issues: [{ code: 'parse.encoding-unknown' }] });
  });

  it('loads and validates a file by its extension', () => {
    const file = join(dir, 'ok.agent.json');
    writeFileSync(
      file,
      JSON.stringify({
        oap: '1.0',
        kind: 'AgentProfile',
        metadata: { name: 'ok', description: 'd' },
        spec: { role: { instructions: 'x' } },
      }),
    );
    expect(loadDocumentFile(file)).toMatchObject({ encoding: 'json', kind: 'AgentProfile', valid: true, issues: [] });
  });
});

import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ISSUE_CATEGORIES } from '../../protocol/vocabulary.js';
import { categoryOf, loadDocumentFile, profileDigest, specDigest, type OapIssue } from '../../spec/document/index.js';
import { type DocumentExpectation, fixtures, fixtureTreeDir } from '../../fixtures/index.js';

/**
 * fixtures/documents/manifest.json, through the one fixture loader (fixtures/index.ts): one entry
 * per fixture, `expect` {valid: true} | {valid: false, code, pointer?, line?}. A negative fixture
 * passes when at least one issue matches: `code` containing a dot is compared exactly, a bare
 * category is compared with the issue's category; `pointer` and `line`, when given, must match
 * exactly.
 */
const DIR = fixtureTreeDir('documents');
const manifest = fixtures('documents');

function matches(i: OapIssue, e: DocumentExpectation): boolean {
  const code = e.code ?? '';
  const codeOk = code.includes('.') ? i.code === code : categoryOf(i.code) === code;
  return codeOk && (e.pointer === undefined || i.pointer === e.pointer) && (e.line === undefined || i.line === e.line);
}

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? listFiles(full) : [full];
  });
}

describe('fixture manifest', () => {
  it('is well formed: unique stable ids, existing files, known categories', () => {
    expect(manifest.length).toBeGreaterThanOrEqual(60);
    const ids = manifest.map((f) => f.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const f of manifest) {
      expect(f.id).toMatch(/^doc-(pos|neg)-[a-z0-9-]+$/);
      expect(f.id.startsWith('doc-pos-')).toBe(f.expect.valid);
      expect(existsSync(join(DIR, f.file)), f.file).toBe(true);
      for (const r of f.requirements) expect(r).toMatch(/^(L[1-3]-[A-Z][0-9]+|SPEC [0-9.]+)$/);
      if (!f.expect.valid) {
        expect(f.expect.code, f.id).toBeDefined();
        expect(ISSUE_CATEGORIES as readonly string[], f.id).toContain(f.expect.code!.split('.')[0]);
      }
    }
  });

  it('lists every document file in the fixture tree', () => {
    const listed = new Set(manifest.map((f) => f.file));
    const unlisted = listFiles(DIR)
      .map((p) => relative(DIR, p))
      .filter((p) => /\.(agent|delta)\.(ya?ml|json|md)$/.test(p) && !listed.has(p));
    expect(unlisted).toEqual([]);
  });

  it('covers positives and negatives in every encoding and both kinds', () => {
    const has = (re: RegExp, valid: boolean): boolean => manifest.some((f) => re.test(f.file) && f.expect.valid === valid);
    for (const re of [/\.agent\.ya?ml$/, /\.agent\.json$/, /\.agent\.md$/, /\.delta\.ya?ml$/, /\.delta\.json$/]) {
      expect(has(re, true), String(re)).toBe(true);
      expect(has(re, false), String(re)).toBe(true);
    }
  });
});

describe.each(manifest)('$id ($file)', (fixture) => {
  it(fixture.expect.valid ? 'is valid' : `is rejected with ${fixture.expect.code} at ${fixture.expect.pointer ?? '(any pointer)'}`, () => {
    const loaded = loadDocumentFile(join(DIR, fixture.file));
    const summary = loaded.issues.map((i) => `${i.code} ${i.pointer} ${i.line ?? '?'}:${i.column ?? '?'}`);
    if (fixture.expect.valid) {
      expect(summary).toEqual([]);
      expect(loaded.valid).toBe(true);
      expect(loaded.kind).toMatch(/^Agent(Profile|StateDelta)$/);
    } else {
      expect(loaded.valid).toBe(false);
      expect(
        loaded.issues.some((i) => matches(i, fixture.expect)),
        summary.join('\n'),
      ).toBe(true);
      for (const i of loaded.issues) expect(i.severity).toBe('error');
    }
  });
});

describe('one profile in three encodings (SPEC §2.1)', () => {
  const load = (ext: string) => loadDocumentFile(join(DIR, 'same', `reviewer.agent.${ext}`));
  const [yaml, json, md] = [load('yaml'), load('json'), load('md')];

  it('parses to identical logical documents', () => {
    expect(yaml.valid && json.valid && md.valid).toBe(true);
    expect(json.value).toEqual(yaml.value);
    expect(md.value).toEqual(yaml.value);
  });

  it('has identical profile and spec digests', () => {
    expect(profileDigest(json.value)).toBe(profileDigest(yaml.value));
    expect(profileDigest(md.value)).toBe(profileDigest(yaml.value));
    expect(specDigest(md.value)).toBe(specDigest(yaml.value));
  });
});

/**
 * The Level 1 document fixtures (fixtures/level-1/manifest.json): files written for this suite,
 * each with a stable ID, the requirement it serves and a structured expectation. The runner reads
 * the logical document with its own oracle so a case can re-encode it in whatever encoding the
 * adapter claims; the adapter never sees the expectation.
 */
import { readFileSync } from 'node:fs';
import { fromRoot } from '../../spec/package-root.js';
import { parseDocument } from '../../spec/document/index.js';

export interface DocumentFixture {
  id: string;
  file: string;
  requirement: string;
  expect: {
    valid: false;
    instantiate: 'rejected';
    /** The category a correct refusal carries (schema fixtures). */
    category?: string;
    /** Categories that each name the violated rule (version and kind fixtures). */
    categories?: string[];
    pointer: string;
    parentAccepted: boolean;
  };
}

export interface LoadedFixture extends DocumentFixture {
  /** The file as written (YAML). */
  text: string;
  /** The logical document, as the oracle reads the file. */
  doc: Record<string, unknown>;
}

let cache: LoadedFixture[] | undefined;

export function levelOneFixtures(): LoadedFixture[] {
  if (cache) return cache;
  const manifest = JSON.parse(readFileSync(fromRoot('fixtures', 'level-1', 'manifest.json'), 'utf8')) as { fixtures: DocumentFixture[] };
  cache = manifest.fixtures.map((f) => {
    const text = readFileSync(fromRoot('fixtures', 'level-1', f.file), 'utf8');
    const parsed = parseDocument(text, 'yaml');
    if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) {
      throw new Error(`fixture ${f.id} (${f.file}) does not parse as a YAML mapping`);
    }
    return { ...f, text, doc: parsed.value as Record<string, unknown> };
  });
  return cache;
}

export function fixturesFor(requirement: string): LoadedFixture[] {
  return levelOneFixtures().filter((f) => f.requirement === requirement);
}

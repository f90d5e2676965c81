/**
 * The build's standalone validators (dist/spec/document/compiled-schemas.cjs, written by
 * compile-schemas.ts) judge every document exactly as a validator compiled at run time does:
 * the same verdict and the same ajv errors, for every YAML/JSON document under fixtures/. The
 * runner and every adapter process load them instead of compiling (`npm test` builds first).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { extname, join } from 'node:path';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../../spec/document/index.js';
import { createAjv } from '../../spec/document/ajv.js';
import { SCHEMA_FILES, schemaSource } from '../../spec/document/schema.js';
import { fromRoot } from '../../spec/package-root.js';

const built = createRequire(import.meta.url)(fromRoot('dist', 'spec', 'document', 'compiled-schemas.cjs')) as {
  digests: Record<string, string>;
  validators: Record<string, () => ValidateFunction & { default?: ValidateFunction }>;
};

function documents(dir: string): unknown[] {
  const out: unknown[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...documents(path));
    else if (['.yaml', '.json'].includes(extname(name))) {
      const parsed = parseDocument(readFileSync(path), extname(name) === '.json' ? 'json' : 'yaml');
      if (parsed.ok) out.push(parsed.value);
    }
  }
  return out;
}

const DOCS = documents(fromRoot('fixtures'));

describe.each(Object.keys(SCHEMA_FILES) as Array<keyof typeof SCHEMA_FILES>)('compiled %s schema', (name) => {
  it('was compiled from the schema as it is now', () => {
    expect(built.digests[name]).toBe(schemaSource(name).sha256);
  });

  it(`gives the run-time validator's verdict and errors on ${DOCS.length} fixture documents`, () => {
    const mod = built.validators[name]!();
    const compiled = mod.default ?? mod;
    const runtime = createAjv({ allErrors: true, strict: false }).compile(schemaSource(name).schema);
    expect(DOCS.length).toBeGreaterThan(100);
    for (const doc of DOCS) {
      expect(compiled(doc)).toBe(runtime(doc));
      expect(compiled.errors ?? null).toEqual(runtime.errors ?? null);
    }
  });
});

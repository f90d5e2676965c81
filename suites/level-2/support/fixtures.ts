/**
 * Level 2 fixtures on disk: fixtures/level-2/<dir>/manifest.json lists each fixture's stable ID,
 * file, the requirement it serves and a structured expectation (never message text).
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from '../../../spec/document/index.js';
import { fromRoot } from '../../../spec/package-root.js';

export interface FixtureMeta {
  id: string;
  file: string;
  requirement: string;
  description: string;
  expectation: Record<string, unknown>;
}

interface Loaded extends FixtureMeta {
  dir: string;
}

let index: Map<string, Loaded> | undefined;

function load(): Map<string, Loaded> {
  if (index) return index;
  const root = fromRoot('fixtures', 'level-2');
  const out = new Map<string, Loaded>();
  for (const dir of readdirSync(root, { withFileTypes: true })) {
    if (!dir.isDirectory()) continue;
    const manifest = join(root, dir.name, 'manifest.json');
    if (!existsSync(manifest)) continue;
    const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as { fixtures: FixtureMeta[] };
    for (const f of parsed.fixtures) {
      if (out.has(f.id)) throw new Error(`duplicate Level 2 fixture ID ${f.id}`);
      out.set(f.id, { ...f, dir: join(root, dir.name) });
    }
  }
  index = out;
  return out;
}

export function fixtureMeta(id: string): FixtureMeta {
  const f = load().get(id);
  if (!f) throw new Error(`unknown Level 2 fixture ${id}`);
  return f;
}

/** The fixture's document as data (a fresh copy each call). */
export function fixtureDoc(id: string): Record<string, unknown> {
  const f = load().get(id);
  if (!f) throw new Error(`unknown Level 2 fixture ${id}`);
  const enc = f.file.endsWith('.json') ? 'json' : 'yaml';
  const parsed = parseDocument(readFileSync(join(f.dir, f.file)), enc);
  if (!parsed.ok) throw new Error(`fixture ${id} does not parse: ${parsed.issues[0]?.code}`);
  return parsed.value as Record<string, unknown>;
}

export function allFixtureIds(): string[] {
  return [...load().keys()].sort();
}

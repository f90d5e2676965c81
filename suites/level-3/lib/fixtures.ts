/**
 * Level 3 fixture directories: `fixtures/level-3/<dir>/manifest.json` lists fixtures with a stable
 * ID, the requirement, the files, and a structured expectation. Files are copied byte for byte into
 * the case workspace, so what the adapter reads is exactly what is in the repository.
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fromRoot } from '../../../spec/package-root.js';
import type { AdapterIssueT } from '../../../adapters/protocol/messages.js';
import type { Workspace } from '../../framework/workspace.js';

export interface FixtureExpectation {
  outcome: 'instantiated' | 'rejected';
  category?: AdapterIssueT['category'];
  prompt_contains?: string[];
  prompt_lacks?: string[];
  whole_prompt_lacks?: string[];
  session?: { name?: string; revision?: number };
  state_included?: string[];
}

export interface FixtureEntry {
  id: string;
  requirement: string;
  files: string[];
  entry: string;
  expectation: FixtureExpectation;
}

interface Manifest {
  directory: string;
  fixtures: FixtureEntry[];
}

export function fixtureDir(dir: string): string {
  return fromRoot('fixtures', 'level-3', dir);
}

export function loadManifest(dir: string): FixtureEntry[] {
  const m = JSON.parse(readFileSync(join(fixtureDir(dir), 'manifest.json'), 'utf8')) as Manifest;
  return m.fixtures;
}

export function fixture(dir: string, id: string): FixtureEntry {
  const f = loadManifest(dir).find((x) => x.id === id);
  if (!f) throw new Error(`fixture ${id} not in fixtures/level-3/${dir}/manifest.json`);
  return f;
}

/** Copy the fixture's files into `target` (default: the project discovery root). */
export function installFixture(ws: Workspace, dir: string, f: FixtureEntry, target = ws.projectAgents): string[] {
  return f.files.map((rel) => ws.writeFile(join(target, basename(rel)), readFileSync(join(fixtureDir(dir), rel))));
}

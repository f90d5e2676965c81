/**
 * Level 3 fixtures are copied byte for byte into a discovery root (fixtures/index.ts loads the
 * manifest), so what the adapter reads is exactly what is in the repository.
 */
import { basename, join } from 'node:path';
import { type FixtureOf, fixtureBytes } from '../../../fixtures/index.js';
import type { Workspace } from '../../kit/workspace.js';

/** Copy the fixture's files (all, or those named by `only`) into `target` (default: the project root). */
export function installFixture(ws: Workspace, f: FixtureOf<'level-3'>, target = ws.projectAgents, only?: string[]): string[] {
  return f.files
    .map((rel, i) => ({ rel, i }))
    .filter(({ rel }) => only === undefined || only.includes(rel))
    .map(({ rel, i }) => ws.writeFile(join(target, basename(rel)), fixtureBytes(f, i)));
}

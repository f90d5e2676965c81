/**
 * Level 3 fixtures are copied byte for byte into a discovery root (fixtures/index.ts loads the
 * manifest), so what the adapter reads is exactly what is in the repository, unless the case's
 * accommodations (suites/kit/forms.ts) change a document: then that file is written again from its
 * logical document.
 */
import { basename, join } from 'node:path';
import { type FixtureOf, fixtureBytes } from '../../../fixtures/index.js';
import { accommodateFileBytes, type Workspace } from '../../kit/workspace.js';
import { encodingFromPath } from '../../../spec/document/index.js';

/** Copy the fixture's files (all, or those named by `only`) into `target` (default: the project root). */
export function installFixture(ws: Workspace, f: FixtureOf<'level-3'>, target = ws.projectAgents, only?: string[]): string[] {
  return f.files
    .map((rel, i) => ({ rel, i }))
    .filter(({ rel }) => only === undefined || only.includes(rel))
    .map(({ rel, i }) => ws.writeFile(join(target, basename(rel)), accommodatedFixture(rel, fixtureBytes(f, i))));
}

function accommodatedFixture(rel: string, bytes: Buffer): Buffer {
  const encoding = encodingFromPath(rel);
  return encoding ? accommodateFileBytes(bytes, encoding) : bytes;
}

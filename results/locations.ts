import { readFileSync } from 'node:fs';
import { fromRoot } from '../spec/package-root.js';

/** The requirement manifest's source, relative to the package root (shipped in the package for these locations). */
export const REQUIREMENT_MANIFEST = 'spec/requirements.ts';

let lines: string[] | undefined;

/**
 * The line (1-based) where the manifest defines a requirement or advisory ID, for SARIF locations
 * of results that have no fixture file; 1 when the source is not at hand.
 */
export function requirementLine(id: string): number {
  if (lines === undefined) {
    try {
      lines = readFileSync(fromRoot(REQUIREMENT_MANIFEST), 'utf8').split('\n');
    } catch {
      lines = [];
    }
  }
  const at = lines.findIndex((l) => l.includes(`r('${id}'`) || l.includes(`id: '${id}'`));
  return at >= 0 ? at + 1 : 1;
}

import type { CaseDef } from './framework/types.js';
import { cases as level1 } from './level-1/index.js';
import { cases as level2 } from './level-2/index.js';
import { cases as level3 } from './level-3/index.js';
import { REQUIREMENT_IDS, requirement } from './requirements.js';

/** Every fixture-driven case of the suite, in a stable order. Fuzz cases are generated per run. */
export function allCases(): CaseDef[] {
  const all = [...level1, ...level2, ...level3];
  const seen = new Set<string>();
  for (const c of all) {
    if (seen.has(c.id)) throw new Error(`duplicate case ID ${c.id}`);
    seen.add(c.id);
    if (c.requirements.length === 0) throw new Error(`case ${c.id} names no requirement`);
    for (const id of c.requirements) if (!REQUIREMENT_IDS.has(id)) throw new Error(`case ${c.id} names unknown requirement ${id}`);
  }
  return all;
}

/** The level a case belongs to: the highest level among the IDs it proves. */
export function caseLevel(c: CaseDef): 1 | 2 | 3 {
  return Math.max(...c.requirements.map((id) => requirement(id).level)) as 1 | 2 | 3;
}

/**
 * The fixture suites of the three levels, in one list. A run adds the upstream-layout replay
 * (`--fixtures DIR`) and the fuzz cases (`--fuzz N`): runner/engine/cases.ts composes them.
 */
import type { CaseDef } from './kit/types.js';
import { cases as level1 } from './level-1/index.js';
import { cases as level2 } from './level-2/index.js';
import { cases as level3 } from './level-3/index.js';
import { calibrationCases } from './calibration/cases.js';
import { catalogueCases } from './catalogue/index.js';
import { idOfClause, isAdvisoryId, isClauseId, REQUIREMENT_IDS } from '../spec/requirements.js';

/**
 * Why a case's clauses do not fit its requirements, or undefined when they do: every clause is a
 * clause of the manifest and of one of the case's IDs, and every ID has at least one clause (a
 * case observes some part of each ID it names). The fixture suites are held to it here; the fuzz
 * properties and the upstream replay by their tests.
 */
export function clauseProblem(c: Pick<CaseDef, 'id' | 'requirements' | 'clauses'>): string | undefined {
  for (const clause of c.clauses) {
    if (!isClauseId(clause)) return `case ${c.id} names unknown clause ${clause}`;
    if (!c.requirements.includes(idOfClause(clause))) return `case ${c.id} names clause ${clause} of an ID it does not prove`;
  }
  const bare = c.requirements.filter((id) => !c.clauses.some((clause) => idOfClause(clause) === id));
  if (bare.length > 0) return `case ${c.id} names no clause of ${bare.join(', ')}`;
  return undefined;
}

/** Every fixture-driven case of the suite, in a stable order. Fuzz and replay cases are built per run. */
export function allCases(): CaseDef[] {
  const all = [...level1, ...level2, ...level3, ...catalogueCases, ...calibrationCases];
  const seen = new Set<string>();
  for (const c of all) {
    if (seen.has(c.id)) throw new Error(`duplicate case ID ${c.id}`);
    seen.add(c.id);
    if (c.requirements.length === 0) throw new Error(`case ${c.id} names no requirement`);
    for (const id of c.requirements) {
      if (!REQUIREMENT_IDS.has(id) && !isAdvisoryId(id)) throw new Error(`case ${c.id} names unknown requirement ${id}`);
    }
    const problem = clauseProblem(c);
    if (problem) throw new Error(problem);
    // An advisory never gates, so a case judges either requirements or advisories, never both.
    if (c.requirements.some(isAdvisoryId) && !c.requirements.every(isAdvisoryId))
      throw new Error(`case ${c.id} mixes requirement and advisory IDs`);
  }
  return all;
}

export { caseLevel } from '../spec/requirements.js';

/**
 * Case-level sensitivity of the suite: which individual checks (cases) does at least one mutant of
 * the reference harness make fail? A case no mutant kills may be vacuous (it would pass against an
 * implementation that gets the behaviour it checks wrong), so the list of unkilled cases is the
 * work list for new mutants (harnesses/mutants/catalogue.ts, MUTANTS.md). tests/mutants.test.ts
 * fills the matrix in its full sweep (`npm run sweep`) and holds the floor; `OAP_SWEEP_REPORT=FILE`
 * writes the summary there.
 */
import type { CaseDef } from '../../suites/kit/types.js';

/** Per case ID: the names of the mutants under which the case failed (status `fail`). */
export type KillMatrix = Map<string, string[]>;

export interface SensitivitySummary {
  /** Cases counted (sweepable, origin other than fuzz). */
  total: number;
  killed: number;
  fraction: number;
  /** Requirement ID -> unkilled case IDs (a case proving two IDs is listed under each). */
  unkilledById: Map<string, string[]>;
  unkilled: string[];
}

/** Summarize a matrix over the fixture cases (fuzz cases are excluded from the fraction). */
export function summarize(matrix: KillMatrix, cases: readonly CaseDef[]): SensitivitySummary {
  const counted = cases.filter((c) => matrix.has(c.id) && c.origin !== 'fuzz');
  const unkilled = counted.filter((c) => (matrix.get(c.id) ?? []).length === 0);
  const unkilledById = new Map<string, string[]>();
  for (const c of unkilled) for (const id of c.requirements) unkilledById.set(id, [...(unkilledById.get(id) ?? []), c.id]);
  const sorted = new Map([...unkilledById].sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true })));
  const total = counted.length;
  const killed = total - unkilled.length;
  return { total, killed, fraction: total === 0 ? 1 : killed / total, unkilledById: sorted, unkilled: unkilled.map((c) => c.id) };
}

export function formatSummary(s: SensitivitySummary): string {
  const lines = [`cases killed by at least one mutant: ${s.killed}/${s.total} (${(s.fraction * 100).toFixed(1)}%)`];
  if (s.unkilled.length === 0) return lines.join('\n');
  lines.push(`unkilled cases (${s.unkilled.length}), by requirement ID:`);
  for (const [id, ids] of s.unkilledById) {
    lines.push(`  ${id}`);
    for (const c of ids) lines.push(`    ${c}`);
  }
  return lines.join('\n');
}

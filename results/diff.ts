import { REQUIREMENTS } from '../spec/requirements.js';
import type { CaseRecord, RunReport } from './model.js';
import { isNotPassing } from './predicates.js';
import { computeVerdicts, type Verdict } from './verdicts.js';

/** What changed between two runs, A (before) and B (after). */
export interface RunDiff {
  /** Cases of a MUST ID not passing in B that were passing or absent in A: regressions. */
  newFailures: NewFailure[];
  /**
   * The same for cases that prove only SHOULD IDs or advisories: reported, never a regression,
   * since neither ever gates a claim (INTERPRETATIONS.md, what counts towards a claim).
   */
  newNonGatingFailures: NewFailure[];
  /** Cases not passing in A that pass in B. */
  fixes: { id: string; before: CaseRecord['status']; requirements: string[] }[];
  /** Case IDs only in B / only in A (suite changes, filters or shards). */
  addedCases: string[];
  removedCases: string[];
  /** Requirement IDs whose verdict differs. */
  requirementChanges: { id: string; before: Verdict; after: Verdict }[];
}

interface NewFailure {
  id: string;
  before: CaseRecord['status'] | 'absent';
  after: CaseRecord['status'];
  requirements: string[];
}

const MUST_IDS: ReadonlySet<string> = new Set(REQUIREMENTS.filter((q) => q.strength === 'MUST').map((q) => q.id));

export function diffReports(a: RunReport, b: RunReport): RunDiff {
  const before = new Map(a.cases.map((c) => [c.id, c]));
  const after = new Map(b.cases.map((c) => [c.id, c]));
  const diff: RunDiff = { newFailures: [], newNonGatingFailures: [], fixes: [], addedCases: [], removedCases: [], requirementChanges: [] };
  for (const [id, c] of after) {
    const old = before.get(id);
    if (!old) diff.addedCases.push(id);
    if (isNotPassing(c) && (!old || !isNotPassing(old))) {
      const entry: NewFailure = { id, before: old?.status ?? 'absent', after: c.status, requirements: c.requirements };
      (c.requirements.some((r) => MUST_IDS.has(r)) ? diff.newFailures : diff.newNonGatingFailures).push(entry);
    }
    if (old && isNotPassing(old) && c.status === 'pass') diff.fixes.push({ id, before: old.status, requirements: c.requirements });
  }
  for (const id of before.keys()) if (!after.has(id)) diff.removedCases.push(id);
  const va = computeVerdicts(a.cases);
  const vb = computeVerdicts(b.cases);
  for (const [id, v] of vb.byId) {
    const old = va.byId.get(id)!.verdict;
    if (old !== v.verdict) diff.requirementChanges.push({ id, before: old, after: v.verdict });
  }
  diff.addedCases.sort();
  diff.removedCases.sort();
  diff.newFailures.sort((x, y) => (x.id < y.id ? -1 : 1));
  diff.newNonGatingFailures.sort((x, y) => (x.id < y.id ? -1 : 1));
  diff.fixes.sort((x, y) => (x.id < y.id ? -1 : 1));
  return diff;
}

/** Regressions: any case of a MUST ID that newly does not pass. */
export function hasRegressions(d: RunDiff): boolean {
  return d.newFailures.length > 0;
}

export function formatDiff(d: RunDiff): string {
  const lines: string[] = [];
  const section = (title: string, rows: string[]) => {
    lines.push(`${title} (${rows.length})`);
    for (const r of rows) lines.push(`  ${r}`);
  };
  section(
    'New failures',
    d.newFailures.map((f) => `${f.id}: ${f.before} -> ${f.after} [${f.requirements.join(', ')}]`),
  );
  section(
    'New SHOULD and advisory failures (never gating)',
    d.newNonGatingFailures.map((f) => `${f.id}: ${f.before} -> ${f.after} [${f.requirements.join(', ')}]`),
  );
  section(
    'Fixes',
    d.fixes.map((f) => `${f.id}: ${f.before} -> pass [${f.requirements.join(', ')}]`),
  );
  section('Added checks', d.addedCases);
  section('Removed checks', d.removedCases);
  section(
    'Requirement changes',
    d.requirementChanges.map((c) => `${c.id}: ${c.before} -> ${c.after}`),
  );
  return `${lines.join('\n')}\n`;
}

import { describe, expect, it } from 'vitest';
import { classCoverageRows } from '../runner/coverage.js';
import { allCases } from '../suites/index.js';

/**
 * Classes of the boundary catalogue that no generated case covers, no hand-written case observes
 * (EquivalenceClass.observedBy) and no exclusion explains yet, by dimension: each waits for the
 * driver of its rule (suites/catalogue) or a hand-written case. The list only shrinks: a class that
 * gets its case, or an exclusion with its reason, must leave it.
 */
const AWAITING_CASE: Readonly<Record<string, readonly string[]>> = {
  'context.files.path': ['dot-and-empty', 'unicode-name', 'dotdot-inside', 'backslash-dotdot'],
  'context.variables': ['defined-empty'],
  'prompt.sections': ['instructions-only', 'empty-supplements', 'persona-only-language', 'same-text-in-two-steps'],
  'state.delimiting': ['empty-state'],
};

describe('the boundary catalogue in COVERAGE.md', () => {
  const rows = classCoverageRows();

  it('every class is covered by a generated case, observed by a hand-written one or excluded with a reason, but those awaiting their case', () => {
    const none = rows.filter((r) => r.cases.length + r.observedBy.length === 0 && r.exclusion === undefined).map((r) => r.classId);
    expect(none).toEqual(Object.entries(AWAITING_CASE).flatMap(([d, slugs]) => slugs.map((s) => `${d}/${s}`)));
  });

  it('names only cases the suite runs', () => {
    const ids = new Set(allCases().map((c) => c.id));
    expect(rows.flatMap((r) => r.cases).filter((id) => !ids.has(id))).toEqual([]);
  });

  it('names only hand-written cases the suite runs, and none a generated case', () => {
    const ids = new Set(allCases().map((c) => c.id));
    const generated = new Set(rows.flatMap((r) => r.cases));
    const named = rows.flatMap((r) => r.observedBy.map((id) => ({ classId: r.classId, id })));
    expect(named.filter((n) => !ids.has(n.id))).toEqual([]);
    expect(named.filter((n) => generated.has(n.id))).toEqual([]);
  });
});

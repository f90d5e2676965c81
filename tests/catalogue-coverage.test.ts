import { describe, expect, it } from 'vitest';
import { classCoverageRows } from '../runner/coverage.js';
import { allCases } from '../suites/index.js';

describe('the boundary catalogue in COVERAGE.md', () => {
  const rows = classCoverageRows();

  it('every class is covered by a generated case, observed by a hand-written one or excluded with a reason', () => {
    const none = rows.filter((r) => r.cases.length + r.observedBy.length === 0 && r.exclusion === undefined).map((r) => r.classId);
    expect(none).toEqual([]);
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

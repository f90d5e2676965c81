import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MUTANTS } from '../harnesses/mutants/index.js';
import { coverageMarkdown, coverageRows } from '../runner/coverage.js';
import { fromRoot } from '../spec/package-root.js';
import { allCases } from '../suites/index.js';

describe('COVERAGE.md', () => {
  const rows = coverageRows(allCases(), MUTANTS);

  it('every requirement ID has at least one check and one mutant', () => {
    expect(rows.filter((r) => r.cases.length === 0).map((r) => r.id)).toEqual([]);
    expect(rows.filter((r) => r.mutants.length === 0).map((r) => r.id)).toEqual([]);
  });

  it('is current (regenerate with `oap-conform list requirements --markdown > COVERAGE.md`)', () => {
    expect(readFileSync(fromRoot('COVERAGE.md'), 'utf8')).toBe(coverageMarkdown(rows));
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MUTANTS } from '../harnesses/mutants/index.js';
import { coverageMarkdown, coverageRows, sentenceRows } from '../runner/coverage.js';
import { fromRoot } from '../spec/package-root.js';
import { allCases } from '../suites/index.js';

/**
 * IDs whose cases exist but whose mutant does not yet: each needs a mutant of the reference that
 * violates exactly it (MUTANTS.md). The list only shrinks: an ID that gets its mutant must leave it.
 */
const AWAITING_MUTANT: string[] = [];

describe('COVERAGE.md', () => {
  const cases = allCases();
  const rows = coverageRows(cases, MUTANTS);

  it('every clause of every requirement ID and advisory has at least one check', () => {
    expect(rows.flatMap((r) => r.clauses.filter((q) => q.cases.length === 0).map((q) => q.id))).toEqual([]);
  });

  it('every ID has a mutant, except those waiting for theirs', () => {
    expect(rows.filter((r) => r.mutants.length === 0).map((r) => r.id)).toEqual(AWAITING_MUTANT);
  });

  it('is current (regenerate with `oap-conform list requirements --markdown > COVERAGE.md`)', () => {
    expect(readFileSync(fromRoot('COVERAGE.md'), 'utf8')).toBe(coverageMarkdown(rows, sentenceRows(cases)));
  });
});

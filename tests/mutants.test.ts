/**
 * The proof that the suite is not vacuous: every mutant of the reference harness fails exactly the
 * requirement IDs it is documented to break, and the reference itself fails nothing. Runs the
 * whole fixture suite (all levels) in-process against each mutant.
 */
import { describe, expect, it } from 'vitest';
import { MUTANTS, createMutantAdapter } from '../adapters/reference/mutants.js';
import { createReferenceAdapter } from '../adapters/reference/index.js';
import { REQUIREMENTS } from '../suites/requirements.js';
import { failedIds, passedIds, runSuiteInProcess } from './support/run-suite.js';
import { spawnBuiltinForTests } from './support/spawn-builtin.js';

describe('reference harness', () => {
  it('passes every requirement ID at level 3, with no case failing or erroring', async () => {
    const outcomes = await runSuiteInProcess(() => createReferenceAdapter(), {
      level: 3,
      spawnAdapter: () => spawnBuiltinForTests('builtin:reference'),
    });
    const bad = outcomes.filter((o) => o.status !== 'pass').map((o) => `${o.id}: ${o.status}: ${o.message ?? ''}`);
    expect(bad).toEqual([]);
    expect(passedIds(outcomes)).toEqual(REQUIREMENTS.map((r) => r.id).sort());
  });
});

describe('every requirement ID has a killing mutant', () => {
  it('covers all 59 IDs', () => {
    const killed = new Set(MUTANTS.flatMap((m) => m.breaks));
    expect(REQUIREMENTS.map((r) => r.id).filter((id) => !killed.has(id))).toEqual([]);
  });
});

describe.each(MUTANTS.map((m) => [m.name, m] as const))('mutant %s', (name, mutant) => {
  it(`fails exactly ${mutant.breaks.join(', ')}`, async () => {
    const outcomes = await runSuiteInProcess(() => createMutantAdapter(name), {
      level: 3,
      spawnAdapter: () => spawnBuiltinForTests(`builtin:mutant/${name}`),
    });
    const errors = outcomes.filter((o) => o.status === 'error' || o.status === 'crash' || o.status === 'timeout');
    expect(errors.map((o) => `${o.id}: ${o.status}: ${o.message ?? ''}`)).toEqual([]);
    expect(failedIds(outcomes)).toEqual([...mutant.breaks].sort());
  });
});

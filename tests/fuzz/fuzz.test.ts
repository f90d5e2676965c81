import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { createReferenceAdapter } from '../../harnesses/reference/index.js';
import { createMutantAdapter, MUTANTS } from '../../harnesses/mutants/index.js';
import { DEFAULT_FUZZ_BUDGET, fuzzCases, readFinding, replayCase, type FuzzCaseDef } from '../../fuzz/index.js';
import { isAdvisoryId, REQUIREMENT_IDS } from '../../spec/requirements.js';
import type { CaseOutcome } from '../../results/record.js';
import { failedIds, runSuiteInProcess } from '../support/run-suite.js';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'oap-fuzz-test-'));
  dirs.push(d);
  return d;
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const describeCase = (c: FuzzCaseDef) => ({ id: c.id, requirements: c.requirements, origin: c.origin, fuzz: c.fuzz });

describe('fuzzCases', () => {
  test('the same seed gives the same cases and the same generated inputs', () => {
    const a = fuzzCases({ budget: 300, seed: 42 });
    const b = fuzzCases({ budget: 300, seed: 42 });
    expect(a.map(describeCase)).toEqual(b.map(describeCase));
    expect(a.map((c) => c.inputs())).toEqual(b.map((c) => c.inputs()));
    const other = fuzzCases({ budget: 300, seed: 43 });
    expect(other.map((c) => c.id)).toEqual(a.map((c) => c.id));
    expect(other.map((c) => c.inputs())).not.toEqual(a.map((c) => c.inputs()));
  });

  test('IDs, origin and requirement attribution', () => {
    const cases = fuzzCases({ budget: DEFAULT_FUZZ_BUDGET, seed: 1 });
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
    for (const c of cases) {
      expect(c.id).toMatch(/^fuzz\/(L[123]-[A-Z]+\d+|ADV-[a-z-]+)\/[a-z-]+#\d+$/);
      expect(c.origin).toBe('fuzz');
      expect(c.requirements).toHaveLength(1);
      expect(REQUIREMENT_IDS.has(c.requirements[0]!) || isAdvisoryId(c.requirements[0]!)).toBe(true);
      expect(c.id.split('/')[1]).toBe(c.requirements[0]);
    }
    expect(cases.map((c) => c.id)).toContain('fuzz/L1-I3/narrowing#0');
    const inputs = cases.reduce((n, c) => n + c.fuzz.numRuns, 0);
    expect(inputs).toBeGreaterThanOrEqual(DEFAULT_FUZZ_BUDGET * 0.95);
    expect(inputs).toBeLessThanOrEqual(DEFAULT_FUZZ_BUDGET * 1.05);
    const only = fuzzCases({ budget: 100, seed: 1, requirements: ['L2-S5'] });
    expect(new Set(only.flatMap((c) => c.requirements))).toEqual(new Set(['L2-S5']));
    expect(fuzzCases({ budget: 0, seed: 1 })).toEqual([]);
  });

  test('every generated narrowing profile is one the spec defines', () => {
    const [first] = fuzzCases({ budget: 100, seed: 9, requirements: ['L1-I3'] });
    const inputs = first!.inputs() as { profile: { oap: string } }[];
    expect(inputs.length).toBeGreaterThan(0);
    for (const i of inputs) expect(i.profile.oap).toBe('1.0');
  });
});

describe('against the reference and its mutants', () => {
  test('the reference passes the default budget', { timeout: 300_000 }, async () => {
    const findingsDir = tempDir();
    const out = await runSuiteInProcess(() => createReferenceAdapter(), {
      cases: fuzzCases({ budget: DEFAULT_FUZZ_BUDGET, seed: 1, findingsDir }),
      level: 3,
    });
    const bad = out.filter((o) => o.status !== 'pass').map((o) => `${o.id}: ${o.status}: ${o.message}`);
    expect(bad).toEqual([]);
    expect(existsSync(findingsDir) ? readdirSync(findingsDir) : []).toEqual([]);
  });

  // The fuzzer alone (no fixture suites), within the default budget, with a shrunk finding written.
  const targets: Array<[string, string]> = [
    ['union-tools', 'L1-I3'],
    ['state-no-delimiter-escape', 'L2-S2'],
    ['state-json-line', 'L2-S2'],
    ['state-vars-substituted', 'L2-S5'],
  ];
  /**
   * A mutant over the default-budget case list restricted to the cases that judge `requirement`,
   * run once per mutant: the union-tools run serves its own test and the shrinking test below.
   */
  const runs = new Map<string, Promise<CaseOutcome[]>>();
  const fuzzRun = (mutant: string, requirement: string): Promise<CaseOutcome[]> => {
    if (!runs.has(mutant)) {
      const cases = fuzzCases({ budget: DEFAULT_FUZZ_BUDGET, seed: 1, findingsDir: tempDir() }).filter((c) =>
        c.requirements.includes(requirement),
      );
      runs.set(
        mutant,
        runSuiteInProcess(() => createMutantAdapter(mutant), { cases, level: 3 }),
      );
    }
    return runs.get(mutant)!;
  };

  test.each(targets)('mutant %s is caught (%s) with a replayable, shrunk finding', { timeout: 300_000 }, async (mutant, requirement) => {
    expect(MUTANTS.some((m) => m.name === mutant)).toBe(true);
    const out = await fuzzRun(mutant, requirement);
    expect(failedIds(out)).toEqual([requirement]);
    const failing = out.find((o) => o.status === 'fail')!;
    const file = failing.status === 'fail' ? failing.finding : undefined;
    expect(file).toBeDefined();
    const finding = readFinding(file!);
    expect(finding).toMatchObject({ format: 'oap-conform.fuzz-finding.v1', seed: 1, case_id: failing.id, requirements: [requirement] });
    expect(finding.shrinking.reproduced).toBe(true);
    // Replaying the finding fails on the mutant and passes on the reference.
    const replay = [replayCase(finding)];
    expect((await runSuiteInProcess(() => createMutantAdapter(mutant), { cases: replay, level: 3 }))[0]!.status).toBe('fail');
    expect((await runSuiteInProcess(() => createReferenceAdapter(), { cases: replay, level: 3 }))[0]!.status).toBe('pass');
  });

  test('a union-tools counterexample is shrunk to one tool request', { timeout: 300_000 }, async () => {
    const out = await fuzzRun('union-tools', 'L1-I3');
    const failing = out.find((o) => o.status === 'fail')!;
    const finding = readFinding((failing as { finding: string }).finding);
    const input = finding.input as { profile: { spec: { tools?: { allow?: string[] } } }; policy: { tools: { grant: string[] } } };
    expect(input.profile.spec.tools?.allow).toHaveLength(1);
    expect(input.policy.tools.grant.length).toBeLessThanOrEqual(1);
    expect(finding.observed).toBeDefined();
  });
});

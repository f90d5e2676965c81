/**
 * The Level 1 suite judged against known implementations: the reference harness must pass every
 * case (proved by its certification run in tests/suites/upstream.test.ts); each mutant that breaks a Level 1 ID must fail exactly its IDs and nothing else; mutants of
 * other levels must fail nothing here; an adapter that declines everything, and adapters that lie
 * in ways the protocol makes observable, pass nothing they should not.
 */
import { describe, expect, it } from 'vitest';
import { createReferenceAdapter } from '../../harnesses/reference/index.js';
import { MUTANTS } from '../../harnesses/mutants/index.js';
import type { InProcessAdapter } from '../../sdk/ts/types.js';
import { cases } from '../../suites/level-1/index.js';
import { ADVISORIES, REQUIREMENTS } from '../../spec/requirements.js';
import { decliningAdapter } from '../support/declining-adapter.js';
import { failedIds, runSuiteInProcess } from '../support/run-suite.js';

const LEVEL_1_IDS = REQUIREMENTS.filter((r) => r.level === 1).map((r) => r.id);
const isLevel1 = (id: string): boolean => id.startsWith('L1-') || ADVISORIES.some((a) => a.id === id && a.level === 1);

/** Wrap an adapter and rewrite some of its answers. */
function wrap(inner: InProcessAdapter, rewrite: (method: string, result: unknown) => unknown): InProcessAdapter {
  return {
    async handle(method, params) {
      return rewrite(method, await inner.handle(method, params));
    },
    dispose: () => inner.dispose?.(),
  };
}

describe('Level 1 suite: coverage', () => {
  it('has at least one case for each of the 24 Level 1 requirements and names only Level 1 IDs (requirements or advisories)', () => {
    const covered = new Set(cases.flatMap((c) => c.requirements));
    expect(LEVEL_1_IDS.filter((id) => !covered.has(id))).toEqual([]);
    expect([...covered].filter((id) => !isLevel1(id))).toEqual([]);
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
  });
});

// The reference harness passing every case (no fail, error, skip or not-applicable) and every
// Level 1 ID is proved once for all three levels, by its Level 3 certification through the CLI in
// tests/suites/upstream.test.ts ("oap-conform run --fixtures DIR").

describe('Level 1 suite against the mutants', () => {
  const level1Mutants = MUTANTS.filter((m) => m.breaks.some(isLevel1));

  it('has a mutant for every Level 1 requirement', () => {
    const killed = new Set(level1Mutants.flatMap((m) => m.breaks));
    expect(LEVEL_1_IDS.filter((id) => !killed.has(id))).toEqual([]);
  });

  // Each mutant's exact failing IDs over the whole suite (all levels) are asserted once, in
  // tests/mutants.test.ts; repeating the runs here per level would only double CI time.
});

describe('Level 1 suite against adapters that should pass nothing', () => {
  it('an adapter that declines every operation passes no case', async () => {
    const out = await runSuiteInProcess(() => decliningAdapter(1), { level: 1, cases });
    expect(out.length).toBe(cases.length);
    expect(out.filter((o) => o.status === 'pass').map((o) => o.id)).toEqual([]);
  });

  it('an adapter that refuses every document passes no refusal case', async () => {
    const refusing = wrap(createReferenceAdapter(), (method, result) => {
      const issue = { category: 'other', pointer: '', message: 'refused' };
      if (method === 'validate') return { valid: false, errors: [issue], warnings: [] };
      if (method === 'instantiate') return { status: 'rejected', errors: [issue], warnings: [] };
      return result;
    });
    const out = await runSuiteInProcess(() => refusing, { level: 1, cases });
    const refusalIds = ['L1-P2', 'L1-P3', 'L1-P4', 'L1-P5', 'L1-I5', 'L1-I6', 'L1-I7', 'ADV-vars-undefined', 'ADV-duplicate-keys'];
    const passedRefusals = out.filter((o) => o.status === 'pass' && o.requirements.some((id) => refusalIds.includes(id))).map((o) => o.id);
    expect(passedRefusals).toEqual([]);
  });

  it('a section map in UTF-16 code units instead of UTF-8 bytes fails L1-I1', async () => {
    const lying = wrap(createReferenceAdapter(), (method, result) => {
      if (method !== 'instantiate' && method !== 'describe_session') return result;
      const r = result as { status?: string; prompt?: { text: string; sections: Array<{ start: number; end: number }> } };
      if (r.status === 'rejected' || !r.prompt) return result;
      const buf = Buffer.from(r.prompt.text, 'utf8');
      const units = (byte: number): number => buf.subarray(0, byte).toString('utf8').length;
      return {
        ...r,
        prompt: { ...r.prompt, sections: r.prompt.sections.map((s) => ({ ...s, start: units(s.start), end: units(s.end) })) },
      };
    });
    const out = await runSuiteInProcess(() => lying, { level: 1, cases });
    expect(failedIds(out)).toEqual(['L1-I1']);
  });

  it('a handshake claiming an encoding the adapter cannot read fails L1-P1 only', async () => {
    const inner = createReferenceAdapter();
    const claimsMd: InProcessAdapter = {
      async handle(method, params) {
        const p = params as { document?: { encoding?: string; path?: string }; profile?: { path?: string } };
        const isMd = p?.document?.encoding === 'md' || p?.document?.path?.endsWith('.md') || p?.profile?.path?.endsWith('.md');
        if (isMd && method === 'validate')
          return { valid: false, errors: [{ category: 'parse', pointer: '', message: 'no markdown' }], warnings: [] };
        if (isMd && method === 'instantiate')
          return { status: 'rejected', errors: [{ category: 'parse', pointer: '', message: 'no markdown' }], warnings: [] };
        return inner.handle(method, params);
      },
    };
    const out = await runSuiteInProcess(() => claimsMd, { level: 1, cases });
    expect(failedIds(out)).toEqual(['L1-P1']);
  });
});

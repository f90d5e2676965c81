/**
 * The fuzzer's evidence floor: an input the adapter rejected or declined is counted, never taken
 * as holding; a case passes only when enough inputs were judged (fuzz/check.ts
 * `judgedFloor`), ends inconclusive with the reasons otherwise, and `skipped` only when every input
 * was declined. A harness that refuses everything gets no fuzz pass (L1-P1's faker property fails
 * instead: a valid document refused is evidence); a harness that declines one field still gets
 * every input that does not use it. Plus the generator regression the issue names (L2-S5, seed
 * 1063299262) and a short seed sweep of the reference.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveBuiltin } from '../../harnesses/builtin.js';
import { AdapterDecline } from '../../protocol/errors.js';
import { createReferenceAdapter } from '../../harnesses/reference/index.js';
import type { InProcessAdapter } from '../../sdk/ts/types.js';
import { loadDocumentFile } from '../../spec/document/index.js';
import type { CaseOutcome } from '../../results/record.js';
import { DEFAULT_FUZZ_BUDGET, fuzzCases, judgedFloor, PROPERTIES, readFinding } from '../../fuzz/index.js';
import { runSuiteInProcess } from '../support/run-suite.js';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'oap-fuzz-evidence-'));
  dirs.push(d);
  return d;
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

interface FuzzNote {
  generated: number;
  asked: number;
  judged: number;
  floor: number;
  not_judged: Record<string, number>;
  reasons: Record<string, number>;
}
const noteOf = (o: CaseOutcome): FuzzNote => o.notes?.fuzz as FuzzNote;
const statusOf = (o: CaseOutcome): string => `${o.id}: ${o.status}`;

/** The reference with `handle` overridden for some calls; everything else goes through unchanged. */
function wrapReference(override: (method: string, params: Record<string, unknown>) => unknown | undefined): InProcessAdapter {
  const inner = createReferenceAdapter();
  return {
    async handle(method, params) {
      const answer = override(method, params as Record<string, unknown>);
      return answer !== undefined ? answer : inner.handle(method, params);
    },
  };
}

const instantiatedSpec = (params: Record<string, unknown>): Record<string, unknown> => {
  const loaded = loadDocumentFile((params.profile as { path: string }).path);
  return ((loaded.value as { spec?: Record<string, unknown> } | undefined)?.spec ?? {}) as Record<string, unknown>;
};

describe('the evidence floor', () => {
  it.each([
    [1, 1],
    [4, 4],
    [15, 15],
    [20, 20],
    [21, 20],
    [22, 20],
    [25, 23],
    [100, 90],
    [0, 0],
  ])('%i inputs asked → %i must be judged', (asked, floor) => {
    expect(judgedFloor(asked)).toBe(floor);
  });
});

describe('a harness that refuses every document (builtin:hider/rejects-everything)', () => {
  it('gets no fuzz pass: every case inconclusive with the refusal as cause, the faker property failing L1-P1', {
    timeout: 300_000,
  }, async () => {
    const hider = await resolveBuiltin('hider/rejects-everything');
    if (hider.mode !== 'in-process') throw new Error('the hider is an in-process builtin');
    const findingsDir = tempDir();
    const cases = fuzzCases({ budget: DEFAULT_FUZZ_BUDGET, seed: 1, findingsDir });
    const out = await runSuiteInProcess(hider.create, { cases, level: 3 });
    // The hider refuses validate and instantiate; apply_delta it leaves to the reference, whose
    // applicator then really is judged (the delta properties' control delta applies).
    // The hostile-parse-time advisory asks only whether an answer comes in time, whatever it says: an
    // instant refusal does, so it passes (an observation, not a pass by default).
    const deltaOnly = new Set(['delta-scope', 'reserved-ops', 'hostile-parse-time']);
    const propertyOf = (o: CaseOutcome) => cases.find((c) => c.id === o.id)!.fuzz.property;
    const documents = out.filter((o) => !deltaOnly.has(propertyOf(o)));
    expect(documents.filter((o) => o.status === 'pass').map(statusOf)).toEqual([]);
    for (const o of documents) {
      if (propertyOf(o) === 'faker') {
        expect(statusOf(o)).toBe(`${o.id}: fail`);
        continue;
      }
      expect(statusOf(o)).toBe(`${o.id}: inconclusive`);
      expect(o.status === 'inconclusive' && o.cause).toMatch(/rejected: other at \/ \(\d+\)/);
      expect(noteOf(o).judged).toBe(0);
    }
    // A valid document refused is L1-P1's evidence, reported with a shrunk, replayable example.
    const faker = documents.filter((o) => o.status === 'fail');
    expect(faker.length).toBeGreaterThan(0);
    expect(new Set(faker.flatMap((o) => o.requirements))).toEqual(new Set(['L1-P1']));
    const finding = readFinding((faker[0] as { finding: string }).finding);
    expect(finding.shrinking.reproduced).toBe(true);
    expect(finding.shrinking.num_shrinks).toBeGreaterThan(0);
    expect(Object.keys((finding.input as { document: Record<string, unknown> }).document).sort()).toEqual([
      'kind',
      'metadata',
      'oap',
      'spec',
    ]);
    expect(out.filter((o) => deltaOnly.has(propertyOf(o))).map((o) => o.status)).toEqual(
      out.filter((o) => deltaOnly.has(propertyOf(o))).map(() => 'pass'),
    );
  });

  it('refusing deltas as well, it passes no fuzz case at all', { timeout: 300_000 }, async () => {
    const hider = await resolveBuiltin('hider/rejects-everything');
    if (hider.mode !== 'in-process') throw new Error('the hider is an in-process builtin');
    const cases = fuzzCases({ budget: 200, seed: 2, findingsDir: tempDir() });
    const refuseDeltas = async (): Promise<InProcessAdapter> => {
      const inner = await hider.create();
      return {
        async handle(method, params) {
          if (method === 'apply_delta')
            return {
              outcome: 'rejected',
              revision: 1,
              errors: [{ category: 'other', pointer: '', message: 'refused' }],
              warnings: [],
              proposals: [],
            };
          return inner.handle(method, params);
        },
      };
    };
    const all = await runSuiteInProcess(refuseDeltas, { cases, level: 3 });
    // Answering in time (the hostile-parse-time advisory) is the one thing an instant refusal shows.
    const out = all.filter((o) => !o.id.includes('/hostile-parse-time#'));
    expect(out.filter((o) => o.status === 'pass').map(statusOf)).toEqual([]);
    expect(out.filter((o) => !['inconclusive', 'fail'].includes(o.status)).map(statusOf)).toEqual([]);
    expect(new Set(out.filter((o) => o.status === 'fail').flatMap((o) => o.requirements))).toEqual(new Set(['L1-P1']));
  });
});

describe('declines skip inputs, not cases', () => {
  const usesMemory = (profile: unknown) => (profile as { spec: Record<string, unknown> }).spec.memory !== undefined;

  it('a harness that declines spec.memory still gets every narrowing input without it', { timeout: 300_000 }, async () => {
    const served: string[] = [];
    const declinesMemory = () =>
      wrapReference((method, params) => {
        if (method !== 'instantiate') return undefined;
        const spec = instantiatedSpec(params);
        if (spec.memory !== undefined) throw new AdapterDecline('not-implemented', 'spec.memory is not supported');
        const { role: _role, ...rest } = spec;
        served.push(JSON.stringify(rest));
        return undefined;
      });
    const cases = fuzzCases({ budget: DEFAULT_FUZZ_BUDGET, seed: 1, findingsDir: tempDir(), requirements: ['L1-I3'] });
    // Without calibration: every instantiate the adapter serves is then a fuzz input's.
    const out = await runSuiteInProcess(declinesMemory, { cases, level: 3, calibrate: false });
    const expected: string[] = [];
    for (const [i, c] of cases.entries()) {
      const inputs = c.inputs() as { profile: { spec: Record<string, unknown> } }[];
      const without = inputs.filter((x) => !usesMemory(x.profile));
      for (const x of without) {
        const { role: _role, ...rest } = x.profile.spec;
        expected.push(JSON.stringify(rest));
      }
      const o = out[i]!;
      const note = noteOf(o);
      expect(note).toMatchObject({ generated: inputs.length, judged: without.length });
      expect(note.not_judged.declined).toBe(inputs.length - without.length);
      // A decline shrinks the question, it does not hide the answer: every input the harness did not
      // decline was judged, so the case passes (or ends skipped when it declined them all).
      expect(o.status).toBe(without.length === 0 ? 'skipped' : 'pass');
    }
    // Every input that does not use the declined field reached the adapter, and was judged.
    expect(served.sort()).toEqual(expected.sort());
    expect(expected.length).toBeGreaterThan(0);
  });

  it('a case whose every input was declined ends skipped', { timeout: 120_000 }, async () => {
    const declinesAll = () =>
      wrapReference((method) => {
        if (method === 'instantiate') throw new AdapterDecline('skipped', 'instantiate is not wired up yet');
        return undefined;
      });
    const cases = fuzzCases({ budget: 100, seed: 3, findingsDir: tempDir(), requirements: ['L1-I3', 'L2-S5'] });
    const out = await runSuiteInProcess(declinesAll, { cases, level: 3 });
    expect(out.map((o) => o.status)).toEqual(out.map(() => 'skipped'));
  });
});

describe('the reference harness', () => {
  it('passes the L2-S5 vars property with the seed that used to fail it (1063299262)', { timeout: 120_000 }, async () => {
    const cases = fuzzCases({ budget: DEFAULT_FUZZ_BUDGET, seed: 1063299262, findingsDir: tempDir(), requirements: ['L2-S5'] });
    const out = await runSuiteInProcess(() => createReferenceAdapter(), { cases, level: 3, seed: 1063299262 });
    expect(out.filter((o) => o.status !== 'pass').map((o) => `${statusOf(o)}: ${'message' in o ? o.message : ''}`)).toEqual([]);
    for (const o of out) expect(noteOf(o).judged).toBe(noteOf(o).generated);
  });

  // The full 200-seed sweep is `npm run sweep:seeds` (bench/fuzz.ts); a few seeds at a small budget here.
  it('passes every fuzz property on a few consecutive seeds, judging every input', { timeout: 300_000 }, async () => {
    const bad: string[] = [];
    for (let seed = 2; seed <= 5; seed++) {
      const cases = fuzzCases({ budget: 100, seed, findingsDir: tempDir() });
      expect(new Set(cases.map((c) => c.fuzz.property))).toEqual(new Set(PROPERTIES.map((p) => p.name)));
      const out = await runSuiteInProcess(() => createReferenceAdapter(), { cases, level: 3, seed });
      for (const o of out) {
        if (o.status !== 'pass') bad.push(`seed ${seed}: ${statusOf(o)}`);
        else if (noteOf(o).judged !== noteOf(o).generated) bad.push(`seed ${seed}: ${o.id}: ${JSON.stringify(noteOf(o).reasons)}`);
      }
    }
    expect(bad).toEqual([]);
  });
});

import { test } from 'vitest';
import { createReferenceAdapter } from '../../adapters/reference/index.js';
import { createMutantAdapter } from '../../adapters/reference/mutants.js';
import { fuzzCases } from '../../runner/fuzz/index.js';
import { runSuiteInProcess } from '../support/run-suite.js';

test('explore', async () => {
  const target = process.env.FZ_ADAPTER ?? 'reference';
  const factory = target === 'reference' ? () => createReferenceAdapter() : () => createMutantAdapter(target);
  const t = performance.now();
  const cases = fuzzCases({ budget: Number(process.env.FZ_BUDGET ?? 600), seed: Number(process.env.FZ_SEED ?? 1), findingsDir: '/tmp/fz-findings' });
  const out = await runSuiteInProcess(factory, { cases, level: 3 });
  const ms = performance.now() - t;
  for (const o of out) {
    if (o.status !== 'pass' || process.env.FZ_VERBOSE) console.log('>>', o.id, o.status, o.durationMs.toFixed(0), o.message?.slice(0, 400), JSON.stringify(o.notes?.fuzz ?? {}).slice(0, 400));
  }
  console.log(`${cases.length} cases in ${ms.toFixed(0)} ms`);
});

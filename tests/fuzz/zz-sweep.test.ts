import { test } from 'vitest';
import { createMutantAdapter, MUTANTS } from '../../adapters/reference/mutants.js';
import { DEFAULT_FUZZ_BUDGET, fuzzCases } from '../../runner/fuzz/index.js';
import { failedIds, runSuiteInProcess } from '../support/run-suite.js';

test('sweep', { timeout: 1_800_000 }, async () => {
  for (const m of MUTANTS.filter((x) => !process.env.FZ_MUTANTS || process.env.FZ_MUTANTS.split(',').includes(x.name))) {
    const cases = fuzzCases({ budget: DEFAULT_FUZZ_BUDGET, seed: Number(process.env.FZ_SEED ?? 1), findingsDir: '/tmp/fz-sweep' });
    const t = performance.now();
    const out = await runSuiteInProcess(() => createMutantAdapter(m.name), { cases, level: 3 });
    const failed = failedIds(out);
    const other = out.filter((o) => o.status !== 'pass' && o.status !== 'fail').map((o) => `${o.id}:${o.status}:${o.message?.slice(0, 120)}`);
    const caught = m.breaks.some((b) => failed.includes(b));
    const extra = failed.filter((f) => !m.breaks.includes(f));
    console.log(`SWEEP ${caught ? 'CAUGHT' : '-'} ${m.name} breaks=${m.breaks.join(',')} failed=${failed.join(',')}${extra.length ? ` EXTRA=${extra.join(',')}` : ''} ${other.length ? 'OTHER=' + other.join(' ; ') : ''} ${(performance.now() - t).toFixed(0)}ms`);
  }
});

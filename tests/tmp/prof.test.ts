import { it } from 'vitest';
import { createReferenceAdapter } from '../../adapters/reference/index.js';
import { runSuiteInProcess } from '../../tests/support/run-suite.js';
import { spawnBuiltinForTests } from '../../tests/support/spawn-builtin.js';
it('prof', async () => {
  const t0 = Date.now();
  const out = await runSuiteInProcess(() => createReferenceAdapter(), { level: 3, spawnAdapter: () => spawnBuiltinForTests('builtin:reference') });
  const total = Date.now() - t0;
  out.sort((a, b) => b.durationMs - a.durationMs);
  console.log('total', total, 'cases', out.length);
  for (const o of out.slice(0, 25)) console.log(o.durationMs.toFixed(0), o.status, o.id);
  const byStatus: Record<string, number> = {};
  for (const o of out) byStatus[o.status] = (byStatus[o.status] ?? 0) + 1;
  console.log(byStatus);
  for (const o of out.filter(o => o.status !== 'pass')) console.log(o.status, o.id, o.message);
}, 600000);

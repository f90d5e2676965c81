import { it } from 'vitest';
import { createReferenceAdapter } from '../../../adapters/reference/index.js';
import { runSuiteInProcess } from '../../../tests/support/run-suite.js';
it('suite vs reference', async () => {
  const out = await runSuiteInProcess(() => createReferenceAdapter(), { level: 3 });
  const bad = out.filter((o) => o.status !== 'pass' && o.status !== 'not-applicable');
  console.log(`total ${out.length}, non-pass ${bad.length}`);
  for (const o of bad) console.log(o.status, o.id, '::', o.message?.slice(0, 300));
}, 300000);

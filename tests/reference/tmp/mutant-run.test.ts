import { it } from 'vitest';
import { createMutantAdapter, MUTANTS } from '../../../adapters/reference/mutants.js';
import { failedIds, runSuiteInProcess } from '../../support/run-suite.js';
it('mutants vs suite', async () => {
  for (const m of MUTANTS) {
    const out = await runSuiteInProcess(() => createMutantAdapter(m.name), { level: 3 });
    const failed = failedIds(out);
    const errs = out.filter((o) => o.status === 'error' || o.status === 'crash').map((o) => o.id);
    const extra = failed.filter((id) => !m.breaks.includes(id));
    const missed = m.breaks.filter((id) => !failed.includes(id));
    console.log(`${m.name.padEnd(40)} fails=[${failed.join(',')}] extra=[${extra.join(',')}] missed=[${missed.join(',')}] errors=[${errs.join(',')}]`);
  }
}, 1200000);

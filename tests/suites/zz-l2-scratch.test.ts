import { it } from 'vitest';
import { createMutantAdapter, MUTANTS } from '../../adapters/reference/mutants.js';
import { cases } from '../../suites/level-2/index.js';
import { failedIds, runSuiteInProcess } from '../support/run-suite.js';
it('scratch', async () => {
  for (const m of MUTANTS) {
    const out = await runSuiteInProcess(() => createMutantAdapter(m.name), { level: 2, cases });
    const exp = m.breaks.filter((b) => b.startsWith('L2-')).sort();
    const got = failedIds(out);
    const errs = out.filter((o) => o.status === 'error' || o.status === 'crash').map((o) => o.id + ':' + o.message);
    if (JSON.stringify(exp) !== JSON.stringify(got) || errs.length) {
      console.log(m.name, 'expected', exp, 'got', got, errs);
      for (const o of out) if (o.status === 'fail' && !exp.some((e) => o.requirements.includes(e))) console.log('   ', o.id, o.message, JSON.stringify(o.observed)?.slice(0, 200));
    }
  }
}, 900000);

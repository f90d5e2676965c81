import { describe, it } from 'vitest';
import { createReferenceAdapter, QUIRK_NAMES } from '../../adapters/reference/index.js';
import { runSuiteInProcess, failedIds } from '../support/run-suite.js';
import { cases } from '../../suites/level-3/index.js';

describe('scratch l3', () => {
  it('reference', async () => {
    const out = await runSuiteInProcess(() => createReferenceAdapter(), { level: 3, cases });
    for (const o of out) if (o.status !== 'pass') console.log('REF', o.status, o.id, o.message, JSON.stringify(o.observed)?.slice(0, 400));
    console.log('ref passes', out.filter((o) => o.status === 'pass').length, '/', out.length);
  });
  it('mutants', async () => {
    for (const q of QUIRK_NAMES) {
      const out = await runSuiteInProcess(() => createReferenceAdapter({ quirks: new Set([q]) }), { level: 3, cases });
      const f = failedIds(out);
      const other = out.filter((o) => o.status !== 'pass' && o.status !== 'fail').map((o) => `${o.status}:${o.id}`);
      console.log(q, JSON.stringify(f), other.join(' '));
      for (const o of out) if (o.status === 'fail') console.log('   ', o.id, o.message?.slice(0, 200));
    }
  }, 600_000);
});

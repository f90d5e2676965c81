import { it } from 'vitest';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { mkdtempSync } from 'node:fs';
import { createMutantAdapter } from '../../adapters/reference/mutants.js';
import { createReferenceAdapter } from '../../adapters/reference/index.js';
import { hostScript } from '../../runner/engine/adapter-spec.js';
import { adapterEnv } from '../../runner/engine/env.js';
import { handshake } from '../../runner/engine/handshake.js';
import { StdioAdapterClient } from '../../runner/engine/stdio-client.js';
import { cases } from '../../suites/level-2/index.js';
import { runSuiteInProcess } from '../support/run-suite.js';
const scratch = mkdtempSync(join(tmpdir(), 'x-'));
let n = 0;
const sp = (spec: string) => async () => { const c = await StdioAdapterClient.start({ argv: [process.execPath, hostScript()!, spec], env: adapterEnv(join(scratch, String(n++))), timeoutMs: 60000 }); await handshake(c); return c; };
const pc = cases.filter((c) => c.needs?.process || /concurrent|write-path/.test(c.id));
it('scratch', async () => {
  for (const name of (process.env.MUTS ?? 'reference').split(',')) {
    const out = await runSuiteInProcess(() => name === 'reference' ? createReferenceAdapter() : createMutantAdapter(name), { level: 2, cases: pc, spawnAdapter: sp(name === 'reference' ? 'builtin:reference' : `builtin:mutant/${name}`) });
    for (const o of out) console.log(name, o.id, o.status, Math.round(o.durationMs), o.message ?? '', JSON.stringify(o.notes ?? {}).slice(0, 400), JSON.stringify(o.observed ?? '').slice(0, 300));
  }
}, 900000);

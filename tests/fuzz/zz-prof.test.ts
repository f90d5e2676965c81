import { test } from 'vitest';
import fc from 'fast-check';
import { narrowingArb } from '../../runner/fuzz/properties/narrowing.js';
import { oracleIssues } from '../../runner/fuzz/oracle-gate.js';
import { createReferenceAdapter } from '../../adapters/reference/index.js';
import { InProcessRpc } from '../../suites/framework/in-process.js';
import { Workspace } from '../../suites/framework/workspace.js';
import { writeProfile } from '../../runner/fuzz/harness.js';

test('prof', async () => {
  const xs = fc.sample(narrowingArb(), { seed: 1, numRuns: 2000 });
  let t = performance.now();
  const xs2 = fc.sample(narrowingArb(), { seed: 2, numRuns: 2000 });
  console.log('gen/s', 2000 / ((performance.now() - t) / 1000));
  t = performance.now();
  let bad = 0;
  for (const x of xs2) if (oracleIssues(x.profile).length) bad++;
  console.log('oracle/s', 2000 / ((performance.now() - t) / 1000), 'bad', bad);
  const rpc = new InProcessRpc(createReferenceAdapter());
  await rpc.call('initialize', { protocol_versions: ['1.0'], runner: { name: 'x', version: '0' } });
  const ws = new Workspace();
  t = performance.now();
  let w = 0;
  for (let i = 0; i < 200; i++) {
    const x = xs[i]!;
    const dir = `${ws.dir}/r${i}`;
    const t0 = performance.now();
    const path = writeProfile(dir, x.profile, 'yaml');
    w += performance.now() - t0;
    await rpc.call('instantiate', { workspace: dir, roots: { project: dir }, profile: { path }, policy: x.policy });
  }
  console.log('instantiate ms', (performance.now() - t) / 200, 'write ms', w / 200);
  ws.remove();
});

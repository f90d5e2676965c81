/**
 * How long the whole fixture suite takes against the reference harness in-process (no adapter
 * process, so this is the suite's and the reference's own cost), with the process-only
 * crash-safety cases left out. The mutant sensitivity test runs this once per mutant.
 */
import { fileURLToPath } from 'node:url';
import { PROTOCOL_VERSION } from '../protocol/messages.js';
import { createReferenceAdapter } from '../harnesses/reference/index.js';
import { InProcessRpc } from '../runner/engine/in-process-rpc.js';
import { runCase } from '../runner/engine/run-case.js';
import { allCases } from '../suites/index.js';

export async function benchSuite(): Promise<{ cases: number; ms: number }> {
  const rpc = new InProcessRpc(createReferenceAdapter());
  const handshake = await rpc.call('initialize', { protocol_versions: [PROTOCOL_VERSION], runner: { name: 'bench', version: '0' } });
  const cases = allCases().filter((c) => !c.needs?.process);
  const slow: Array<[number, string]> = [];
  const t0 = performance.now();
  for (const c of cases) {
    const t = performance.now();
    const o = await runCase(c, { adapter: rpc, handshake, runSeed: 1 });
    if (o.status !== 'pass') process.stdout.write(`  ${o.status} ${o.id}: ${o.message ?? ''}\n`);
    slow.push([performance.now() - t, c.id]);
  }
  const ms = performance.now() - t0;
  slow.sort((a, b) => b[0] - a[0]);
  process.stdout.write(
    `suite in-process vs reference: ${cases.length} cases in ${ms.toFixed(0)} ms (${(ms / cases.length).toFixed(1)} ms/case)\n`,
  );
  process.stdout.write(
    `slowest: ${slow
      .slice(0, 5)
      .map(([t, id]) => `${id} ${t.toFixed(0)}ms`)
      .join(', ')}\n`,
  );
  return { cases: cases.length, ms };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await benchSuite();

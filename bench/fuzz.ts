/**
 * Fuzzer throughput: generated valid profiles per second (fast-check arbitraries, each judged by
 * the oracle), and fuzz cases / generated inputs per second against the reference adapter
 * in-process and, when dist/adapters/host.js exists, over stdio. Run alone with
 * `node dist/bench/fuzz.js` after a build, or through bench/index.ts.
 */
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { Bench } from 'tinybench';
import { PROTOCOL_VERSION } from '../adapters/protocol/messages.js';
import { resolveAdapter, hostScript } from '../runner/engine/adapter-spec.js';
import { connect } from '../runner/engine/connect.js';
import { fuzzCases, DEFAULT_FUZZ_BUDGET } from '../suites/fuzz/index.js';
import { oracleIssues } from '../suites/fuzz/oracle-gate.js';
import { narrowingArb } from '../suites/fuzz/properties/narrowing.js';
import { InProcessRpc } from '../runner/engine/in-process-rpc.js';
import { runCase } from '../suites/framework/run-case.js';
import type { AdapterRpc } from '../suites/framework/types.js';
import type { HandshakeT } from '../adapters/protocol/messages.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const TARGET_PROFILES_PER_SECOND = 2000;
const BATCH = 200;

/** Run the default-budget case list once; returns wall and CPU seconds (CPU is robust to a busy box). */
async function runCases(
  rpc: AdapterRpc,
  handshake: HandshakeT,
  budget: number,
): Promise<{ cases: number; inputs: number; wall: number; cpu: number; failed: number }> {
  const findingsDir = mkdtempSync(join(tmpdir(), 'oap-bench-findings-'));
  const cases = fuzzCases({ budget, seed: 1, findingsDir });
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let failed = 0;
  for (const c of cases) if ((await runCase(c, { adapter: rpc, handshake, runSeed: 1 })).status !== 'pass') failed++;
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(c0);
  rmSync(findingsDir, { recursive: true, force: true });
  return { cases: cases.length, inputs: cases.reduce((n, c) => n + c.fuzz.numRuns, 0), wall, cpu: (cpu.user + cpu.system) / 1e6, failed };
}

export async function benchFuzz(): Promise<void> {
  const arb = narrowingArb();
  const probe = fc.sample(arb, { seed: 0, numRuns: 2000 });
  const validShare = probe.filter((x) => oracleIssues(x.profile).length === 0).length / probe.length;
  let seed = 1;
  const bench = new Bench({ time: 700, warmupTime: 200 });
  bench.add(`generate + oracle-validate ${BATCH} profiles (fast-check)`, () => {
    for (const x of fc.sample(arb, { seed: seed++, numRuns: BATCH })) oracleIssues(x.profile);
  });
  await bench.run();
  const rows: Record<string, unknown>[] = bench.tasks.map((task) => {
    const r = task.result;
    const stats = 'throughput' in r ? r : undefined;
    return {
      task: task.name,
      'valid profiles/s': stats ? Math.round(stats.throughput.mean * BATCH * validShare) : 'n/a',
      'oracle-valid share': `${(validShare * 100).toFixed(1)}%`,
    };
  });
  console.table(rows);
  process.stdout.write(`target: ≥ ${TARGET_PROFILES_PER_SECOND} generated valid profiles/s\n`);

  const ref = await resolveAdapter('builtin:reference');
  const inproc = new InProcessRpc(await ref.factory!());
  const hs = await inproc.call('initialize', { protocol_versions: [PROTOCOL_VERSION], runner: { name: 'bench', version: '0' } });
  const table: Record<string, unknown>[] = [];
  const r = await runCases(inproc, hs, DEFAULT_FUZZ_BUDGET);
  table.push({
    adapter: 'reference in-process',
    budget: DEFAULT_FUZZ_BUDGET,
    cases: r.cases,
    inputs: r.inputs,
    'wall s': r.wall.toFixed(2),
    'cpu s': r.cpu.toFixed(2),
    'cases/s': (r.cases / r.wall).toFixed(1),
    'inputs/s': (r.inputs / r.wall).toFixed(0),
    failed: r.failed,
  });
  if (hostScript()) {
    const dir = mkdtempSync(join(tmpdir(), 'oap-bench-stdio-'));
    const proc = await resolveAdapter('builtin:reference', { forceProcess: true });
    const conn = await connect(proc, { timeoutMs: 10_000, dir });
    try {
      const s = await runCases(conn.rpc, conn.handshake, DEFAULT_FUZZ_BUDGET);
      table.push({
        adapter: 'reference over stdio',
        budget: DEFAULT_FUZZ_BUDGET,
        cases: s.cases,
        inputs: s.inputs,
        'wall s': s.wall.toFixed(2),
        'cpu s (runner only)': s.cpu.toFixed(2),
        'cases/s': (s.cases / s.wall).toFixed(1),
        'inputs/s': (s.inputs / s.wall).toFixed(0),
        failed: s.failed,
      });
    } finally {
      await conn.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  console.table(table);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await benchFuzz();
}

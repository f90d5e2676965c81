/**
 * Fuzzer throughput: generated valid profiles per second (fast-check arbitraries, each judged by
 * the oracle), and fuzz cases / generated inputs per second against the reference adapter
 * in-process and, when dist/harnesses/host.js exists, over stdio. Run alone with
 * `node dist/bench/fuzz.js` after a build, or through bench/index.ts.
 *
 * The seed sweep (`npm run sweep:seeds`, i.e. `node dist/bench/fuzz.js sweep [--from N]
 * [--seeds N] [--budget N] [--jobs N]`): the reference harness must pass every fuzz case, judging
 * every input, on each of 200 consecutive seeds at the default budget. No generator may fail the
 * reference; a seed that does is printed with its failing cases and the exit code is 1.
 */
import { fork } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { Bench } from 'tinybench';
import { PROTOCOL_VERSION } from '../protocol/messages.js';
import { resolveAdapter, hostScript } from '../runner/engine/adapter-spec.js';
import { connect } from '../runner/engine/connect.js';
import { fuzzCases, DEFAULT_FUZZ_BUDGET } from '../fuzz/index.js';
import { createReferenceAdapter } from '../harnesses/reference/index.js';
import { oracleIssues } from '../fuzz/oracle-gate.js';
import { narrowingArb } from '../fuzz/properties/narrowing.js';
import { InProcessRpc } from '../runner/engine/in-process-rpc.js';
import { runCase } from '../runner/engine/run-case.js';
import type { AdapterRpc } from '../suites/kit/types.js';
import type { HandshakeT } from '../protocol/messages.js';
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

interface SweepOptions {
  from: number;
  seeds: number;
  budget: number;
}

interface SweepResult {
  seeds: number;
  cases: number;
  inputs: number;
  /** Inputs the reference did not judge (rejected, declined, ...): a generator the reference refuses. */
  unjudged: number;
  /** `seed N: <case>: <status>: <message>` for every case that did not pass. */
  failures: string[];
  cpuSeconds: number;
}

/** The reference harness, in-process, over every fuzz case of `seeds` consecutive seeds. */
async function sweepSeeds(opts: SweepOptions, onSeed?: (seed: number, r: SweepResult) => void): Promise<SweepResult> {
  const rpc = new InProcessRpc(createReferenceAdapter());
  const handshake = await rpc.call('initialize', { protocol_versions: [PROTOCOL_VERSION], runner: { name: 'sweep', version: '0' } });
  const total: SweepResult = { seeds: 0, cases: 0, inputs: 0, unjudged: 0, failures: [], cpuSeconds: 0 };
  const c0 = process.cpuUsage();
  for (let seed = opts.from; seed < opts.from + opts.seeds; seed++) {
    const findingsDir = mkdtempSync(join(tmpdir(), 'oap-sweep-findings-'));
    const r: SweepResult = { seeds: 1, cases: 0, inputs: 0, unjudged: 0, failures: [], cpuSeconds: 0 };
    for (const c of fuzzCases({ budget: opts.budget, seed, findingsDir })) {
      const o = await runCase(c, { adapter: rpc, handshake, runSeed: seed });
      const note = o.notes?.fuzz as { generated: number; judged: number } | undefined;
      r.cases++;
      r.inputs += note?.generated ?? 0;
      r.unjudged += (note?.generated ?? 0) - (note?.judged ?? 0);
      if (o.status !== 'pass') r.failures.push(`seed ${seed}: ${o.id}: ${o.status}: ${'message' in o ? o.message : ''}`);
    }
    rmSync(findingsDir, { recursive: true, force: true });
    for (const k of ['seeds', 'cases', 'inputs', 'unjudged'] as const) total[k] += r[k];
    total.failures.push(...r.failures);
    onSeed?.(seed, r);
  }
  const cpu = process.cpuUsage(c0);
  total.cpuSeconds = (cpu.user + cpu.system) / 1e6;
  return total;
}

function flag(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  if (i === -1) return fallback;
  const v = Number(args[i + 1]);
  if (!Number.isInteger(v) || v < 1) {
    process.stderr.write(`sweep: --${name} takes a positive integer\n`);
    process.exit(2);
  }
  return v;
}

/**
 * `sweep`: with `--jobs N`, N forked workers take contiguous seed ranges and send one message per
 * seed; the parent prints a line every 10 seeds and every seed with a case not passing.
 */
async function sweepCommand(args: string[]): Promise<void> {
  const opts: SweepOptions = {
    from: flag(args, 'from', 1),
    seeds: flag(args, 'seeds', 200),
    budget: flag(args, 'budget', DEFAULT_FUZZ_BUDGET),
  };
  if (args.includes('--worker')) {
    const total = await sweepSeeds(opts, (seed, r) => process.send?.({ seed, result: r }));
    // The last message carries the worker's CPU time; the channel closes once it is flushed.
    process.send?.({ cpuSeconds: total.cpuSeconds }, () => process.disconnect?.());
    return;
  }
  const jobs = Math.min(flag(args, 'jobs', 1), opts.seeds);
  process.stdout.write(
    `seed sweep: reference harness, seeds ${opts.from}..${opts.from + opts.seeds - 1}, budget ${opts.budget}, ${jobs} job(s)\n`,
  );
  const t0 = performance.now();
  const results: SweepResult[] = [];
  let cpuSeconds = 0;
  const onSeed = (seed: number, r: SweepResult): void => {
    results.push(r);
    if (r.failures.length > 0 || r.unjudged > 0 || results.length % 10 === 0)
      process.stdout.write(
        `  ${results.length}/${opts.seeds} seeds done (${((performance.now() - t0) / 1000).toFixed(0)} s); seed ${seed}: ${r.cases} cases, ${r.failures.length} not passing, ${r.unjudged} inputs not judged\n`,
      );
  };
  if (jobs === 1) {
    cpuSeconds = (await sweepSeeds(opts, onSeed)).cpuSeconds;
  } else {
    const per = Math.ceil(opts.seeds / jobs);
    const ranges = Array.from({ length: jobs }, (_, j) => ({
      from: opts.from + j * per,
      seeds: Math.min(per, opts.seeds - j * per),
    })).filter((r) => r.seeds > 0);
    await Promise.all(
      ranges.map(
        (r) =>
          new Promise<void>((resolve, reject) => {
            const child = fork(fileURLToPath(import.meta.url), [
              'sweep',
              '--worker',
              '--from',
              String(r.from),
              '--seeds',
              String(r.seeds),
              '--budget',
              String(opts.budget),
            ]);
            child.on('message', (m) => {
              const msg = m as { seed: number; result: SweepResult } | { cpuSeconds: number };
              if ('cpuSeconds' in msg) cpuSeconds += msg.cpuSeconds;
              else onSeed(msg.seed, msg.result);
            });
            child.once('exit', (code) =>
              code === 0 ? resolve() : reject(new Error(`sweep worker for seeds from ${r.from} exited with ${code}`)),
            );
          }),
      ),
    );
  }
  const sum = results.reduce(
    (a, r) => ({
      seeds: a.seeds + r.seeds,
      cases: a.cases + r.cases,
      inputs: a.inputs + r.inputs,
      unjudged: a.unjudged + r.unjudged,
      failures: [...a.failures, ...r.failures],
      cpuSeconds: a.cpuSeconds,
    }),
    { seeds: 0, cases: 0, inputs: 0, unjudged: 0, failures: [], cpuSeconds },
  );
  const wall = (performance.now() - t0) / 1000;
  console.table([
    {
      seeds: sum.seeds,
      cases: sum.cases,
      inputs: sum.inputs,
      'not judged': sum.unjudged,
      'not passing': sum.failures.length,
      'wall s': wall.toFixed(0),
      'cpu s': sum.cpuSeconds.toFixed(0),
    },
  ]);
  for (const f of sum.failures) process.stdout.write(`  ${f}\n`);
  process.stdout.write(
    sum.failures.length === 0 && sum.unjudged === 0
      ? `PASS: the reference passes every fuzz property, judging every input, on ${sum.seeds} consecutive seeds\n`
      : `FAIL: ${sum.failures.length} case(s) not passing, ${sum.unjudged} input(s) not judged\n`,
  );
  if (sum.failures.length > 0 || sum.unjudged > 0) process.exitCode = 1;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (process.argv[2] === 'sweep') await sweepCommand(process.argv.slice(3));
  else await benchFuzz();
}

/**
 * Catch rate of the concurrency cases (L2-A3/concurrent-writers-no-lost-update,
 * L2-A12/concurrent-writers-never-tear): each case runs RUNS times (seeds 1..RUNS) against each
 * mutant a race could expose, and against the reference (which must pass every run), with 1, 2 and
 * RACE_ROUNDS rounds, each run with two freshly spawned adapter processes, as the engine's
 * worker provides them. A mutant no race case catches is listed with its 0 rate: its defect is
 * caught elsewhere (the crash points, the write-path trace). The suite's RACE_ROUNDS is the
 * fewest rounds whose rate is RUNS/RUNS for every mutant a race case catches.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PROTOCOL_VERSION } from '../protocol/messages.js';
import { createReferenceAdapter } from '../harnesses/reference/index.js';
import { createMutantAdapter } from '../harnesses/mutants/index.js';
import { hostScript } from '../runner/engine/adapter-spec.js';
import { adapterEnv } from '../runner/engine/env.js';
import { handshake } from '../runner/engine/handshake.js';
import { InProcessRpc } from '../runner/engine/in-process-rpc.js';
import { StdioAdapterClient } from '../runner/engine/stdio-client.js';
import { runCase } from '../runner/engine/run-case.js';
import type { KillableAdapter } from '../suites/kit/types.js';
import { RACE_ROUNDS, raceCases } from '../suites/level-2/crash-and-races.js';
import type { Target } from './measure.js';

const SUBJECTS = ['reference', 'blind-write-on-conflict', 'write-in-place', 'non-atomic-ops'] as const;

export async function benchRaces(opts: { runs?: number; subjects?: string[] } = {}): Promise<Target[]> {
  const runs = opts.runs ?? 50;
  const host = hostScript('builtin:reference');
  if (!host) throw new Error('bench/races needs the built host (npm run build)');
  const scratch = mkdtempSync(join(tmpdir(), 'oap-bench-races-'));
  let n = 0;
  const targets: Target[] = [];
  try {
    for (const subject of SUBJECTS.filter((x) => !opts.subjects || opts.subjects.includes(x))) {
      const spec = subject === 'reference' ? 'builtin:reference' : `builtin:mutant/${subject}`;
      const spawn = async (): Promise<KillableAdapter> => {
        const c = await StdioAdapterClient.start({
          argv: [process.execPath, host, spec],
          env: adapterEnv(join(scratch, `w${n++}`)),
          timeoutMs: 60_000,
        });
        await handshake(c);
        return c;
      };
      for (const rounds of [...new Set([1, 2, RACE_ROUNDS])].sort()) {
        const counts = new Map<string, number>();
        for (let seed = 1; seed <= runs; seed++) {
          const rpc = new InProcessRpc(subject === 'reference' ? createReferenceAdapter() : createMutantAdapter(subject));
          const hs = await rpc.call('initialize', { protocol_versions: [PROTOCOL_VERSION], runner: { name: 'bench', version: '0' } });
          for (const c of raceCases(rounds)) {
            const spawned: KillableAdapter[] = [];
            const out = await runCase(c, {
              adapter: rpc,
              handshake: hs,
              runSeed: seed,
              spawnAdapter: async () => {
                const a = await spawn();
                spawned.push(a);
                return a;
              },
            });
            await Promise.all(spawned.map((a) => a.kill().catch(() => {})));
            const key = c.id.replace(/ .*/, '');
            counts.set(key, (counts.get(key) ?? 0) + (out.status === (subject === 'reference' ? 'pass' : 'fail') ? 1 : 0));
          }
        }
        for (const [id, k] of counts) {
          const reference = subject === 'reference';
          process.stdout.write(`  ${id} vs ${subject}, ${rounds} round(s): ${reference ? 'passed' : 'caught'} ${k}/${runs}\n`);
          // Targets: the reference passes every run; a mutant of the case's own ID is caught every run.
          const ownId = subject === 'blind-write-on-conflict' ? 'L2-A3' : subject === 'reference' ? '' : 'L2-A12';
          const own = id.startsWith(`${ownId}/`) && (subject === 'blind-write-on-conflict' || k > 0);
          if (rounds !== RACE_ROUNDS || !(reference || own)) continue;
          targets.push({
            name: `${id} ${reference ? 'passes the reference' : `catches ${subject}`} (${RACE_ROUNDS} rounds)`,
            figure: `${k}/${runs} runs`,
            target: `${runs}/${runs}`,
            ratio: `${((k / runs) * 100).toFixed(0)}%`,
            met: k === runs,
            how: `seeds 1..${runs}, two spawned adapters a run`,
          });
        }
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return targets;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { formatTargets } = await import('./measure.js');
  const i = process.argv.indexOf('--runs');
  process.stdout.write(formatTargets(await benchRaces(i > 0 ? { runs: Number(process.argv[i + 1]) } : {})));
}

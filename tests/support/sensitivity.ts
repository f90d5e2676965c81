/**
 * Case-level sensitivity of the suite: which individual checks (cases) does at least one mutant of
 * the reference harness make fail? A case no mutant kills may be vacuous (it would pass against an
 * implementation that gets the behaviour it checks wrong), so the list of unkilled cases is the
 * work list for new mutants (adapters/reference/mutants.ts, MUTANTS.md).
 *
 * Each mutant runs in-process over the cases, with one fresh adapter instance per mutant, exactly as
 * tests/support/run-suite.ts does. Cases that need a killable adapter process are skipped (they
 * cannot run in-process). Run directly (`node dist/runner/sensitivity.js`) it sweeps every mutant
 * over allCases() at level 3 and prints the unkilled cases grouped by requirement ID.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PROTOCOL_VERSION } from '../../adapters/protocol/messages.js';
import type { AdapterFactory } from '../../adapters/sdk/ts/types.js';
import { InProcessRpc } from '../../runner/engine/in-process-rpc.js';
import { runCase } from '../../suites/framework/run-case.js';
import type { CaseDef, CaseOutcome } from '../../suites/framework/types.js';
import { caseLevel } from '../../suites/index.js';

interface SensitivityMutant {
  name: string;
  /** Fresh adapter instance of this mutant. */
  factory: AdapterFactory;
}

interface SweepOptions {
  /** Highest level of the cases to run (default 3). */
  level?: 1 | 2 | 3;
  seed?: number;
  /**
   * Mutants run at the same time (default 1). Each has its own adapter instance and every case its
   * own workspace, and a run is mostly waiting on the file system and child processes, so a few in
   * parallel cut the wall time without changing outcomes.
   */
  concurrency?: number;
  /** Called after each mutant's run (progress). */
  onMutant?: (name: string, outcomes: CaseOutcome[], index: number, total: number) => void;
}

/** Per case ID: the names of the mutants under which the case failed (status `fail`). */
export type KillMatrix = Map<string, string[]>;

/** Cases the sweep can judge: no process needed, within the level. */
function sweepableCases(cases: readonly CaseDef[], level: 1 | 2 | 3 = 3): CaseDef[] {
  return cases.filter((c) => !c.needs?.process && caseLevel(c) <= level);
}

/** One fresh adapter instance over `cases`, in order, in-process (as one worker would). */
export async function runMutantCases(factory: AdapterFactory, cases: readonly CaseDef[], seed = 1): Promise<CaseOutcome[]> {
  const adapter = await factory();
  try {
    const rpc = new InProcessRpc(adapter);
    const handshake = await rpc.call('initialize', {
      protocol_versions: [PROTOCOL_VERSION],
      runner: { name: 'oap-conform-sensitivity', version: '0' },
    });
    const out: CaseOutcome[] = [];
    for (const c of cases) out.push(await runCase(c, { adapter: rpc, handshake, runSeed: seed }));
    return out;
  } finally {
    await adapter.dispose?.();
  }
}

/**
 * Run every mutant over the (sweepable) cases and return, per case ID, the mutants under which it
 * failed. Every sweepable case has an entry (an empty list: no mutant kills it). Only `fail` counts
 * as a kill: an `error` is a check or adapter bug, not evidence that the check sees the deviation.
 */
async function caseKillMatrix(
  mutants: readonly SensitivityMutant[],
  cases: readonly CaseDef[],
  opts: SweepOptions = {},
): Promise<KillMatrix> {
  const selected = sweepableCases(cases, opts.level ?? 3);
  const results: CaseOutcome[][] = new Array(mutants.length);
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    while (next < mutants.length) {
      const i = next++;
      const m = mutants[i]!;
      results[i] = await runMutantCases(m.factory, selected, opts.seed ?? 1);
      opts.onMutant?.(m.name, results[i], done++, mutants.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.concurrency ?? 1, mutants.length)) }, worker));
  // Filled in mutant order, so the matrix does not depend on which run finished first.
  const matrix: KillMatrix = new Map(selected.map((c) => [c.id, [] as string[]]));
  mutants.forEach((m, i) => {
    for (const o of results[i]!) if (o.status === 'fail') matrix.get(o.id)?.push(m.name);
  });
  return matrix;
}

export interface SensitivitySummary {
  /** Cases counted (sweepable, origin other than fuzz). */
  total: number;
  killed: number;
  fraction: number;
  /** Requirement ID -> unkilled case IDs (a case proving two IDs is listed under each). */
  unkilledById: Map<string, string[]>;
  unkilled: string[];
}

/** Summarize a matrix over the fixture cases (fuzz cases are excluded from the fraction). */
export function summarize(matrix: KillMatrix, cases: readonly CaseDef[]): SensitivitySummary {
  const counted = cases.filter((c) => matrix.has(c.id) && c.origin !== 'fuzz');
  const unkilled = counted.filter((c) => (matrix.get(c.id) ?? []).length === 0);
  const unkilledById = new Map<string, string[]>();
  for (const c of unkilled) for (const id of c.requirements) unkilledById.set(id, [...(unkilledById.get(id) ?? []), c.id]);
  const sorted = new Map([...unkilledById].sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true })));
  const total = counted.length;
  const killed = total - unkilled.length;
  return { total, killed, fraction: total === 0 ? 1 : killed / total, unkilledById: sorted, unkilled: unkilled.map((c) => c.id) };
}

export function formatSummary(s: SensitivitySummary): string {
  const lines = [`cases killed by at least one mutant: ${s.killed}/${s.total} (${(s.fraction * 100).toFixed(1)}%)`];
  if (s.unkilled.length === 0) return lines.join('\n');
  lines.push(`unkilled cases (${s.unkilled.length}), by requirement ID:`);
  for (const [id, ids] of s.unkilledById) {
    lines.push(`  ${id}`);
    for (const c of ids) lines.push(`    ${c}`);
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const { MUTANTS, createMutantAdapter } = await import('../../adapters/reference/mutants.js');
  const { allCases } = await import('../../suites/index.js');
  const cases = allCases();
  const started = performance.now();
  const matrix = await caseKillMatrix(
    MUTANTS.map((m) => ({ name: m.name, factory: () => createMutantAdapter(m.name) })),
    cases,
    {
      concurrency: Number(process.env['OAP_SWEEP_CONCURRENCY'] ?? 4),
      onMutant: (name, _o, i, n) => process.stderr.write(`[${i + 1}/${n}] ${name}\n`),
    },
  );
  process.stderr.write(`swept ${MUTANTS.length} mutants in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
  const summary = summarize(matrix, cases);
  process.stdout.write(`${formatSummary(summary)}\n`);
  if (process.argv.includes('--matrix')) {
    for (const [id, killers] of matrix) process.stdout.write(`${id}\t${killers.join(',')}\n`);
  }
}

const invokedDirectly = (() => {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
})();

if (invokedDirectly) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  });
}

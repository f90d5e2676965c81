import type { CaseRecord } from '../../results/model.js';
import type { AdapterFactory } from '../../sdk/ts/types.js';
import { PROTOCOL_VERSION } from '../../protocol/messages.js';
import { InProcessRpc } from '../../runner/engine/in-process-rpc.js';
import { runCalibration, runCase } from '../../runner/engine/run-case.js';
import type { CaseDef, KillableAdapter } from '../../suites/kit/types.js';
import type { CaseOutcome } from '../../results/record.js';
import { allCases, caseLevel } from '../../suites/index.js';
import { clausesOf } from '../../spec/requirements.js';

export interface InProcessRunOptions {
  level?: 1 | 2 | 3;
  filter?: (c: CaseDef) => boolean;
  cases?: CaseDef[];
  seed?: number;
  spawnAdapter?: () => Promise<KillableAdapter>;
  /** Calibrate first, as the engine does unless --no-calibrate (default true). */
  calibrate?: boolean;
}

/**
 * Run suite cases against an in-process adapter, sequentially, with a fresh adapter instance
 * for the whole run (as one worker would have), after calibrating on it as the engine does. For tests: the CLI uses the engine's scheduler.
 */
export async function runSuiteInProcess(factory: AdapterFactory, opts: InProcessRunOptions = {}): Promise<CaseOutcome[]> {
  const adapter = await factory();
  const rpc = new InProcessRpc(adapter);
  const handshake = await rpc.call('initialize', {
    protocol_versions: [PROTOCOL_VERSION],
    runner: { name: 'oap-conform-test', version: '0' },
  });
  const level = opts.level ?? handshake.level;
  const runSeed = opts.seed ?? 1;
  const accommodations = opts.calibrate === false ? [] : (await runCalibration({ adapter: rpc, handshake, runSeed }, level)).accommodations;
  const cases = (opts.cases ?? allCases()).filter((c) => caseLevel(c) <= level && (opts.filter?.(c) ?? true));
  const out: CaseOutcome[] = [];
  for (const c of cases) {
    // Processes a case spawned are killed when it ends, as the engine's worker does.
    const spawned: KillableAdapter[] = [];
    const spawn = opts.spawnAdapter;
    const spawnAdapter = spawn
      ? async () => {
          const a = await spawn();
          spawned.push(a);
          return a;
        }
      : undefined;
    out.push(await runCase(c, { adapter: rpc, handshake, runSeed, accommodations, ...(spawnAdapter ? { spawnAdapter } : {}) }));
    await Promise.all(spawned.map((a) => a.kill().catch(() => {})));
  }
  await adapter.dispose?.();
  return out;
}

/** Requirement IDs with at least one failing case. */
export function failedIds(outcomes: CaseOutcome[]): string[] {
  const ids = new Set<string>();
  for (const o of outcomes) if (o.status === 'fail') for (const id of o.requirements) ids.add(id);
  return [...ids].sort();
}

/** Requirement IDs with at least one case, all of which passed. */
export function passedIds(outcomes: CaseOutcome[]): string[] {
  const by = new Map<string, boolean>();
  for (const o of outcomes) for (const id of o.requirements) by.set(id, (by.get(id) ?? true) && o.status === 'pass');
  return [...by]
    .filter(([, ok]) => ok)
    .map(([id]) => id)
    .sort();
}

/** The records the engine would write for these outcomes (for judging them with results/). */
export function recordsOf(outcomes: readonly CaseOutcome[]): CaseRecord[] {
  const byId = new Map(allCases().map((c) => [c.id, c]));
  return outcomes.map((o) => {
    const def = byId.get(o.id);
    const clauses = def ? [...def.clauses] : o.requirements.flatMap((id) => clausesOf(id).map((c) => c.id));
    return { ...o, title: def?.title ?? o.id, clauses, level: def ? caseLevel(def) : 1, origin: def?.origin ?? 'fixture' };
  });
}

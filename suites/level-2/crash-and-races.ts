/**
 * Crash safety and concurrent writers (L2-A5, L2-A12, security.md T8), black-box: the adapter
 * process is SIGKILLed at seeded-random moments while it applies a large delta to a large profile,
 * two writers race on one profile, and the write path itself is observed (strace, or directory
 * events when strace cannot attach).
 */
import { join } from 'node:path';
import type { Params } from '../../adapters/protocol/messages.js';
import { expectEqual } from '../framework/assert.js';
import { CaseInconclusive } from '../framework/errors.js';
import type { AdapterRpc, CaseContext, CaseDef, KillableAdapter } from '../framework/types.js';
import { APPLY_NOW, entry } from './support/builders.js';
import { APPROVED, findEntry } from './support/apply.js';
import { rng, sleep } from './support/common.js';
import { CRASH_NAME, classify, crashFixture, type Classified, type CrashClass, type CrashFixture } from './support/crash-fixture.js';
import type { Encoding } from '../framework/types.js';
import { attachStrace, cwdOf, judgeStrace, realTarget, watchDirectory, type WriteVerdict } from './support/write-evidence.js';
import { inconclusive, issuesCause, readBack, workingEncoding, writeProfile } from '../support/index.js';

// 12 kills a case (24 a run, two cases) keep a full certification run under 15 s on 2 cores; the
// seeded moments and the adaptive estimate spread them over the whole apply, the write included.
const KILLS = 12;

function applyParams(path: string, delta: Record<string, unknown>): Params<'apply_delta'> {
  return { profile_path: path, delta, approval: APPROVED, actor: 'oap-conform-crash', now: APPLY_NOW };
}

/** A fresh directory per attempt: a killed writer may leave a lock or temp file behind. */
function place(ctx: CaseContext, label: string, fx: CrashFixture, enc: Encoding): string {
  return writeProfile(join(ctx.workspace.dir, 'crash', label), fx.pre, enc, CRASH_NAME);
}

interface CrashRun {
  samples: Array<Classified & { delayMs: number }>;
  applyMs: number;
  postRevision: number | undefined;
}

/**
 * Calibrate with one uninterrupted apply (how long it takes, which revision it writes), then kill
 * `KILLS` fresh adapter processes at seeded-random moments of the same apply.
 */
async function crashLoop(ctx: CaseContext): Promise<CrashRun> {
  const spawnAdapter = ctx.spawnAdapter?.bind(ctx);
  // The case declares needs.process, so the runner only starts it with a spawnable adapter.
  if (!spawnAdapter)
    throw new CaseInconclusive('the case needs a separately spawned adapter process and this adapter cannot be spawned as one');
  const enc = workingEncoding(ctx.handshake, ['json', 'yaml', 'md']);
  const fx = crashFixture(ctx.seed);

  const calPath = place(ctx, 'calibration', fx, enc);
  const cal = await spawnAdapter();
  const t0 = performance.now();
  const res = await cal.call('apply_delta', applyParams(calPath, fx.delta));
  const applyMs = performance.now() - t0;
  await cal.close();
  const calRead = readBack(calPath);
  const postRevision = calRead.doc ? (calRead.doc.metadata as { revision?: number }).revision : undefined;
  const calClass = classify(calPath, fx, postRevision);
  if (res.outcome !== 'applied' || calClass.cls !== 'post') {
    inconclusive(
      `an uninterrupted apply of the crash delta did not produce the post-delta profile (outcome ${res.outcome}, file ${calClass.cls})`,
      issuesCause(`calibration apply ${res.outcome}, file ${calClass.cls}`, res.errors),
    );
  }

  const random = rng(ctx.seed);
  const samples: CrashRun['samples'] = [];
  // The moment of the write drifts between processes (cold start, fsync latency), so the estimate
  // adapts: a late kill that still finds the old file moves it later, an early kill that already
  // finds the new one moves it earlier. The next victim is spawned while the current one runs.
  let estimate = applyMs;
  // A spawn that fails while nobody awaits it yet must not count as an unhandled rejection.
  const prespawn = (): Promise<KillableAdapter> => {
    const p = spawnAdapter();
    p.catch(() => undefined);
    return p;
  };
  let next = prespawn();
  for (let i = 0; i < KILLS; i++) {
    const path = place(ctx, `kill-${i}`, fx, enc);
    const victim: KillableAdapter = await next;
    if (i + 1 < KILLS) next = prespawn();
    // Half the kills anywhere in the apply, half late, where the write happens.
    const frac = random() < 0.5 ? random() * 1.2 : 0.6 + random() * 0.5;
    const delayMs = Math.round(estimate * frac);
    victim.send('apply_delta', applyParams(path, fx.delta));
    await sleep(delayMs);
    await victim.kill('SIGKILL');
    const c = classify(path, fx, postRevision);
    samples.push({ ...c, delayMs });
    if (c.cls === 'pre' && frac >= 0.9) estimate *= 1.3;
    if (c.cls === 'post' && frac <= 0.7) estimate *= 0.8;
  }
  return { samples, applyMs, postRevision };
}

function tally(samples: Array<{ cls: CrashClass }>): Record<CrashClass, number> {
  const t: Record<CrashClass, number> = { pre: 0, post: 0, partial: 0, torn: 0 };
  for (const s of samples) t[s.cls]++;
  return t;
}

const a5Crash: CaseDef = {
  id: 'L2-A5/killed-apply-never-partial',
  requirements: ['L2-A5'],
  title: `SIGKILL at ${KILLS} seeded moments of a 250-operation apply to a 2000-fact profile never leaves some operations applied`,
  needs: { process: true },
  expectation: { everyCompleteFile: ['pre', 'post'], partial: 0 },
  async run(ctx) {
    const run = await crashLoop(ctx);
    const t = tally(run.samples);
    ctx.note('kills', { ...t, applyMs: Math.round(run.applyMs) });
    // Torn files are judged by L2-A12's crash case; here only complete documents count.
    const partial = run.samples.filter((s) => s.cls === 'partial');
    expectEqual(
      partial.map((s) => ({ delayMs: s.delayMs, ...s.detail })),
      [],
      'complete profiles with only some of the operations applied',
    );
    if (t.pre + t.post === 0) inconclusive('no kill left a complete profile to judge');
  },
};

const a12Crash: CaseDef = {
  id: 'L2-A12/killed-write-never-torn',
  requirements: ['L2-A12'],
  title: `SIGKILL at ${KILLS} seeded moments of a large apply never leaves a torn, unparseable or invalid profile`,
  needs: { process: true },
  expectation: { everyFile: 'parses, validates, loses no untouched data', torn: 0 },
  async run(ctx) {
    const run = await crashLoop(ctx);
    const t = tally(run.samples);
    ctx.note('kills', { ...t, applyMs: Math.round(run.applyMs) });
    const torn = run.samples.filter((s) => s.cls === 'torn');
    expectEqual(
      torn.map((s) => ({ delayMs: s.delayMs, ...s.detail })),
      [],
      'torn profile files after a kill',
    );
  },
};

// ------------------------------------------------------------------------------------------ A12 write path

const a12Path: CaseDef = {
  id: 'L2-A12/write-path-temp-fsync-rename',
  requirements: ['L2-A12'],
  title: 'The profile is replaced by a temporary file in its directory that was written and fsync-ed, then renamed over it',
  expectation: {
    strace: ['create temp in same dir', 'write', 'fsync|fdatasync', 'rename over target'],
    fsWatchFallback: ['inode changes', 'temp name appears and goes'],
  },
  async run(ctx) {
    const enc = workingEncoding(ctx.handshake);
    const fx = crashFixture(ctx.seed, 200, 10, 10);
    const path = place(ctx, 'write-path', fx, enc);
    const target = realTarget(path);
    let verdict: WriteVerdict | undefined;
    let outcome: string;
    const spawned = ctx.spawnAdapter ? await ctx.spawnAdapter() : undefined;
    const tracer = spawned ? await attachStrace(spawned.pid, join(ctx.workspace.root, 'write-path.strace')) : undefined;
    if (spawned && tracer) {
      const res = await spawned.call('apply_delta', applyParams(path, fx.delta));
      outcome = res.outcome;
      verdict = judgeStrace(await tracer.stop(), target, cwdOf(spawned.pid));
    } else {
      const watcher = watchDirectory(target);
      const rpc: AdapterRpc = spawned ?? ctx.adapter;
      const res = await rpc.call('apply_delta', applyParams(path, fx.delta));
      outcome = res.outcome;
      verdict = await watcher.stop();
    }
    await spawned?.close();
    ctx.note('write-evidence', verdict.kind);
    ctx.note('write-observed', verdict.observed);
    if (outcome !== 'applied') inconclusive(`the delta was not applied (outcome ${outcome}), so no write was observed`);
    expectEqual(verdict.problems, [], `write path (${verdict.kind} evidence)`);
  },
};

// ------------------------------------------------------------------------------------------ races (T8)

const ROUNDS = 6;

interface RaceRound {
  file: 'valid' | 'invalid';
  claims: Array<{ who: 'A' | 'B'; outcome: string; resolution?: string; effect: boolean }>;
}

/**
 * One round: two writers apply index-addressed deltas made against the same revision at the same
 * moment. Whatever the order, the second can only be honest by conflicting (its index no longer
 * means what it meant); an applicator that blind-writes reports both as applied and loses one.
 */
async function race(ctx: CaseContext, writers: [AdapterRpc, AdapterRpc], round: number): Promise<RaceRound> {
  const enc = workingEncoding(ctx.handshake);
  const fx: CrashFixture = crashFixture(ctx.seed + round, 300, 0, 0);
  const path = place(ctx, `race-${round}`, fx, enc);
  const mk = (who: 'A' | 'B'): Record<string, unknown> => ({
    oap: '1.0',
    kind: 'AgentStateDelta',
    target: { name: CRASH_NAME, revision: 10 },
    session: { id: `sess-race-${who}`, outcome: 'completed' },
    operations: [
      { op: 'replace', path: '/state/facts/0/text', value: `Writer ${who} rewrote the first fact.` },
      { op: 'add', path: '/state/facts/-', value: entry(`fact-race-${who}`, `Writer ${who} was here.`) },
    ],
  });
  const [ra, rb] = await Promise.all([
    writers[0].call('apply_delta', applyParams(path, mk('A'))),
    writers[1].call('apply_delta', applyParams(path, mk('B'))),
  ]);
  const read = readBack(path);
  const effect = (who: 'A' | 'B'): boolean =>
    !!read.doc &&
    findEntry(read.doc, 'facts', `fact-race-${who}`) !== undefined &&
    findEntry(read.doc, 'facts', 'fact-00000')?.text === `Writer ${who} rewrote the first fact.`;
  return {
    file: read.ok ? 'valid' : 'invalid',
    claims: [
      { who: 'A', outcome: ra.outcome, ...(ra.conflict_resolution ? { resolution: ra.conflict_resolution } : {}), effect: effect('A') },
      { who: 'B', outcome: rb.outcome, ...(rb.conflict_resolution ? { resolution: rb.conflict_resolution } : {}), effect: effect('B') },
    ],
  };
}

async function writers(ctx: CaseContext): Promise<{ pair: [AdapterRpc, AdapterRpc]; mode: string; close(): Promise<void> }> {
  if (ctx.spawnAdapter) {
    const a = await ctx.spawnAdapter();
    const b = await ctx.spawnAdapter();
    return { pair: [a, b], mode: 'two-processes', close: async () => void (await Promise.all([a.close(), b.close()])) };
  }
  return { pair: [ctx.adapter, ctx.adapter], mode: 'concurrent-calls', close: async () => {} };
}

const claimsWrite = (c: { outcome: string; resolution?: string }): boolean =>
  c.outcome === 'applied' || (c.outcome === 'conflict' && c.resolution === 'rebased');

/** ROUNDS races of two writers on one profile; the writers are closed whatever happens. */
async function raceRounds(ctx: CaseContext): Promise<RaceRound[]> {
  const w = await writers(ctx);
  const rounds: RaceRound[] = [];
  try {
    for (let i = 0; i < ROUNDS; i++) rounds.push(await race(ctx, w.pair, i));
  } finally {
    await w.close();
  }
  ctx.note('race-mode', w.mode);
  return rounds;
}

const a3Race: CaseDef = {
  id: 'L2-A3/concurrent-writers-no-lost-update',
  requirements: ['L2-A3'],
  title: `Two writers applying deltas made against one revision at once (${ROUNDS} rounds): neither is silently lost`,
  expectation: { everyClaimedWrite: 'its effect is on disk', loser: 'conflict/queued/rejected with no effect' },
  async run(ctx) {
    const rounds = await raceRounds(ctx);
    // A torn or invalid file is L2-A12's finding; those rounds say nothing about lost updates.
    const judged = rounds.filter((r) => r.file === 'valid');
    if (judged.length === 0) inconclusive('no race round left a valid profile to judge');
    if (!judged.some((r) => r.claims.some(claimsWrite))) inconclusive('no writer ever applied its delta');
    const lost = judged.flatMap((r, i) => r.claims.filter((c) => claimsWrite(c) && !c.effect).map((c) => ({ round: i, ...c })));
    expectEqual(lost, [], 'writes reported as applied whose effect is not on disk (lost updates)');
    ctx.note(
      'race-outcomes',
      judged.map((r) => r.claims.map((c) => `${c.who}:${c.outcome}${c.resolution ? `/${c.resolution}` : ''}`).join(' ')),
    );
  },
};

const a12Race: CaseDef = {
  id: 'L2-A12/concurrent-writers-never-tear',
  requirements: ['L2-A12'],
  title: `Two writers on one profile at once (${ROUNDS} rounds) never leave a half-written or invalid file`,
  expectation: { file: 'valid after every round' },
  async run(ctx) {
    const rounds = await raceRounds(ctx);
    if (!rounds.some((r) => r.claims.some(claimsWrite))) inconclusive('no writer ever applied its delta');
    const torn = rounds.map((r, i) => ({ round: i, file: r.file })).filter((r) => r.file !== 'valid');
    expectEqual(torn, [], 'profile files left invalid by concurrent writers');
  },
};

export const crashCases: CaseDef[] = [a5Crash, a12Crash, a12Path, a3Race, a12Race];

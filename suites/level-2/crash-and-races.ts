/**
 * Crash safety and concurrent writers (L2-A5, L2-A12, security.md T8), black-box.
 *
 * Crash points: one traced, uninterrupted apply names every step of the adapter's write path
 * (each open for writing, write, fsync and rename in the profile's directory, see
 * ./support/write-evidence.ts); then, for every step in order, a fresh adapter process is killed
 * by strace on entry to exactly that syscall, and the file it leaves is judged. Deterministic,
 * language-neutral and complete over the write path, one adapter spawn per point (last step first).
 * The first point that exposes a violation ends the case (one counterexample is enough; a conforming writer runs
 * them all). Without strace (missing, ptrace denied) the fallback kills at seeded-random moments of
 * a large apply; which method judged is a note on the case.
 */
import { dirname, join } from 'node:path';
import { AdapterCrashed } from '../../protocol/errors.js';
import { isRefused, type Params, type Result } from '../../protocol/messages.js';
import { expectEqual } from '../kit/assert.js';
import { CaseInconclusive } from '../kit/errors.js';
import type { AdapterRpc, CaseContext, CaseDef, KillableAdapter } from '../kit/types.js';
import { APPLY_NOW, entry } from './support/builders.js';
import { APPROVED, findEntry } from './support/apply.js';
import { rng, sleep } from './support/common.js';
import { CRASH_NAME, classify, crashFixture, type Classified, type CrashClass, type CrashFixture } from './support/crash-fixture.js';
import type { Encoding } from '../kit/types.js';
import {
  attachStrace,
  cwdOf,
  judgeStrace,
  powerCutRisks,
  processTree,
  realTarget,
  straceAvailable,
  watchDirectory,
  writePath,
  type CrashPoint,
  type WriteVerdict,
} from './support/write-evidence.js';
import { inconclusive, deltaRefusalCause, readBack, workingEncoding, writeProfile } from '../support/index.js';

// The no-strace fallback: 12 kills a case at seeded-random moments; the seeded moments and the
// adaptive estimate spread them over the whole apply, the write included.
const KILLS = 12;

function applyParams(path: string, delta: Record<string, unknown>): Params<'apply_delta'> {
  return { profile_path: path, delta, approval: APPROVED, actor: 'oap-conform-crash', now: APPLY_NOW };
}

/** A fresh directory per attempt: a killed writer may leave a lock or temp file behind. */
function place(ctx: CaseContext, label: string, fx: CrashFixture, enc: Encoding): string {
  return writeProfile(join(ctx.workspace.dir, 'crash', label), fx.pre, enc, CRASH_NAME);
}

function requireSpawn(ctx: CaseContext): () => Promise<KillableAdapter> {
  // The case declares needs.process, so the runner only starts it with a spawnable adapter.
  if (!ctx.spawnAdapter)
    throw new CaseInconclusive('the case needs a separately spawned adapter process and this adapter cannot be spawned as one');
  return ctx.spawnAdapter.bind(ctx);
}

/** Spawn ahead of need; a spawn that fails while nobody awaits it yet must not be an unhandled rejection. */
function prespawn(spawnAdapter: () => Promise<KillableAdapter>): Promise<KillableAdapter> {
  const p = spawnAdapter();
  p.catch(() => undefined);
  return p;
}

/** Apply on a process that may be killed meanwhile: true when it answered, false when it died. */
async function applyOrDie(victim: KillableAdapter, params: Params<'apply_delta'>): Promise<boolean> {
  try {
    await victim.call('apply_delta', params);
    return true;
  } catch (err) {
    if (err instanceof AdapterCrashed) return false;
    throw err;
  }
}

// ------------------------------------------------------------------------------------------ crash points

/** Syscalls a runtime also makes on its own (eventfd and pipe writes), so a thread's count of them can drift. */
const NOISY = /^(write|writev|pwrite64|pwritev2?)$/;

/** The small delta the crash points use: 3 operations (two adds, one replace) on a 40-fact profile. */
const pointFixture = (seed: number): CrashFixture => crashFixture(seed, 40, 2, 1);

interface PointRun {
  step: number;
  label: string;
  /** Whether the kill came on entry to the intended call ('exact'), another one, or never (the apply finished). */
  reached: 'exact' | 'elsewhere' | 'never';
  cls: CrashClass;
  detail: Classified['detail'];
}

interface CrashPointsRun {
  points: CrashPoint[];
  /** Power-cut risks of the calibration write path (see powerCutRisks). */
  risks: ReturnType<typeof powerCutRisks>;
  runs: PointRun[];
}

/**
 * The revision an uninterrupted apply of the crash delta wrote: the calibration every crash run is
 * judged against. When that apply does not give the post-delta profile, no kill can be judged.
 */
function calibrated(path: string, fx: CrashFixture, res: Result<'apply_delta'>): number | undefined {
  const read = readBack(path);
  const postRevision = read.doc ? (read.doc.metadata as { revision?: number }).revision : undefined;
  const cls = classify(path, fx, postRevision).cls;
  if (res.outcome !== 'applied' || cls !== 'post') {
    inconclusive(
      `an uninterrupted apply of the crash delta did not produce the post-delta profile (outcome ${res.outcome}, file ${cls})`,
      deltaRefusalCause(`calibration apply (file ${cls})`, res),
    );
  }
  return postRevision;
}

/**
 * Calibrate with one traced, uninterrupted apply (its write path, the revision it writes), then
 * kill a fresh adapter on entry to each step of that path in turn, until `stop` says a run exposed
 * what the case looks for. Undefined when strace cannot trace the adapter (the caller falls back).
 */
async function crashPoints(
  ctx: CaseContext,
  stop: (r: PointRun) => boolean,
  skipKills: (c: Omit<CrashPointsRun, 'runs'>) => boolean = () => false,
): Promise<CrashPointsRun | undefined> {
  const spawnAdapter = requireSpawn(ctx);
  if (!straceAvailable()) return undefined;
  const enc = workingEncoding(ctx.handshake, ['json', 'yaml', 'md']);
  const fx = pointFixture(ctx.seed);
  const where = (path: string): { target: string; dirs: string[] } => {
    const target = realTarget(path);
    return { target, dirs: [...new Set([dirname(path), dirname(target)])] };
  };

  const calPath = place(ctx, 'calibration', fx, enc);
  const cal = await spawnAdapter();
  const calCwd = cwdOf(cal.pid);
  const tracer = await attachStrace(cal.pid, join(ctx.workspace.root, 'calibration.strace'));
  if (!tracer) {
    await cal.close();
    return undefined;
  }
  const res = await cal.call('apply_delta', applyParams(calPath, fx.delta));
  const trace = await tracer.stop();
  await cal.close();
  const postRevision = calibrated(calPath, fx, res);
  const { target, dirs } = where(calPath);
  const points = writePath(trace, target, dirs, calCwd);
  if (points.length === 0)
    inconclusive(
      "the traced apply changed the profile, but no write in the profile's directory was traced (strace cannot see this writer)",
    );
  const calibration = { points, risks: powerCutRisks(trace, target, dirs, calCwd) };
  const runs: PointRun[] = [];
  if (skipKills(calibration)) return { ...calibration, runs };

  // The next victim is spawned while the current one runs.
  let ahead: Promise<KillableAdapter> | undefined = prespawn(spawnAdapter);
  const take = (more: boolean): Promise<KillableAdapter> => {
    const victim = ahead ?? spawnAdapter();
    ahead = more ? prespawn(spawnAdapter) : undefined;
    return victim;
  };
  // Last step first: a writer that saves in several steps has done the most there, so a violation
  // shows in the first few runs; a conforming writer runs them all anyway.
  const order = [...points].reverse();
  for (const [i, point] of order.entries()) {
    // A thread's count of one syscall is exact for the calls only the write makes (open, fsync,
    // rename), but a runtime may interleave writes of its own (Node's main thread writes to an
    // eventfd now and then), so a kill on entry to the N-th `write` can come elsewhere. Such a
    // step is reached from the step before it instead, when that one is countable: strace pauses
    // the thread after that call returns and the victim is killed there, which leaves exactly what
    // a kill on entry to the step leaves. Otherwise the kill-run's trace says where the kill came,
    // and up to two more runs aim again with the count corrected.
    const before = points[point.step - 1];
    const anchor = NOISY.test(point.syscall) && before && before.tid === point.tid && !NOISY.test(before.syscall) ? before : undefined;
    let when = (anchor ?? point).when;
    let run: PointRun | undefined;
    for (let attempt = 0; attempt < 3 && run?.reached !== 'exact'; attempt++) {
      const victim = await take(i + 1 < order.length);
      const path = place(ctx, `point-${point.step}-${attempt}`, fx, enc);
      // A call of the adapter's own process (or a child process: its main thread, tid = pid) is
      // counted on that thread alone; a call of another thread is counted per thread over the
      // whole tree, so another thread may reach its own N-th call first.
      const index = tracer.pids.indexOf(point.tid);
      const thread = index >= 0 ? processThread(victim.pid, index) : undefined;
      const killer = await attachStrace(victim.pid, undefined, {
        inject: anchor ? { syscall: anchor.syscall, when, action: 'pause' } : { syscall: point.syscall, when },
        ...(thread !== undefined ? { thread } : {}),
      });
      if (!killer) {
        await victim.close();
        inconclusive(`strace traced the calibration apply but could not attach to the adapter for crash point ${point.label}`);
      }
      const applied = applyOrDie(victim, applyParams(path, fx.delta));
      let answered: boolean;
      let killTrace: string;
      if (anchor) {
        // Paused after the anchor (or the apply ended without reaching it): kill it there, then
        // its tracer, which would hold the dead process until the pause ran out.
        answered = await Promise.race([killer.paused.then(() => false), applied]);
        const dying = victim.kill('SIGKILL');
        killTrace = await killer.abort();
        await dying;
        await applied;
      } else {
        answered = await applied;
        killTrace = await killer.stop();
      }
      await victim.kill('SIGKILL');
      const at = where(path);
      const traced = writePath(killTrace, at.target, at.dirs, calCwd);
      const last = traced[traced.length - 1];
      const aim = anchor ?? point;
      const exact =
        !answered &&
        last?.step === aim.step &&
        last.syscall === aim.syscall &&
        last.touches === aim.touches &&
        (anchor ? !last.killed : last.killed === true);
      const c = classify(path, fx, postRevision);
      run = {
        step: point.step,
        label: point.label,
        reached: exact ? 'exact' : answered ? 'never' : 'elsewhere',
        cls: c.cls,
        detail: c.detail,
      };
      // Aim again: past the intended call, at its count in this run; short of it, one further.
      const done = traced.find((p) => p.step === aim.step && p.syscall === aim.syscall && !p.killed);
      when = done && !exact ? done.when : when + 1;
      if (stop(run)) break;
    }
    runs.push(run!);
    if (stop(run!)) break;
  }
  await ahead?.then((v) => v.close()).catch(() => undefined);
  return { ...calibration, runs };
}

/** The pid at `index` of the adapter's process tree (0: the adapter itself), as the tracer lists it. */
function processThread(pid: number, index: number): number | undefined {
  return index === 0 ? pid : processTree(pid)[index];
}

/**
 * The runs in which a kill landed (on the aimed step or elsewhere in the apply). A run whose kill
 * never came is an uninterrupted apply: it observed no crash, so it never counts towards a pass.
 */
function landed(run: CrashPointsRun): PointRun[] {
  return run.runs.filter((r) => r.reached !== 'never');
}

function pointsNote(run: CrashPointsRun): unknown {
  return [...run.runs]
    .sort((a, b) => a.step - b.step)
    .map(
      (r) =>
        `${r.step} ${r.label}: ${r.cls}${r.reached === 'exact' ? '' : ` (kill ${r.reached === 'never' ? 'never came' : 'came elsewhere'})`}`,
    );
}

// ------------------------------------------------------------------------------------------ fallback: random-time kills

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
  const spawnAdapter = requireSpawn(ctx);
  const enc = workingEncoding(ctx.handshake, ['json', 'yaml', 'md']);
  const fx = crashFixture(ctx.seed);

  const calPath = place(ctx, 'calibration', fx, enc);
  const cal = await spawnAdapter();
  const t0 = performance.now();
  const res = await cal.call('apply_delta', applyParams(calPath, fx.delta));
  const applyMs = performance.now() - t0;
  await cal.close();
  const postRevision = calibrated(calPath, fx, res);

  const random = rng(ctx.seed);
  const samples: CrashRun['samples'] = [];
  // The moment of the write drifts between processes (cold start, fsync latency), so the estimate
  // adapts: a late kill that still finds the old file moves it later, an early kill that already
  // finds the new one moves it earlier. The next victim is spawned while the current one runs.
  let estimate = applyMs;
  let next = prespawn(spawnAdapter);
  for (let i = 0; i < KILLS; i++) {
    const path = place(ctx, `kill-${i}`, fx, enc);
    const victim: KillableAdapter = await next;
    if (i + 1 < KILLS) next = prespawn(spawnAdapter);
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

// ------------------------------------------------------------------------------------------ the cases

const a5Crash: CaseDef = {
  id: 'L2-A5/killed-apply-never-partial',
  requirements: ['L2-A5'],
  clauses: ['L2-A5.atomic'],
  title: 'A SIGKILL on entry to each step of the write path of a 3-operation apply never leaves some operations applied',
  needs: { process: true },
  expectation: { method: 'strace crash points (fallback: random-time kills)', everyCompleteFile: ['pre', 'post'], partial: 0 },
  async run(ctx) {
    const run = await crashPoints(ctx, (r) => r.cls === 'partial');
    if (run) {
      ctx.note('method', 'strace-crash-points');
      ctx.note('crash-points', pointsNote(run));
      // Torn files are judged by L2-A12's crash case; here only complete documents count.
      const partial = run.runs.filter((r) => r.cls === 'partial');
      expectEqual(
        partial.map((r) => ({ killedAt: r.label, ...r.detail })),
        [],
        'complete profiles with only some of the operations applied',
      );
      if (!landed(run).some((r) => r.cls === 'pre' || r.cls === 'post'))
        inconclusive('no kill landed on the write path and left a complete profile to judge');
      return;
    }
    ctx.note('method', 'random-time-kills (strace unavailable)');
    const loop = await crashLoop(ctx);
    const t = tally(loop.samples);
    ctx.note('kills', { ...t, applyMs: Math.round(loop.applyMs) });
    const partial = loop.samples.filter((s) => s.cls === 'partial');
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
  clauses: ['L2-A12.temp-same-directory', 'L2-A12.fsync', 'L2-A12.rename'],
  title:
    'A SIGKILL on entry to each step of the write path never leaves a torn, unparseable or invalid profile, nor could a power cut there',
  needs: { process: true },
  expectation: {
    method: 'strace crash points (fallback: random-time kills, which cannot pass)',
    everyFile: 'parses, validates, loses no untouched data',
    torn: 0,
    powerCutRisks: [],
  },
  async run(ctx) {
    const run = await crashPoints(
      ctx,
      (r) => r.cls === 'torn',
      (c) => c.risks.length > 0,
    );
    if (run) {
      ctx.note('method', 'strace-crash-points');
      ctx.note('crash-points', pointsNote(run));
      // A kill only shows what the page cache holds; what a power cut could leave follows from the trace.
      expectEqual(
        run.risks.map((r) => ({ after: r.label, why: r.why })),
        [],
        'steps of the write path after which a power cut could leave a torn profile',
      );
      const torn = run.runs.filter((r) => r.cls === 'torn');
      expectEqual(
        torn.map((r) => ({ killedAt: r.label, ...r.detail })),
        [],
        'torn profile files after a kill',
      );
      if (landed(run).length === 0) inconclusive('no kill landed on the write path, so no crash point was observed');
      return;
    }
    ctx.note('method', 'random-time-kills (strace unavailable)');
    const loop = await crashLoop(ctx);
    const t = tally(loop.samples);
    ctx.note('kills', { ...t, applyMs: Math.round(loop.applyMs) });
    const torn = loop.samples.filter((s) => s.cls === 'torn');
    expectEqual(
      torn.map((s) => ({ delayMs: s.delayMs, ...s.detail })),
      [],
      'torn profile files after a kill',
    );
    // No kill can show that the temporary file was fsync-ed before the rename: a writer that never
    // fsyncs survives every kill. Without syscall evidence this case can fail a writer, never pass one.
    inconclusive('without strace no kill can show that the new file was fsync-ed before the rename; no kill found a torn file');
  },
};

// ------------------------------------------------------------------------------------------ A12 write path

/**
 * Observe one write of the profile at `path` by `act` (on a spawned adapter under strace; when
 * strace cannot attach, with directory events, which can fail a writer but never pass one) and judge its path. `act` returns the
 * path it wrote (write_back says where) and whether the write happened at all.
 */
async function observeWrite(
  ctx: CaseContext,
  path: string,
  act: (rpc: AdapterRpc) => Promise<{ wrote: boolean; outcome: string; path: string }>,
): Promise<void> {
  let verdict: WriteVerdict;
  let done: { wrote: boolean; outcome: string; path: string };
  const spawned = ctx.spawnAdapter ? await ctx.spawnAdapter() : undefined;
  try {
    const tracer = spawned ? await attachStrace(spawned.pid, join(ctx.workspace.root, 'write-path.strace')) : undefined;
    if (spawned && tracer) {
      done = await act(spawned);
      verdict = judgeStrace(await tracer.stop(), realTarget(done.path), cwdOf(spawned.pid));
    } else {
      const watcher = watchDirectory(realTarget(path));
      done = await act(spawned ?? ctx.adapter);
      verdict = await watcher.stop();
    }
  } finally {
    await spawned?.close();
  }
  ctx.note('write-evidence', verdict.kind);
  ctx.note('write-observed', verdict.observed);
  if (!done.wrote) inconclusive(`nothing was written (outcome ${done.outcome}), so no write was observed`);
  expectEqual(verdict.problems, [], `write path (${verdict.kind} evidence)`);
  // Directory events show a rename, never an fsync: they can fail a writer, not pass one.
  if (verdict.kind !== 'strace') inconclusive('without strace the fsync of the new file before the rename cannot be observed');
}

const WRITE_PATH = {
  strace: ['create temp in same dir', 'write', 'fsync|fdatasync', 'rename over target'],
  fsWatchFallback: ['inode changes', 'temp name appears and goes', 'can fail, never pass (fsync unobservable)'],
};

const a12Path: CaseDef = {
  id: 'L2-A12/write-path-temp-fsync-rename',
  requirements: ['L2-A12'],
  clauses: ['L2-A12.temp-same-directory', 'L2-A12.fsync', 'L2-A12.rename'],
  title: 'apply_delta replaces the profile by a temporary file in its directory that was written and fsync-ed, then renamed over it',
  needs: { process: true },
  expectation: WRITE_PATH,
  async run(ctx) {
    const enc = workingEncoding(ctx.handshake);
    const fx = crashFixture(ctx.seed, 200, 10, 10);
    const path = place(ctx, 'write-path', fx, enc);
    await observeWrite(ctx, path, async (rpc) => {
      const res = await rpc.call('apply_delta', applyParams(path, fx.delta));
      return { wrote: res.outcome === 'applied', outcome: res.outcome, path };
    });
  },
};

const a12WriteBack: CaseDef = {
  id: 'L2-A12/write-back-temp-fsync-rename',
  requirements: ['L2-A12'],
  clauses: ['L2-A12.temp-same-directory', 'L2-A12.fsync', 'L2-A12.rename'],
  title:
    'write_back (the round-trip writer) replaces the profile by a temporary file in its directory that was written and fsync-ed, then renamed over it',
  needs: { process: true },
  expectation: WRITE_PATH,
  async run(ctx) {
    const enc = workingEncoding(ctx.handshake);
    const path = place(ctx, 'write-back', crashFixture(ctx.seed, 50, 0, 0), enc);
    await observeWrite(ctx, path, async (rpc) => {
      const res = await rpc.call('write_back', { path });
      return isRefused(res) ? { wrote: false, outcome: 'refused', path } : { wrote: true, outcome: 'written', path: res.path };
    });
  },
};

// ------------------------------------------------------------------------------------------ races (T8)

/**
 * Rounds per race case: the fewest that catch every race mutant on every run. Measured by
 * `npm run bench -- races` (bench/races.ts, 50 runs per mutant and round count, two spawned
 * adapters a run): one round catches blind-write-on-conflict 50/50 (the profile lock orders the
 * writers, so the second always meets a stale revision) and passes the reference 50/50; a second
 * round adds nothing but another apply pair. (Was 6.)
 */
export const RACE_ROUNDS = 1;

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
  // Writer B's text is longer than A's: two in-place writes that interleave (truncate A, truncate B,
  // write B, write A) leave A's document followed by the tail of B's, a torn file. With texts of one
  // length the same interleaving would leave one writer's whole document.
  const rewrite = (who: 'A' | 'B'): string =>
    who === 'A' ? 'Writer A rewrote the first fact.' : 'Writer B rewrote the first fact, at greater length than writer A did.';
  const mk = (who: 'A' | 'B'): Record<string, unknown> => ({
    oap: '1.0',
    kind: 'AgentStateDelta',
    target: { name: CRASH_NAME, revision: 10 },
    session: { id: `sess-race-${who}`, outcome: 'completed' },
    operations: [
      { op: 'replace', path: '/state/facts/0/text', value: rewrite(who) },
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
    findEntry(read.doc, 'facts', 'fact-00000')?.text === rewrite(who);
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

/** `n` races of two writers on one profile; the writers are closed whatever happens. */
async function raceRounds(ctx: CaseContext, n: number): Promise<RaceRound[]> {
  const w = await writers(ctx);
  const rounds: RaceRound[] = [];
  try {
    for (let i = 0; i < n; i++) rounds.push(await race(ctx, w.pair, i));
  } finally {
    await w.close();
  }
  ctx.note('race-mode', w.mode);
  return rounds;
}

/** The race cases with `rounds` rounds each (the suite uses RACE_ROUNDS; bench/races.ts measures others). */
export function raceCases(count: number): [CaseDef, CaseDef] {
  const a3Race: CaseDef = {
    id: 'L2-A3/concurrent-writers-no-lost-update',
    requirements: ['L2-A3'],
    clauses: ['L2-A3.no-blind-write'],
    title: `Two writers applying deltas made against one revision at once (${count} rounds): neither is silently lost`,
    expectation: { everyClaimedWrite: 'its effect is on disk', loser: 'conflict/queued/rejected with no effect' },
    async run(ctx) {
      const rounds = await raceRounds(ctx, count);
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
    clauses: ['L2-A12.rename'],
    title: `Two writers on one profile at once (${count} rounds) never leave a half-written or invalid file`,
    expectation: { file: 'valid after every round' },
    async run(ctx) {
      const rounds = await raceRounds(ctx, count);
      if (!rounds.some((r) => r.claims.some(claimsWrite))) inconclusive('no writer ever applied its delta');
      const torn = rounds.map((r, i) => ({ round: i, file: r.file })).filter((r) => r.file !== 'valid');
      expectEqual(torn, [], 'profile files left invalid by concurrent writers');
    },
  };
  return [a3Race, a12Race];
}

export const crashCases: CaseDef[] = [a5Crash, a12Crash, a12Path, a12WriteBack, ...raceCases(RACE_ROUNDS)];

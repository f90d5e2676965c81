/**
 * Round-trip cost of the engine's adapter transport (StdioAdapterClient: NDJSON framing, id
 * matching, per-request timeout, response envelope check, zod params and result validation, with a
 * Node adapter built on the TypeScript SDK, which zod-checks params too) against a raw echo over the
 * same kind of pipe (a trivial Node process that writes every line back; the client only counts
 * newlines). Both sides pipeline a batch of requests, the way cases with concurrent calls and
 * `--jobs` do; the figure is the mean per request, same line, same batch, same number of round
 * trips. Target (the issue): engine ≤ 1.5x raw echo and ≤ 0.1 ms per request.
 *
 *   node dist/bench/engine.js [--batch 100] [--time 2000] [--rounds 10]
 *
 * Figures (2-vCPU Firecracker VM shared with other work, Node 20; µs per request, raw echo /
 * engine / ratio, typical of 3 interleaved before/after runs; spread between runs is ±15%, and at
 * batch 1 the whole figure can double when the VM's cross-CPU wake-ups are slow, raw echo
 * 16 → 45 µs, for both sides alike):
 *
 *                          batch 1              batch 10             batch 100
 *   before (per-request    17 / 28.5 / 1.7x     5.0 / 14 / 2.7x      2.9 / 7.5–10 / 2.6–3.3x
 *   setTimeout, corked writes, async dispatch)
 *   after                  17 / 26 / 1.6x       5.3 / 12–15 / 2.3x   2.6–3.4 / 4.3–6.3 / 1.6–1.9x
 *   before, pinned         16 / 26 / 1.65x      5.8 / 10 / 1.7x      4.7 / 7.9 / 1.7x
 *   after, pinned          15.6 / 23.4 / 1.5x   5.8 / 8.0 / 1.37x    4.5 / 6.3 / 1.4x
 *
 * Targets: ≤ 0.1 ms met everywhere; ≤ 1.5x met only pinned (batch 1 on the line) and missed
 * unpinned at batch 10/100. (pinned = `taskset -c 0`: all three processes on one CPU, which removes
 * the cross-CPU wake-up lottery and leaves the CPU work per round trip. Unpinned, each engine round
 * trip is two idle-to-busy wake-ups of the other process, while the per-line raw echo keeps both
 * busy; that, not JS, is most of the gap at batch 10.) The "coalesced echo" figure printed beside is
 * NOT the target's baseline: it is the pipe floor when the echo, like the engine, sends each
 * batch in one write each way, and shows how much of the raw echo's cost at batch 10/100 is one
 * syscall per line. What remains of the engine's cost is JSON.stringify/JSON.parse and the two zod
 * passes on each side (about 1.5–2 µs per side per request on this box), plus promise plumbing.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { once } from 'node:events';
import { pathToFileURL } from 'node:url';
import { StdioAdapterClient } from '../runner/engine/stdio-client.js';
import { handshake } from '../runner/engine/handshake.js';
import { fromRoot } from '../spec/package-root.js';
import { minimalProfile } from '../suites/support/index.js';

export interface EngineBenchResult {
  batch: number;
  rawPerRequestMs: number;
  /** Reference only: an echo that sends each batch in one write each way (not the target's baseline). */
  rawCoalescedPerRequestMs: number;
  enginePerRequestMs: number;
  ratio: number;
  targets: { ratio: 1.5; perRequestMs: 0.1 };
  met: { ratio: boolean; perRequestMs: boolean };
}

/**
 * The raw baseline: a trivial Node process that writes each line back as its own write, and a
 * client that writes each request as its own write and counts newlines. No JSON on either side.
 * Note the engine does better than one write per message: the client sends the requests issued in
 * one tick in one write and the SDK answers the responses finished in one tick in one write, so at
 * batch 10/100 this baseline pays syscalls the engine does not. See COALESCED_ECHO.
 */
const ECHO = `let buf = ''; process.stdin.setEncoding('utf8'); process.stdin.on('data', (d) => { buf += d; let i; while ((i = buf.indexOf('\\n')) !== -1) { process.stdout.write(buf.slice(0, i + 1)); buf = buf.slice(i + 1); } });`;

/** For reference only (not the target's baseline): the echo writing every complete line of a chunk back in one write. */
const COALESCED_ECHO = `let buf = ''; process.stdin.setEncoding('utf8'); process.stdin.on('data', (d) => { buf += d; const i = buf.lastIndexOf('\\n'); if (i !== -1) { process.stdout.write(buf.slice(0, i + 1)); buf = buf.slice(i + 1); } });`;

function benchAdapterSource(): string {
  const sdk = pathToFileURL(fromRoot('dist', 'sdk', 'ts', 'index.js')).href;
  return `import { defineAdapter, serveStdio } from ${JSON.stringify(sdk)};
await serveStdio(defineAdapter({
  initialize: () => ({ protocol_version: '1.0', implementation: { name: 'bench', version: '1', language: 'typescript' }, level: 1, encodings: ['json'], discovery_roots: ['project'], unimplemented: [] }),
  validate: () => ({ valid: true, kind: 'AgentProfile', errors: [], warnings: [] }),
}));`;
}

class RawEcho {
  private waiting = 0;
  private done: (() => void) | undefined;
  constructor(readonly child: ChildProcessByStdio<Writable, Readable, null>) {
    child.stdout.on('data', (chunk: Buffer) => {
      let n = 0;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) n++;
      this.waiting -= n;
      if (this.waiting <= 0 && this.done) {
        const d = this.done;
        this.done = undefined;
        d();
      }
    });
  }
  roundTrip(line: string, count: number): Promise<void> {
    this.waiting = count;
    const p = new Promise<void>((r) => (this.done = r));
    for (let i = 0; i < count; i++) this.child.stdin.write(line);
    return p;
  }
  /** The batch in one write (the coalesced reference). */
  roundTripCoalesced(lines: string, count: number): Promise<void> {
    this.waiting = count;
    const p = new Promise<void>((r) => (this.done = r));
    this.child.stdin.write(lines);
    return p;
  }
}

/** Run `task` back to back for about `ms` milliseconds; mean milliseconds per call. */
async function timeLoop(task: () => Promise<void>, ms: number): Promise<number> {
  const budget = BigInt(Math.round(ms * 1e6));
  const t0 = process.hrtime.bigint();
  let n = 0;
  let now = t0;
  do {
    await task();
    n++;
    now = process.hrtime.bigint();
  } while (now - t0 < budget);
  return Number(now - t0) / 1e6 / n;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export async function benchEngine(opts: { batch?: number; timeMs?: number; rounds?: number } = {}): Promise<EngineBenchResult> {
  const batch = opts.batch ?? 100;
  const rounds = opts.rounds ?? 10;
  const params = { document: { content: JSON.stringify(minimalProfile('bench')), encoding: 'json' as const } };
  const requestLine = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'validate', params })}\n`;

  const echoChild = spawn(process.execPath, ['-e', ECHO], { stdio: ['pipe', 'pipe', 'inherit'] });
  const echo = new RawEcho(echoChild);
  const coalescedChild = spawn(process.execPath, ['-e', COALESCED_ECHO], { stdio: ['pipe', 'pipe', 'inherit'] });
  const coalesced = new RawEcho(coalescedChild);
  const batchLines = requestLine.repeat(batch);
  const client = await StdioAdapterClient.start({
    argv: [process.execPath, '--input-type=module', '-e', benchAdapterSource()],
    env: { PATH: process.env.PATH ?? '' },
    timeoutMs: 30_000,
  });
  try {
    await handshake(client);
    const raw = (): Promise<void> => echo.roundTrip(requestLine, batch);
    const rawCoalesced = (): Promise<void> => coalesced.roundTripCoalesced(batchLines, batch);
    const engine = async (): Promise<void> => {
      await Promise.all(Array.from({ length: batch }, () => client.call('validate', params)));
    };
    // Warm both paths up (JIT on all three processes), then measure in interleaved rounds,
    // alternating which side goes first, so drift and noise from the machine hit both alike; the
    // median round is reported (a 2-core CI box has outliers of 2x in either direction).
    await timeLoop(raw, 300);
    await timeLoop(rawCoalesced, 300);
    await timeLoop(engine, 300);
    const slice = (opts.timeMs ?? 2000) / rounds;
    const rawMs: number[] = [];
    const engineMs: number[] = [];
    const coalescedMs: number[] = [];
    for (let r = 0; r < rounds; r++) {
      if (r % 2 === 0) {
        rawMs.push((await timeLoop(raw, slice)) / batch);
        engineMs.push((await timeLoop(engine, slice)) / batch);
      } else {
        engineMs.push((await timeLoop(engine, slice)) / batch);
        rawMs.push((await timeLoop(raw, slice)) / batch);
      }
      coalescedMs.push((await timeLoop(rawCoalesced, slice / 2)) / batch);
    }
    const rawPer = median(rawMs);
    const enginePer = median(engineMs);
    return {
      batch,
      rawPerRequestMs: rawPer,
      rawCoalescedPerRequestMs: median(coalescedMs),
      enginePerRequestMs: enginePer,
      ratio: enginePer / rawPer,
      targets: { ratio: 1.5, perRequestMs: 0.1 },
      met: { ratio: enginePer / rawPer <= 1.5, perRequestMs: enginePer <= 0.1 },
    };
  } finally {
    await client.close();
    const exited = (c: typeof echoChild): Promise<unknown> =>
      c.exitCode !== null || c.signalCode !== null ? Promise.resolve() : once(c, 'exit').catch(() => {});
    const exits = [exited(echoChild), exited(coalescedChild)];
    echoChild.kill();
    coalescedChild.kill();
    await Promise.all(exits);
  }
}

export function formatEngineBench(r: EngineBenchResult): string {
  return `batch ${r.batch}: raw echo ${(r.rawPerRequestMs * 1000).toFixed(1)} µs/request, engine ${(r.enginePerRequestMs * 1000).toFixed(1)} µs/request, ratio ${r.ratio.toFixed(2)}x (targets ≤1.5x: ${r.met.ratio ? 'met' : 'missed'}, ≤0.1 ms: ${r.met.perRequestMs ? 'met' : 'missed'}; for reference, coalesced echo ${(r.rawCoalescedPerRequestMs * 1000).toFixed(1)} µs/request)\n`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (name: string): number | undefined => {
    const i = process.argv.indexOf(name);
    return i > 0 ? Number(process.argv[i + 1]) : undefined;
  };
  const r = await benchEngine({
    ...(arg('--batch') ? { batch: arg('--batch')! } : {}),
    ...(arg('--time') ? { timeMs: arg('--time')! } : {}),
    ...(arg('--rounds') ? { rounds: arg('--rounds')! } : {}),
  });
  process.stdout.write(formatEngineBench(r));
}

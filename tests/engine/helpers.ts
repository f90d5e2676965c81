import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectTrue } from '../../suites/kit/assert.js';
import { minimalProfile } from '../../suites/support/index.js';
import type { CaseDef } from '../../suites/kit/types.js';
import type { RunConfig } from '../../runner/engine/config.js';
import { runEngine, type EngineHooks, type EngineResult } from '../../runner/engine/run.js';
import { finalizeRun } from '../../runner/finalize.js';
import { fromRoot } from '../../spec/package-root.js';
import type { CaseRecord, RunFooter, RunHeader } from '../../results/model.js';
import { readRunStream } from '../../results/run-stream.js';

/** The chaos adapter and `--process` run through dist/harnesses/host.js: build once if it is missing. */
export function ensureBuilt(): void {
  if (!existsSync(fromRoot('dist', 'harnesses', 'host.js')) || !existsSync(fromRoot('dist', 'runner', 'cli', 'main.js'))) {
    execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: fromRoot(), stdio: 'ignore' });
  }
  // The declarations of the package's entry points (exports ./sdk and ./reference).
  if (!existsSync(fromRoot('dist', 'sdk', 'ts', 'index.d.ts'))) {
    execFileSync('npx', ['tsc', '-p', 'tsconfig.sdk.json'], { cwd: fromRoot(), stdio: 'ignore' });
  }
}

/**
 * `count` synthetic Level 1 cases, each sending one validate request for a valid JSON profile
 * and checking the answer: a working adapter passes all of them.
 */
export function synthCases(count: number, prefix = 'T'): CaseDef[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `${prefix}-${String(i + 1).padStart(3, '0')}`,
    requirements: ['L1-P2'],
    clauses: ['L1-P2.validate'],
    title: `synthetic case ${i + 1}`,
    async run(ctx) {
      const content = JSON.stringify(minimalProfile(`synthetic-${i + 1}`));
      const r = await ctx.adapter.call('validate', { document: { content, encoding: 'json' } });
      expectTrue(r.valid, 'a minimal profile is valid');
    },
  }));
}

export function tempDir(prefix = 'oap-engine-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Alive and not a zombie (a zombie is dead; its parent just has not reaped it yet). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

export async function waitDead(pids: number[], ms = 3000): Promise<number[]> {
  const until = Date.now() + ms;
  let alive = pids.filter(isAlive);
  while (alive.length && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 25));
    alive = alive.filter(isAlive);
  }
  return alive;
}

export function readPidFile(path: string): number[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8').split('\n').filter(Boolean).map(Number);
}

/** The run stream as the one reader reads it (every line checked; a footer required). */
export function journalLines(path: string): { header: RunHeader; records: CaseRecord[]; footer: RunFooter } {
  const run = readRunStream(path);
  return { header: run.header, records: run.cases, footer: run.footer };
}

export interface TestRun extends EngineResult {
  pids: number[];
  /** The exit code the CLI would give this run. */
  exitCode: number;
}

/** `cases` through the engine: `extra` overrides the config's fields and sets hooks (signal, reporters). */
export async function runSynthetic(adapter: string, cases: CaseDef[], extra: Partial<RunConfig> & EngineHooks = {}): Promise<TestRun> {
  const pids: number[] = [];
  const { signal, reporters, ...config } = extra;
  const result = await runEngine(
    {
      adapter,
      out: tempDir('oap-engine-out-'),
      jobs: 1,
      timeoutMs: 5000,
      keepWorkspaces: false,
      resume: false,
      seed: 7,
      process: false,
      checkProtocol: false,
      fuzz: 0,
      // Synthetic cases build no document through the kit, and calibration's requests would move
      // the chaos adapter's request counts; the calibration tests turn it on.
      calibrate: false,
      ...config,
    },
    { cases, onSpawn: (pid) => pids.push(pid), ...(signal ? { signal } : {}), ...(reporters ? { reporters } : {}) },
  );
  const fin = await finalizeRun(result.report, result.outDir, {
    allowDirty: true,
    quiet: true,
    stdout: { write: () => true },
    stderr: { write: () => true },
  });
  return { ...result, pids, exitCode: result.report.footer.interrupted ? 130 : fin.exitCode };
}

export function statuses(run: EngineResult): Record<string, string> {
  return Object.fromEntries(run.report.cases.map((c) => [c.id, c.status]));
}

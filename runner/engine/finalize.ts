import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RunReport } from '../results/model.js';
import { fromRoot, packageRoot } from '../util/package-root.js';
import { CliError, EXIT } from '../cli/exit-codes.js';

export interface FinalizeOptions {
  formats?: string[];
  baseline?: string;
  sign?: string;
  allowDirty?: boolean;
}

type FinalizeRun = (report: RunReport, outDir: string, opts: FinalizeOptions) => Promise<{ exitCode: number }>;

/**
 * Hand the report to runner/results (verdicts, result.json, report.json, every format, exit
 * code). That module is loaded by path so that the engine still produces report.json, with a
 * plain exit code, in a build where it is absent; the fallback is noted in the footer-less sense
 * only: it writes report.json and exits 1 when any case failed, errored, crashed or timed out.
 */
export async function finalize(report: RunReport, outDir: string, opts: FinalizeOptions): Promise<{ exitCode: number; via: 'results' | 'fallback' }> {
  const mod = await importOptional<{ finalizeRun?: FinalizeRun }>(['runner', 'results', 'index.js']);
  if (typeof mod?.finalizeRun === 'function') {
    const { exitCode } = await mod.finalizeRun(report, outDir, opts);
    return { exitCode, via: 'results' };
  }
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
  const bad = report.cases.some((c) => c.status === 'fail' || c.status === 'error' || c.status === 'crash' || c.status === 'timeout');
  return { exitCode: bad ? EXIT.FAILURES : EXIT.OK, via: 'fallback' };
}

/**
 * The finalize inputs (--format, --baseline, --sign) checked before the run starts, with
 * runner/results/index.js when present: a bad one is a usage error (exit 2) on one line, not a
 * failure after every case has run.
 */
export async function checkFinalizeOptions(opts: FinalizeOptions): Promise<void> {
  const mod = await importOptional<{ prepareFinalize?: (o: FinalizeOptions) => unknown }>(['runner', 'results', 'index.js']);
  if (typeof mod?.prepareFinalize !== 'function') return;
  try {
    mod.prepareFinalize(opts);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (err instanceof Error && typeof code === 'string') throw new CliError(code, err.message, EXIT.USAGE);
    throw err;
  }
}

/** fixture_revision and fixture_dirty, from runner/results/revision.js when present, else git. */
export async function fixtureRevision(): Promise<{ revision: string; dirty: boolean }> {
  const mod = await importOptional<{ fixtureRevision?: () => unknown }>(['runner', 'results', 'revision.js']);
  if (typeof mod?.fixtureRevision === 'function') {
    const r = await mod.fixtureRevision();
    if (typeof r === 'string') return { revision: r, dirty: false };
    if (r && typeof r === 'object' && 'revision' in r) {
      const o = r as { revision: string; dirty?: boolean };
      return { revision: String(o.revision), dirty: !!o.dirty };
    }
  }
  const head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: packageRoot, encoding: 'utf8' });
  if (head.status !== 0) return { revision: 'unknown', dirty: false };
  const status = spawnSync('git', ['status', '--porcelain', '--', 'suites', 'fixtures'], { cwd: packageRoot, encoding: 'utf8' });
  return { revision: head.stdout.trim(), dirty: status.status === 0 && status.stdout.trim().length > 0 };
}

/**
 * Import a sibling module of the runner by path segments under the package root, trying the
 * variant that matches how we run (compiled .js under dist/, or source .ts under vitest).
 * Undefined when it does not exist; any other import error propagates.
 */
async function importOptional<T>(segments: string[]): Promise<T | undefined> {
  const runningFromDist = import.meta.url.includes('/dist/');
  const file = runningFromDist ? fromRoot('dist', ...segments) : fromRoot(...segments).replace(/\.js$/, '.ts');
  try {
    return (await import(pathToFileURL(file).href)) as T;
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'ENOENT' || /Cannot find module|Failed to load url|does not exist/i.test((err as Error).message)) {
      if ((err as Error).message.includes(file.split('/').pop()!)) return undefined;
    }
    throw err;
  }
}

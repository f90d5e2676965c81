/**
 * Shared by the benchmarks: run the built CLI as a child process and measure its wall time and its
 * peak resident memory (VmHWM of /proc/<pid>/status, sampled until it exits: the peak is kept by
 * the kernel, so a late sample still sees it; the main thread and every worker thread count).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Encoding } from '../spec/document/index.js';
import { fromRoot } from '../spec/package-root.js';

const CLI = fromRoot('bin', 'oap-conform.js');

export interface Measured {
  wallMs: number;
  /** Peak RSS in MB; undefined where /proc cannot be read. */
  peakRssMb: number | undefined;
  code: number | null;
  stdout: string;
}

function vmHwmKb(pid: number): number | undefined {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

export function runCli(args: string[], opts: { cwd?: string } = {}): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [CLI, ...args], { cwd: opts.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let peak: number | undefined;
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.resume();
    const sample = (): void => {
      const kb = child.pid ? vmHwmKb(child.pid) : undefined;
      if (kb !== undefined) peak = Math.max(peak ?? 0, kb);
    };
    const timer = setInterval(sample, 50);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearInterval(timer);
      resolve({ wallMs: performance.now() - t0, peakRssMb: peak === undefined ? undefined : peak / 1024, code, stdout });
    });
  });
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** One target line: name, figure, bound, ratio (figure / bound or baseline) and whether it is met. */
export interface Target {
  name: string;
  figure: string;
  target: string;
  ratio?: string;
  met: boolean;
  how: string;
}

export function formatTargets(targets: Target[]): string {
  return targets
    .map((t) => `${t.met ? 'met   ' : 'MISSED'}  ${t.name}: ${t.figure} (target ${t.target}${t.ratio ? `; ${t.ratio}` : ''}) [${t.how}]\n`)
    .join('');
}

/**
 * The n-th variant of a document, one no earlier call has parsed: parseDocument keeps its recent
 * results (spec/document/parse.ts), and a benchmark of parsing must time the parser, not that
 * cache. A comment (YAML, a Markdown body) or trailing whitespace (JSON: n in binary, as spaces and
 * tabs) makes the text unique without changing what it says.
 */
export function distinct(text: string, encoding: Encoding, n: number): string {
  if (encoding === 'json') return `${text}\n${n.toString(2).replace(/0/g, ' ').replace(/1/g, '\t')}`;
  return encoding === 'yaml' ? `${text}\n# ${n}\n` : `${text}\n<!-- ${n} -->\n`;
}

import type { CaseRecord, RunFooter } from '../runner/results/model.js';
import { oneLine } from './text.js';

/**
 * Live progress while cases run. On an interactive terminal one status line is redrawn in place
 * and only non-passing cases scroll; elsewhere (pipes, CI=true) every finished case is one plain
 * line, because carriage returns garble CI logs.
 */
export interface ProgressReporter {
  onCaseStart(c: { id: string; title?: string }): void;
  onCaseEnd(record: CaseRecord): void;
  onRunEnd(footer?: RunFooter): void;
}

export interface ProgressStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export function createProgressReporter(stream: ProgressStream, opts: { total?: number; env?: NodeJS.ProcessEnv } = {}): ProgressReporter {
  const env = opts.env ?? process.env;
  const live = stream.isTTY === true && env.CI !== 'true';
  return live ? new LiveProgress(stream, opts.total) : new PlainProgress(stream, opts.total);
}

const LABEL: Record<CaseRecord['status'], string> = {
  pass: 'PASS',
  fail: 'FAIL',
  error: 'ERROR',
  crash: 'CRASH',
  timeout: 'TIMEOUT',
  skipped: 'SKIP',
  'not-applicable': 'N/A',
};

function caseLine(r: CaseRecord): string {
  const detail = r.status !== 'pass' && r.message ? `: ${oneLine(r.message, 200)}` : '';
  return `${LABEL[r.status].padEnd(7)} ${r.id} (${Math.round(r.durationMs)} ms)${detail}`;
}

class PlainProgress implements ProgressReporter {
  private done = 0;
  constructor(
    private readonly stream: ProgressStream,
    private readonly total?: number,
  ) {}
  onCaseStart(): void {}
  onCaseEnd(record: CaseRecord): void {
    this.done++;
    const of = this.total ? `[${this.done}/${this.total}] ` : '';
    this.stream.write(`${of}${caseLine(record)}\n`);
  }
  onRunEnd(footer?: RunFooter): void {
    if (footer?.interrupted) this.stream.write('run interrupted\n');
  }
}

class LiveProgress implements ProgressReporter {
  private readonly running = new Set<string>();
  private readonly tally = { pass: 0, fail: 0, other: 0 };
  private done = 0;
  constructor(
    private readonly stream: ProgressStream,
    private readonly total?: number,
  ) {}
  onCaseStart(c: { id: string }): void {
    this.running.add(c.id);
    this.redraw();
  }
  onCaseEnd(record: CaseRecord): void {
    this.running.delete(record.id);
    this.done++;
    if (record.status === 'pass') this.tally.pass++;
    else if (record.status === 'fail') this.tally.fail++;
    else this.tally.other++;
    // Passing cases stay out of the scrollback; anything else is worth keeping on screen.
    if (record.status !== 'pass' && record.status !== 'not-applicable') this.stream.write(`\r\u001b[2K${caseLine(record)}\n`);
    this.redraw();
  }
  onRunEnd(footer?: RunFooter): void {
    this.stream.write(`\r\u001b[2K${footer?.interrupted ? 'run interrupted\n' : ''}`);
  }
  private redraw(): void {
    const of = this.total ? `${this.done}/${this.total}` : `${this.done}`;
    const current = [...this.running].at(-1);
    let line = `${of} done  pass ${this.tally.pass}  fail ${this.tally.fail}  other ${this.tally.other}${current ? `  running ${current}` : ''}`;
    const width = this.stream.columns ?? 100;
    if (line.length > width - 1) line = line.slice(0, width - 1);
    this.stream.write(`\r\u001b[2K${line}`);
  }
}

import type { CaseRecord, RunReport } from '../results/model.js';
import type { RunReporter, RunStart } from '../results/reporter.js';
import { oneLine } from './text.js';

/**
 * Live progress while cases run. On an interactive terminal one status line is redrawn in place
 * and only non-passing cases scroll; elsewhere (pipes, CI=true) every finished case is one plain
 * line, because carriage returns garble CI logs.
 */
export type ProgressReporter = Required<RunReporter>;

/** The run's first line: who is judged, at which level, and what a resume kept. */
function startLine(start: RunStart): string {
  const hs = start.header.adapter.handshake;
  const resumed = start.resumed > 0 ? `; resuming, ${start.resumed} case(s) already in the journal` : '';
  return oneLine(
    `adapter ${hs.implementation.name} ${hs.implementation.version} (protocol ${hs.protocol_version}, claims level ${hs.level}); judging level ${start.header.level}, ${start.toRun} case(s) to run${resumed}`,
    1000,
  );
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
  timeout: 'TIMEOUT',
  skipped: 'SKIPPED',
  inconclusive: 'INCONCLUSIVE',
  'not-applicable': 'N/A',
};

function caseLine(r: CaseRecord): string {
  const detail = r.status !== 'pass' ? `: ${oneLine(r.message, 200)}` : '';
  return `${LABEL[r.status].padEnd(12)} ${r.id} (${Math.round(r.durationMs)} ms)${detail}`;
}

class PlainProgress implements ProgressReporter {
  private done = 0;
  constructor(
    private readonly stream: ProgressStream,
    private total?: number,
  ) {}
  onRunStart(start: RunStart): void {
    this.total ??= start.toRun;
    this.stream.write(`${startLine(start)}\n`);
  }
  onCaseStart(): void {}
  onCaseEnd(record: CaseRecord): void {
    this.done++;
    const of = this.total ? `[${this.done}/${this.total}] ` : '';
    this.stream.write(`${of}${caseLine(record)}\n`);
  }
  onRunEnd(report: RunReport): void {
    if (report.footer?.interrupted) this.stream.write('run interrupted\n');
  }
}

class LiveProgress implements ProgressReporter {
  private readonly running = new Set<string>();
  private readonly tally = { pass: 0, fail: 0, other: 0 };
  private done = 0;
  constructor(
    private readonly stream: ProgressStream,
    private total?: number,
  ) {}
  onRunStart(start: RunStart): void {
    this.total ??= start.toRun;
    this.stream.write(`${startLine(start)}\n`);
  }
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
  onRunEnd(report: RunReport): void {
    this.stream.write(`\r\u001b[2K${report.footer?.interrupted ? 'run interrupted\n' : ''}`);
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

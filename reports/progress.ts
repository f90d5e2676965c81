import type { CaseRecord, RunReport } from '../results/model.js';
import type { RunReporter, RunStart } from '../results/reporter.js';
import { CASE_STATUSES } from '../results/record.js';
import { type Colour, durationText, oneLine, painter, wantsColour } from './text.js';

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

export function createProgressReporter(
  stream: ProgressStream,
  opts: { total?: number; env?: NodeJS.ProcessEnv; now?: () => number } = {},
): ProgressReporter {
  const env = opts.env ?? process.env;
  const live = stream.isTTY === true && env.CI !== 'true';
  return live
    ? new LiveProgress(stream, opts.total, wantsColour(stream, env), opts.now ?? Date.now)
    : new PlainProgress(stream, opts.total);
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
    if (report.footer.interrupted) this.stream.write('run interrupted\n');
  }
}

/** Status colours of the live line and its kept lines. */
const STATUS_COLOUR: Record<CaseRecord['status'], Colour> = {
  pass: 'green',
  fail: 'red',
  error: 'yellow',
  timeout: 'yellow',
  skipped: 'gray',
  inconclusive: 'magenta',
  'not-applicable': 'gray',
};

class LiveProgress implements ProgressReporter {
  private readonly running = new Set<string>();
  private readonly tally = Object.fromEntries(CASE_STATUSES.map((st) => [st, 0])) as Record<CaseRecord['status'], number>;
  private done = 0;
  private started = 0;
  private readonly paint: ReturnType<typeof painter>;
  constructor(
    private readonly stream: ProgressStream,
    private total: number | undefined,
    colour: boolean,
    private readonly now: () => number,
  ) {
    this.paint = painter(colour);
  }
  onRunStart(start: RunStart): void {
    this.total ??= start.toRun;
    this.started = this.now();
    this.stream.write(`${startLine(start)}\n`);
  }
  onCaseStart(c: { id: string }): void {
    this.running.add(c.id);
    this.redraw();
  }
  onCaseEnd(record: CaseRecord): void {
    this.running.delete(record.id);
    this.done++;
    this.tally[record.status]++;
    // Passing cases stay out of the scrollback; anything else is worth keeping on screen.
    if (record.status !== 'pass' && record.status !== 'not-applicable')
      this.stream.write(`\r\u001b[2K${this.paint(STATUS_COLOUR[record.status], caseLine(record))}\n`);
    this.redraw();
  }
  onRunEnd(report: RunReport): void {
    const took = durationText(this.now() - this.started);
    this.stream.write(
      `\r\u001b[2K${report.footer.interrupted ? `run interrupted after ${took}` : `ran ${this.done} case(s) in ${took}`}\n`,
    );
  }
  /** `8.4 s`, and once a case is done `8.4 s, about 1 min 10 s left`: the remaining cases at the pace so far. */
  private clock(): string {
    const elapsed = this.now() - this.started;
    const left = this.total && this.done > 0 && this.done < this.total ? (elapsed / this.done) * (this.total - this.done) : undefined;
    return `${durationText(elapsed)}${left !== undefined ? `, about ${durationText(left)} left` : ''}`;
  }
  /** `12/280 done  pass 10  fail 1  error 1  (8.4 s, about 3 min left)  running L1-I3/x`: every status seen so far, pass and fail always. */
  private redraw(): void {
    const of = this.total ? `${this.done}/${this.total}` : `${this.done}`;
    const counts = CASE_STATUSES.filter((st) => st === 'pass' || st === 'fail' || this.tally[st] > 0).map((st) => ({
      text: `${st} ${this.tally[st]}`,
      colour: this.tally[st] > 0 ? STATUS_COLOUR[st] : undefined,
    }));
    const current = [...this.running].at(-1);
    const width = (this.stream.columns ?? 100) - 1;
    let plain = `${of} done  ${counts.map((c) => c.text).join('  ')}  (${this.clock()})${current ? `  running ${current}` : ''}`;
    if (plain.length > width) plain = plain.slice(0, width);
    // Colour only the counts that fit; the width is measured on the text without escape codes.
    let painted = plain;
    for (const c of counts) if (c.colour && plain.includes(c.text)) painted = painted.replace(c.text, this.paint(c.colour, c.text));
    this.stream.write(`\r\u001b[2K${painted}`);
  }
}

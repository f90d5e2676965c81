/**
 * The run stream (results/run-stream.ts): one writer, one reader that checks every line against
 * its part of journal-line.schema.json and refuses a stream without a footer or with a case twice;
 * --resume's explicit `unfinished` option; report.json read through the same checks; and the header
 * comparison merge and --resume share.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import * as mergeCommand from '../../runner/cli/commands/merge.js';
import * as verifyCommand from '../../runner/cli/commands/verify.js';
import { finalizeRun } from '../../runner/finalize.js';
import { InputError } from '../../results/load.js';
import type { RunHeader, RunReport } from '../../results/model.js';
import {
  DuplicateCase,
  headerDifference,
  MissingFooter,
  parseRunReport,
  readRunStream,
  RunStreamWriter,
} from '../../results/run-stream.js';
import { makeCase, makeReport, sink, withFooter } from './make-report.js';
import { runCommand } from './run-command.js';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'oap-stream-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A stream written by the one writer: the report's header, its cases, its footer. */
function written(report: RunReport, opts: { footer?: boolean } = {}): string {
  const path = join(tmp(), 'journal.ndjson');
  const w = RunStreamWriter.create(path, report.header);
  for (const c of report.cases) w.case(c);
  if (opts.footer !== false) w.end(report.footer);
  return path;
}

const refusal = (fn: () => unknown): InputError => {
  try {
    fn();
  } catch (err) {
    if (err instanceof InputError) return err;
    throw err;
  }
  throw new Error('not refused');
};

describe('the run stream', () => {
  const report = makeReport({ level: 1 });

  it('reads back what the writer wrote: the header line, a line per case, the footer line', () => {
    const path = written(report);
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(report.cases.length + 2);
    expect(JSON.parse(lines.at(-1)!)).toEqual({ footer: report.footer });
    expect(readRunStream(path)).toEqual({ header: report.header, cases: report.cases, footer: report.footer });
  });

  it('refuses a stream without a footer, naming the problem in one line; --resume reads it as unfinished', () => {
    const path = written(report, { footer: false });
    const err = refusal(() => readRunStream(path));
    expect(err).toBeInstanceOf(MissingFooter);
    expect(err.code).toBe('missing-footer');
    expect(err.message).toMatch(/has no footer line: the run that wrote it never ended .*--resume/);
    const unfinished = readRunStream(path, { unfinished: true });
    expect(unfinished.footer).toBeUndefined();
    expect(unfinished.cases).toEqual(report.cases);
    expect(unfinished.resumeAt).toBe(readFileSync(path).length);
  });

  it('refuses a case recorded twice, even for --resume', () => {
    const path = written({ ...report, cases: [...report.cases, report.cases[0]!] });
    for (const read of [() => readRunStream(path), () => readRunStream(path, { unfinished: true })]) {
      const err = refusal(read);
      expect(err).toBeInstanceOf(DuplicateCase);
      expect(err.message).toContain(`records case ${report.cases[0]!.id} twice`);
    }
  });

  it('checks every line against its part of the schema, naming the line', () => {
    const path = written(report);
    const lines = readFileSync(path, 'utf8').split('\n');
    const bad = (n: number, line: string) => {
      const copy = [...lines];
      copy[n - 1] = line;
      writeFileSync(path, copy.join('\n'));
      return refusal(() => readRunStream(path));
    };
    expect(bad(1, '{"schema":"something else"}').message).toMatch(/line 1: not an oap-conform\.report\.v1 run header/);
    const { requirements: _dropped, ...noRequirements } = report.cases[0]!;
    expect(bad(3, JSON.stringify(noRequirements)).message).toMatch(/line 3: not a case record/);
    expect(bad(3, JSON.stringify({ ...report.cases[0], status: 'passed' })).code).toBe('bad-run-stream');
    expect(bad(2, '{"footer":{"complete":true}}').message).toMatch(/line 2: not a footer line/);
    expect(bad(3, 'not json').message).toMatch(/line 3: not JSON/);
    writeFileSync(path, `${lines.join('\n')}${lines[2]}\n`);
    expect(refusal(() => readRunStream(path)).message).toMatch(/a line after the footer/);
  });

  it('--resume drops a line torn mid-write and the writer goes on from the last whole case', () => {
    const path = written(report, { footer: false });
    const whole = readFileSync(path, 'utf8');
    writeFileSync(path, `${whole}${JSON.stringify(report.cases[0]).slice(0, 30)}`);
    expect(refusal(() => readRunStream(path)).code).toBe('bad-run-stream');
    const unfinished = readRunStream(path, { unfinished: true });
    expect(unfinished.resumeAt).toBe(Buffer.byteLength(whole));
    const extra = makeCase('L1-P1/extra', ['L1-P1']);
    const w = RunStreamWriter.resume(path, unfinished);
    w.case(extra);
    w.end(report.footer);
    expect(readRunStream(path).cases).toEqual([...report.cases, extra]);
  });

  it('an interrupted run is whole (it has its footer); resuming it replaces that footer', () => {
    const interrupted = withFooter(report, { complete: false, interrupted: true });
    const path = written(interrupted);
    expect(readRunStream(path).footer.interrupted).toBe(true);
    const unfinished = readRunStream(path, { unfinished: true });
    expect(unfinished.footer?.interrupted).toBe(true);
    const w = RunStreamWriter.resume(path, unfinished);
    w.end(report.footer);
    expect(readRunStream(path).footer).toEqual(report.footer);
  });
});

describe('report.json through the same checks', () => {
  it('refuses a report without a footer or with a case twice', () => {
    const { footer: _footer, ...truncated } = makeReport({ level: 1 });
    expect(refusal(() => parseRunReport(truncated, 'r.json'))).toBeInstanceOf(MissingFooter);
    const report = makeReport({ level: 1 });
    expect(refusal(() => parseRunReport({ ...report, cases: [...report.cases, report.cases[0]] }, 'r.json'))).toBeInstanceOf(DuplicateCase);
    expect(refusal(() => parseRunReport({ header: report.header }, 'r.json')).code).toBe('bad-report');
  });

  it('verify --report refuses a report the reader refuses (exit 2, one line)', async () => {
    const out = tmp();
    await finalizeRun(makeReport({ level: 1 }), out, { quiet: true, stdout: sink(), stderr: sink() });
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Partial<RunReport>;
    delete report.footer;
    writeFileSync(join(out, 'report.json'), JSON.stringify(report));
    const r = await runCommand(verifyCommand, ['verify', join(out, 'result.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^oap-conform: missing-footer: .*report\.json has no footer: /);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('merge reads a shard given as its run stream', async () => {
    const full = makeReport({ level: 1 });
    const shard = (index: number) =>
      withFooter({
        header: { ...full.header, options: { ...full.header.options, shard: { index, count: 2 } } },
        cases: full.cases.filter((_, j) => j % 2 === index - 1),
      });
    const out = tmp();
    const r = await runCommand(mergeCommand, ['merge', written(shard(1)), written(shard(2)), '--out', out, '--quiet']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const merged = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as RunReport;
    expect(merged.cases).toHaveLength(full.cases.length);
  });
});

describe('headerDifference: merge and --resume name the field that differs', () => {
  const header = makeReport({ level: 1 }).header;
  const changed = (change: (h: RunHeader) => void): RunHeader => {
    const h = structuredClone(header);
    change(h);
    return h;
  };

  it.each<[string, (h: RunHeader) => void, string, string]>([
    [
      'level',
      (h) => {
        h.level = 2;
      },
      '1',
      '2',
    ],
    [
      'seed',
      (h) => {
        h.seed = 7;
      },
      '42',
      '7',
    ],
    [
      'options.fuzz',
      (h) => {
        h.options.fuzz = 600;
      },
      '0',
      '600',
    ],
    [
      'options.timeout_ms',
      (h) => {
        h.options.timeout_ms = 500;
      },
      '10000',
      '500',
    ],
    [
      'options.adapter_env',
      (h) => {
        h.options.adapter_env = ['PYTHONPATH'];
      },
      'none',
      '["PYTHONPATH"]',
    ],
    [
      'options.filter',
      (h) => {
        h.options.filter = 'L1-*';
      },
      'none',
      'L1-*',
    ],
    [
      'adapter.handshake.implementation.version',
      (h) => {
        h.adapter.handshake.implementation.version = '9';
      },
      '1.2.3',
      '9',
    ],
    [
      'adapter.spec',
      (h) => {
        h.adapter.spec = 'builtin:other';
      },
      'builtin:test',
      'builtin:other',
    ],
  ])('%s', (field, change, was, now) => {
    expect(headerDifference(header, changed(change))).toEqual({ field, was, now });
  });

  it('when a run started and with how many workers do not make another run', () => {
    const h = changed((x) => {
      x.started_at = '2030-01-01T00:00:00.000Z';
      x.options.jobs = 4;
    });
    expect(headerDifference(header, h)).toBeUndefined();
    const shard = (index: number, count: number) =>
      changed((x) => {
        x.options.shard = { index, count };
      });
    expect(headerDifference(shard(1, 2), shard(2, 2), ['options.shard.index'])).toBeUndefined();
    expect(headerDifference(shard(1, 2), shard(2, 3), ['options.shard.index'])).toEqual({
      field: 'options.shard.count',
      was: '2',
      now: '3',
    });
  });
});

/**
 * The end of every run (and of `merge`): judge the report (results/), render the selected formats
 * (reports/) into the output directory, print the summary. This is composition, so it lives above
 * both; the exit code is the CLI's business (runner/exit-codes.ts).
 */
import type { KeyObject } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { prepareOutputDirectory } from '../results/make-directory.js';
import { join } from 'node:path';
import { FORMATS, renderTerminalSummary, selectFormats, type FormatName } from '../reports/index.js';
import { oneLine, wantsColour } from '../reports/text.js';
import { parseBaseline, type Baseline } from '../results/baseline.js';
import { readJsonFile } from '../results/load.js';
import type { RunReport } from '../results/model.js';
import { evaluateRun, type RunOutcome } from '../results/outcome.js';
import { ATTESTATION_FILE, signStatement, testResultStatement } from '../results/attestation.js';
import { loadPrivateKey, SIGNATURE_FILE, signResult } from '../results/signature.js';
import { exitCodeFor } from './exit-codes.js';

export interface FinalizeOptions {
  /** Format names (see reports/index.ts FORMATS); default all. result and report are always written. */
  formats?: string[] | undefined;
  /** Path of a baseline of expected failures: gate on regressions instead of on the claim. */
  baseline?: string | undefined;
  /** Path of an ed25519 private key (PEM): also write result.sig over the JCS of result.json and result.dsse.json (a DSSE-signed in-toto Statement). */
  sign?: string | undefined;
  /** Accept a dirty fixture checkout (the result notes it and is not certifying). */
  allowDirty?: boolean | undefined;
  /** No terminal summary on stdout (reasons still go to stderr). */
  quiet?: boolean | undefined;
  /** ANSI colours in the terminal summary (default: when stdout is a TTY and NO_COLOR is unset). */
  colour?: boolean | undefined;
  /** For reproducible output in tests. */
  now?: Date | undefined;
  stdout?: { write(s: string): unknown | undefined; isTTY?: boolean };
  stderr?: { write(s: string): unknown } | undefined;
}

/**
 * The input checks of finalizeRun (format names, baseline file, signing key), on their own so that
 * `run` can make them before any case runs: a bad flag must not cost a whole run. Throws errors
 * carrying a `code`.
 */
export function prepareFinalize(opts: Pick<FinalizeOptions, 'formats' | 'baseline' | 'sign'>): {
  formats: FormatName[];
  baseline: Baseline | undefined;
  key: KeyObject | undefined;
} {
  const formats = selectFormats(opts.formats);
  const baseline: Baseline | undefined = opts.baseline ? parseBaseline(readJsonFile(opts.baseline), opts.baseline) : undefined;
  const key = opts.sign ? loadPrivateKey(opts.sign) : undefined;
  return { formats, baseline, key };
}

/**
 * Judge the report, write the selected formats into outDir, print the summary, and return the
 * process exit code. Input problems (unreadable baseline or key, unknown format) throw errors
 * carrying a `code` before anything is written.
 */
export async function finalizeRun(
  report: RunReport,
  outDir: string,
  opts: FinalizeOptions = {},
): Promise<{ exitCode: number; result: RunOutcome['result']; attainedLevel: 0 | 1 | 2 | 3; outcome: RunOutcome }> {
  const { formats, baseline, key } = prepareFinalize(opts);

  const outcome = evaluateRun(report, { baseline, allowDirty: opts.allowDirty, now: opts.now });
  prepareOutputDirectory(outDir);
  // An interrupted run never overwrites a finished run's result.json, badge.json or the report
  // result.json is bound to: its partial outputs go beside them as result.interrupted.json, ...
  const interrupted = report.footer?.interrupted === true;
  const fileOf = (file: string) => (interrupted ? interruptedName(file) : file);
  const written = new Map(formats.map((name) => [name, FORMATS[name].render(outcome)] as const));
  for (const [name, text] of written) writeFileSync(join(outDir, fileOf(FORMATS[name].file)), text);
  if (key) {
    // The detached signature over the JCS form, and the same claim as a signed in-toto Statement.
    writeFileSync(join(outDir, fileOf(SIGNATURE_FILE)), `${JSON.stringify(signResult(outcome.result, key), null, 2)}\n`);
    const statement = testResultStatement(outcome, written.get('result') ?? '', written.get('report') ?? '');
    writeFileSync(join(outDir, fileOf(ATTESTATION_FILE)), `${JSON.stringify(signStatement(statement, key), null, 2)}\n`);
  }

  const stdout = opts.stdout ?? process.stdout;
  const stderr = opts.stderr ?? process.stderr;
  if (!opts.quiet) stdout.write(renderTerminalSummary(outcome, { colour: opts.colour ?? wantsColour(stdout) }));
  // Reasons can quote the adapter (its last fault): one line, no terminal control sequences.
  for (const reason of outcome.reasons) stderr.write(`oap-conform: ${reason.code}: ${oneLine(reason.message, 10_000)}\n`);
  for (const warning of outcome.baseline?.warnings ?? []) stderr.write(`oap-conform: warning: ${oneLine(warning, 10_000)}\n`);
  return { exitCode: exitCodeFor(outcome.ending), result: outcome.result, attainedLevel: outcome.attained, outcome };
}

/** `result.json` -> `result.interrupted.json`: where an interrupted run writes each output. */
export function interruptedName(file: string): string {
  const dot = file.lastIndexOf('.');
  return dot > 0 ? `${file.slice(0, dot)}.interrupted${file.slice(dot)}` : `${file}.interrupted`;
}

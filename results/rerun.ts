import type { CaseRecord, RunHeader } from './model.js';

/** The per-request timeout a run uses unless `--timeout` says otherwise (the engine's default). */
export const DEFAULT_TIMEOUT_MS = 10_000;

/** The command a rerun line starts with when the run did not record how it was invoked. */
const DEFAULT_COMMAND = 'oap-conform';

/**
 * How the runner was invoked, from its environment: `npx oap-conform` under npm exec (npx sets
 * npm_command=exec), else `oap-conform`. A rerun line repeats it, so it can be pasted as it is.
 */
export function invocationOf(env: NodeJS.ProcessEnv): string {
  return env['npm_command'] === 'exec' ? 'npx oap-conform' : DEFAULT_COMMAND;
}

/** Where a rerun writes, so reproducing one case never overwrites the full run's results. */
const RERUN_OUT_DIR = 'oap-conform-rerun';

/** A word as a POSIX shell reads it back unchanged: bare when safe, else single-quoted. */
export function shellQuote(word: string): string {
  return /^[\w./@:=+,%-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * One command line that reproduces exactly this case's verdict, starting with the command the run
 * was invoked as (`npx oap-conform`): `run --case ID` with the run's
 * adapter, its `--adapter-env` as given, level and seed (and every other option that can change
 * the case: fuzz budget, fixtures directory, timeout, --check-protocol, --process), or
 * `replay FILE` for a fuzz case that wrote a finding. The case seed derives from the run seed and
 * the case ID, so the same line gives the same inputs on any machine. Everything comes from the
 * header's options, which the runner records from its one RunConfig.
 */
export function rerunCommand(
  header: Pick<RunHeader, 'adapter' | 'level' | 'seed' | 'options' | 'invoked_as' | 'calibration'>,
  c: CaseRecord,
): string {
  const command = header.invoked_as ?? DEFAULT_COMMAND;
  const adapter =
    shellQuote(header.adapter.spec) + (header.options.adapter_env ?? []).map((given) => ` --adapter-env ${shellQuote(given)}`).join('');
  const timeout =
    (header.options.timeout_ms !== DEFAULT_TIMEOUT_MS ? ` --timeout ${header.options.timeout_ms}` : '') +
    (header.options.process ? ' --process' : '');
  // The case is rerun with the accommodations it was run with, never a new calibration's.
  const accommodate = header.calibration?.accommodations.length ? ` --accommodate ${header.calibration.accommodations.join(',')}` : '';
  const finding = c.status === 'fail' ? c.finding : undefined;
  if (finding) return `${command} replay ${shellQuote(finding)} --adapter ${adapter}${timeout}${accommodate}`;
  const parts = [
    `${command} run`,
    `--adapter ${adapter}`,
    `--level ${header.level}`,
    `--case ${shellQuote(c.id)}`,
    `--seed ${header.seed}`,
  ];
  // Fuzz cases are generated from the budget and the seed: the same budget gives the same case.
  if (c.origin === 'fuzz') parts.push(`--fuzz ${header.options.fuzz}`);
  if (header.options.fixtures_dir !== undefined) parts.push(`--fixtures ${shellQuote(header.options.fixtures_dir)}`);
  if (header.options.check_protocol) parts.push('--check-protocol');
  if (header.options.calibrate === false) parts.push('--no-calibrate');
  else if (accommodate) parts.push(accommodate.trim());
  return `${parts.join(' ')}${timeout} --out ${RERUN_OUT_DIR}`;
}

import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { DEFAULT_FUZZ_BUDGET } from '../../../fuzz/index.js';
import { createProgressReporter } from '../../../reports/progress.js';
import type { ConformanceResult } from '../../../results/conformance-result.js';
import { reproductionOf, reproductionWarnings, unreproduced } from '../../../results/reproduce.js';
import { invocationOf } from '../../../results/rerun.js';
import { adapterEnvSetting } from '../../engine/env.js';
import { parseIntIn } from '../../engine/options.js';
import { DEFAULT_TIMEOUT_MS, runEngine } from '../../engine/run.js';
import { CliError, EXIT } from '../../exit-codes.js';
import { finalizeRun } from '../../finalize.js';
import { oneLine } from '../../../reports/text.js';
import { ATTESTATION_FILE } from '../../../results/attestation.js';
import { SIGNATURE_FILE } from '../../../results/signature.js';
import { ADAPTER_ENV_HELP, collect, withInputErrors } from '../support.js';
import { InputError, readJsonFile } from '../../../results/load.js';
import { readRunReport } from '../../../results/run-stream.js';
import { schemaProblems } from '../../../results/schemas.js';
import { loadPublicKey } from '../../../results/signature.js';
import { verifyResult } from '../../../results/verify.js';

interface VerifyFlags {
  report?: string;
  key?: string;
  signature?: string;
  attestation?: string;
  allowDirty?: boolean;
  reproduce?: boolean;
  adapter?: string;
  adapterEnv?: string[];
  out: string;
  jobs: number;
  timeout: number;
  quiet?: boolean;
}

/**
 * `oap-conform verify result.json`: checks a result the way a certifier would. report.json and
 * result.sig beside result.json are used when present; --report / --signature override. The report
 * is read through the run-stream reader (schema, footer, no case twice). What was checked is said
 * plainly: with its report, the result is "verified"; without one, only its structure was checked,
 * "structurally valid; evidence not checked" (exit 0). `--reproduce --adapter SPEC` runs the claimed
 * level again against the harness and names every claimed-passed ID that does not pass (exit 1).
 * Exit 0 verified (or structurally valid), 1 the result does not support its claim, 2 unreadable
 * input (a report the reader refuses, too), 3 the adapter could not be run, 130 interrupted.
 */
export function register(program: Command): void {
  program
    .command('verify')
    .description(
      'verify a result.json: schema, required IDs for its level, empty failed, revision, report binding, signature; --reproduce re-runs the claim against the harness',
    )
    .argument('<result>', 'result.json to verify, or the result directory holding it')
    .option('--report <file>', 'the detailed report.json to recompute verdicts from (default: report.json beside the result)')
    .option('--key <pubkey>', 'ed25519 public key (PEM); the result must then carry a valid signature')
    .option('--signature <file>', `detached signature (default: ${SIGNATURE_FILE} beside the result)`)
    .option(
      '--attestation <file>',
      `DSSE envelope of the in-toto Statement, checked with --key (default: ${ATTESTATION_FILE} beside the result)`,
    )
    .option('--allow-dirty', 'accept a result produced from a dirty fixture checkout')
    .option('--reproduce', "run the claimed level again against --adapter at the claim's seed; every claimed-passed ID must pass")
    .option('--adapter <spec>', 'the harness to reproduce the claim with (builtin:NAME, a module, or a command line)')
    .option('--adapter-env <NAME[=VALUE]>', ADAPTER_ENV_HELP, collect, [])
    .option('--out <dir>', 'where the reproduction writes its run (journal, report.json, report.html)', 'oap-conform-reproduce')
    .option('--jobs <n>', 'adapter workers for the reproduction', parseIntIn('--jobs', 1, 256), 2)
    .option('--timeout <ms>', 'per-request timeout for the reproduction', parseIntIn('--timeout', 1, 3_600_000), DEFAULT_TIMEOUT_MS)
    .option('--quiet', 'no per-case progress lines during the reproduction')
    .action(async (resultPath: string, opts: VerifyFlags) => {
      if (opts.reproduce && !opts.adapter)
        throw new CliError('usage', '--reproduce needs --adapter SPEC: the harness whose claim is checked', EXIT.USAGE);
      if (opts.adapter && !opts.reproduce)
        throw new CliError('usage', '--adapter is for --reproduce (verify --reproduce --adapter SPEC)', EXIT.USAGE);
      const checked = await withInputErrors(() => {
        resultPath = resultFileOf(resultPath);
        const beside = (file: string) => {
          const p = join(dirname(resultPath), file);
          return existsSync(p) ? p : undefined;
        };
        const reportPath = opts.report ?? beside('report.json');
        const sigPath = opts.signature ?? beside(SIGNATURE_FILE);
        const attestationPath = opts.attestation ?? beside(ATTESTATION_FILE);
        const result = readJsonFile(resultPath);
        const outcome = verifyResult({
          result,
          report: reportPath ? readRunReport(reportPath) : undefined,
          signature: sigPath ? readJsonFile(sigPath) : undefined,
          attestation: attestationPath
            ? { envelope: readJsonFile(attestationPath), resultText: readFileSync(resultPath, 'utf8') }
            : undefined,
          publicKey: opts.key ? loadPublicKey(opts.key) : undefined,
          allowDirty: opts.allowDirty ?? false,
        });
        return { outcome, reportPath, attestationPath, result: result as ConformanceResult };
      });
      const { outcome, reportPath, attestationPath, result } = checked;
      for (const w of outcome.warnings) process.stderr.write(`oap-conform: warning: ${w}\n`);
      if (!outcome.ok) {
        // Problems quote the (untrusted) result: one line each, no control characters.
        for (const p of outcome.problems) process.stderr.write(`oap-conform: ${p.code}: ${oneLine(p.message, 10_000)}\n`);
        process.exitCode = EXIT.FAILURES;
        return;
      }
      const signed = opts.key ? `, signature${attestationPath ? ` and ${ATTESTATION_FILE}` : ''} valid` : '';
      if (opts.reproduce) {
        process.exitCode = await reproduce(result, resultPath, opts);
        return;
      }
      if (outcome.evidenceChecked) process.stdout.write(`verified: ${resultPath} (report ${reportPath})${signed}\n`);
      else
        process.stdout.write(
          `structurally valid; evidence not checked: ${resultPath}${signed} (no report.json: passed and failed were not recomputed from case records; give --report, or check the claim against the harness with --reproduce --adapter SPEC)\n`,
        );
      process.exitCode = EXIT.OK;
    });
}

/**
 * Run the claimed level again against the harness and hold every claimed-passed ID to it. The run
 * is a normal run in --out (its report.html shows each case); Ctrl-C stops it as `run` does.
 */
async function reproduce(result: ConformanceResult, resultPath: string, opts: VerifyFlags): Promise<number> {
  const { level, seed } = reproductionOf(result);
  const controller = new AbortController();
  const onSignal = (): void => controller.abort();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const run = await runEngine(
      {
        adapter: opts.adapter!,
        ...(opts.adapterEnv?.length ? { adapterEnv: adapterEnvSetting(opts.adapterEnv) } : {}),
        level,
        ...(seed !== undefined ? { seed } : {}),
        jobs: opts.jobs,
        timeoutMs: opts.timeout,
        fuzz: DEFAULT_FUZZ_BUDGET,
        process: false,
        checkProtocol: false,
        out: resolve(opts.out),
        keepWorkspaces: false,
        resume: false,
        invokedAs: invocationOf(process.env),
      },
      { signal: controller.signal, ...(opts.quiet ? {} : { reporters: [createProgressReporter(process.stderr)] }) },
    );
    const sink = { write: () => true };
    await finalizeRun(run.report, run.outDir, {
      formats: ['result', 'report', 'html'],
      allowDirty: true,
      quiet: true,
      stdout: sink,
      stderr: sink,
    });
    if (run.report.footer.interrupted) {
      process.stderr.write(`oap-conform: interrupted: the reproduction of ${resultPath} was stopped; nothing was concluded\n`);
      return EXIT.INTERRUPTED;
    }
    for (const w of reproductionWarnings(result, run.report)) process.stderr.write(`oap-conform: warning: ${w}\n`);
    const missing = unreproduced(result, run.report);
    const where = `level ${level}${seed !== undefined ? `, seed ${seed}` : ''}; run in ${run.outDir}`;
    if (missing.length === 0) {
      process.stdout.write(`reproduced: all ${result.passed.length} claimed-passed IDs of ${resultPath} pass again (${where})\n`);
      return EXIT.OK;
    }
    process.stdout.write(
      `not reproduced: ${missing.length} of ${result.passed.length} claimed-passed IDs of ${resultPath} do not pass (${where}):\n`,
    );
    for (const m of missing) process.stdout.write(`  ${m.id} ${m.verdict}${m.case ? ` (case ${m.case})` : ''}: ${oneLine(m.why, 300)}\n`);
    process.stderr.write(`oap-conform: not-reproduced: ${missing.map((m) => m.id).join(', ')}\n`);
    return EXIT.FAILURES;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/**
 * What verify was given, made into the result.json it wants: a result directory gives its
 * result.json; a report.json (or another oap-conform file) is refused with what it is and which
 * file to give instead.
 */
function resultFileOf(path: string): string {
  if (existsSync(path) && statSync(path).isDirectory()) {
    const inside = join(path, 'result.json');
    if (existsSync(inside)) return inside;
    throw new InputError(
      'not-a-result',
      `${path} is a directory without a result.json; verify wants the result.json a run wrote (oap.conformance-result.v1)`,
    );
  }
  const value = readJsonFile(path);
  if (schemaProblems('report', value).length === 0) {
    const sibling = join(dirname(path), 'result.json');
    throw new InputError(
      'not-a-result',
      `${path} is a report.json (oap-conform's detailed report); verify wants the result.json (oap.conformance-result.v1)${existsSync(sibling) ? `: oap-conform verify ${sibling} (the report beside it is used too)` : ''}`,
    );
  }
  const schema = (value as { schema?: unknown } | null)?.schema;
  if (typeof schema === 'string' && schema !== 'oap.conformance-result.v1')
    throw new InputError('not-a-result', `${path} is an ${schema} document; verify wants a result.json (oap.conformance-result.v1)`);
  return path;
}

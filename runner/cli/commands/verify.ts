import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Command } from 'commander';
import { EXIT } from '../../exit-codes.js';
import { oneLine } from '../../../reports/text.js';
import { SIGNATURE_FILE } from '../../../results/signature.js';
import { withInputErrors } from '../support.js';
import { InputError, readJsonFile } from '../../../results/load.js';
import { readRunReport } from '../../../results/run-stream.js';
import { schemaProblems } from '../../../results/schemas.js';
import { loadPublicKey } from '../../../results/signature.js';
import { verifyResult } from '../../../results/verify.js';

/**
 * `oap-conform verify result.json`: checks a result the way a certifier would. report.json and
 * result.sig beside result.json are used when present; --report / --signature override. The report
 * is read through the run-stream reader (schema, footer, no case twice).
 * Exit 0 verified, 1 the result does not support its claim, 2 unreadable input (a report the reader refuses, too).
 */
export function register(program: Command): void {
  program
    .command('verify')
    .description('verify a result.json: schema, required IDs for its level, empty failed, revision, report binding, signature')
    .argument('<result>', 'result.json to verify, or the result directory holding it')
    .option('--report <file>', 'the detailed report.json to recompute verdicts from (default: report.json beside the result)')
    .option('--key <pubkey>', 'ed25519 public key (PEM); the result must then carry a valid signature')
    .option('--signature <file>', `detached signature (default: ${SIGNATURE_FILE} beside the result)`)
    .option('--allow-dirty', 'accept a result produced from a dirty fixture checkout')
    .action(async (resultPath: string, opts: { report?: string; key?: string; signature?: string; allowDirty?: boolean }) => {
      await withInputErrors(() => {
        resultPath = resultFileOf(resultPath);
        const beside = (file: string) => {
          const p = join(dirname(resultPath), file);
          return existsSync(p) ? p : undefined;
        };
        const reportPath = opts.report ?? beside('report.json');
        const sigPath = opts.signature ?? beside(SIGNATURE_FILE);
        const outcome = verifyResult({
          result: readJsonFile(resultPath),
          report: reportPath ? readRunReport(reportPath) : undefined,
          signature: sigPath ? readJsonFile(sigPath) : undefined,
          publicKey: opts.key ? loadPublicKey(opts.key) : undefined,
          allowDirty: opts.allowDirty ?? false,
        });
        for (const w of outcome.warnings) process.stderr.write(`oap-conform: warning: ${w}\n`);
        if (outcome.ok) {
          process.stdout.write(
            `verified: ${resultPath}${reportPath ? ` (report ${reportPath})` : ''}${opts.key ? ', signature valid' : ''}\n`,
          );
          process.exitCode = EXIT.OK;
        } else {
          // Problems quote the (untrusted) result: one line each, no control characters.
          for (const p of outcome.problems) process.stderr.write(`oap-conform: ${p.code}: ${oneLine(p.message, 10_000)}\n`);
          process.exitCode = EXIT.FAILURES;
        }
      });
    });
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

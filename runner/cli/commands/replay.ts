import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { resolveAdapter } from '../../engine/adapter-spec.js';
import { connect, type Connected } from '../../engine/connect.js';
import { HandshakeError } from '../../engine/handshake.js';
import { parseAccommodations, parseIntIn } from '../../engine/options.js';
import type { Accommodation } from '../../../suites/kit/accommodations.js';
import { DEFAULT_TIMEOUT_MS } from '../../engine/run.js';
import { readFinding, replayCase } from '../../../fuzz/index.js';
import { runCase } from '../../engine/run-case.js';
import { CliError, EXIT } from '../../exit-codes.js';
import { ADAPTER_ENV_HELP, adapterEnvFlags, collect } from '../support.js';

interface ReplayFlags {
  adapter?: string;
  timeout: number;
  process?: boolean;
  adapterEnv?: string[];
  accommodate?: Accommodation[];
}

/**
 * `oap-conform replay FILE... --adapter X`: re-run fuzz findings (oap-conform.fuzz-finding.v1)
 * against an adapter. Each stored input is judged once by the property that produced it; the
 * exit code is 0 only when every finding now passes (the defect is gone), 1 otherwise.
 */
export function register(program: Command): void {
  program
    .command('replay')
    .description('re-run fuzz finding files against an adapter (exit 0 when all pass)')
    .argument('<files...>', 'finding files written by the fuzzer (<out>/findings/*.json)')
    .option('--adapter <spec>', 'builtin:NAME, a module, or a command line')
    .option('--adapter-env <NAME[=VALUE]>', ADAPTER_ENV_HELP, collect, [])
    .option('--timeout <ms>', 'per-request timeout', parseIntIn('--timeout', 1, 3_600_000), DEFAULT_TIMEOUT_MS)
    .option('--process', 'run builtin and module adapters as a process over stdio')
    .option(
      '--accommodate <list>',
      "the accommodations the finding's run used (comma-separated), as its rerun line gives them",
      parseAccommodations,
    )
    .action(async (files: string[], flags: ReplayFlags) => {
      if (!flags.adapter) throw new CliError('usage', 'missing --adapter SPEC', EXIT.USAGE);
      const extraEnv = adapterEnvFlags(flags.adapterEnv);
      const cases = files.map((f) => {
        try {
          return { file: f, finding: readFinding(f), def: replayCase(readFinding(f)) };
        } catch (err) {
          throw new CliError('bad-finding', (err as Error).message, EXIT.USAGE);
        }
      });
      const adapter = await resolveAdapter(flags.adapter, { forceProcess: !!flags.process });
      for (const w of adapter.warnings ?? []) process.stderr.write(`oap-conform: warning: ${w}\n`);
      const dir = mkdtempSync(join(tmpdir(), 'oap-replay-'));
      const out = (s: string): void => void process.stdout.write(`${s}\n`);
      try {
        let conn: Connected;
        try {
          conn = await connect(adapter, { timeoutMs: flags.timeout, dir, ...(extraEnv ? { extraEnv } : {}) });
        } catch (err) {
          if (err instanceof HandshakeError) throw new CliError(err.code, err.message, EXIT.ADAPTER);
          throw err;
        }
        let bad = 0;
        try {
          for (const c of cases) {
            const o = await runCase(c.def, {
              adapter: conn.rpc,
              handshake: conn.handshake,
              runSeed: c.finding.seed,
              accommodations: flags.accommodate ?? [],
            });
            if (o.status !== 'pass') bad++;
            const mark = o.status === 'pass' ? '✓' : '✗';
            out(
              `${mark} ${o.status} ${c.finding.case_id} [${c.finding.requirements.join(',')}] ${c.finding.property}${o.status !== 'pass' ? `: ${o.message}` : ''} (${c.file})`,
            );
          }
        } finally {
          await conn.close();
        }
        out(bad ? `replay: ${bad} of ${cases.length} findings still fail` : `replay: all ${cases.length} findings pass`);
        process.exitCode = bad ? EXIT.FAILURES : EXIT.OK;
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { resolveAdapter } from '../../engine/adapter-spec.js';
import { connect, type Connected } from '../../engine/connect.js';
import { HandshakeError } from '../../engine/handshake.js';
import { parseIntIn } from '../../engine/options.js';
import { ProtocolChecker } from '../../engine/protocol-check.js';
import { DEFAULT_TIMEOUT_MS } from '../../engine/run.js';
import { restartingRpc, smokeSteps } from '../../engine/smoke.js';
import { CliError, EXIT } from '../../exit-codes.js';
import { ADAPTER_ENV_HELP, adapterEnvFlags, collect } from '../support.js';

interface SmokeFlags {
  adapter?: string;
  timeout: number;
  process?: boolean;
  adapterEnv?: string[];
  checkProtocol?: boolean;
}

export function register(program: Command): void {
  program
    .command('smoke')
    .description('handshake plus a minimal accepted and rejected profile: the first check for adapter authors')
    .option('--adapter <spec>', 'builtin:NAME, a module, or a command line')
    .option('--adapter-env <NAME[=VALUE]>', ADAPTER_ENV_HELP, collect, [])
    .option('--timeout <ms>', 'per-request timeout', parseIntIn('--timeout', 1, 3_600_000), DEFAULT_TIMEOUT_MS)
    .option('--process', 'run builtin and module adapters as a process over stdio')
    .option('--check-protocol', 'validate every message against the protocol JSON Schemas')
    .action(async (flags: SmokeFlags) => {
      if (!flags.adapter) throw new CliError('usage', 'missing --adapter SPEC', EXIT.USAGE);
      const extraEnv = adapterEnvFlags(flags.adapterEnv);
      const adapter = await resolveAdapter(flags.adapter, { forceProcess: !!flags.process });
      for (const w of adapter.warnings ?? []) process.stderr.write(`oap-conform: warning: ${w}\n`);
      const out = (s: string): void => void process.stdout.write(`${s}\n`);
      const dir = mkdtempSync(join(tmpdir(), 'oap-smoke-worker-'));
      try {
        const checker = flags.checkProtocol ? new ProtocolChecker() : undefined;
        const start = () =>
          connect(adapter, { timeoutMs: flags.timeout, dir, ...(checker ? { checker } : {}), ...(extraEnv ? { extraEnv } : {}) });
        let conn: Connected;
        try {
          conn = await start();
        } catch (err) {
          if (err instanceof HandshakeError) {
            out(`✗ initialize: ${err.message}`);
            throw new CliError(err.code, err.message, EXIT.ADAPTER);
          }
          throw err;
        }
        const hs = conn.handshake;
        out(
          `✓ initialize: ${hs.implementation.name} ${hs.implementation.version} (${hs.implementation.language}), protocol ${hs.protocol_version}, level ${hs.level}, encodings ${hs.encodings.join(',')}, roots ${hs.discovery_roots.join(',')}${hs.unimplemented.length ? `, ${hs.unimplemented.length} unimplemented features declared` : ''}`,
        );
        // After a protocol error, a crash or a hang the adapter is restarted before the next step.
        const rpc = restartingRpc(conn, start, (why) => out(`↻ restarted the adapter after: ${why}`));
        const tails: string[] = [];
        try {
          const steps = await smokeSteps(rpc, hs, (s) => {
            out(`${s.ok ? '✓' : '✗'} ${s.name}: ${s.detail}`);
            if (!s.ok) tails.push(rpc.current().stderrTail());
          });
          const failed = steps.filter((s) => !s.ok).length;
          if (failed) {
            const tail = (rpc.current().stderrTail() || tails.find(Boolean) || '').trim();
            if (tail) out(`adapter stderr (last lines):\n${tail.split('\n').slice(-10).join('\n')}`);
          }
          out(failed ? `smoke: ${failed} of ${steps.length + 1} steps failed` : `smoke: all ${steps.length + 1} steps passed`);
          process.exitCode = failed ? EXIT.FAILURES : EXIT.OK;
        } finally {
          await rpc.current().close();
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
}

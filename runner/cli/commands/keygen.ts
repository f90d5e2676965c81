import { existsSync, writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { CliError } from '../../exit-codes.js';
import { generateSigningKeys } from '../../../results/signature.js';

/** `oap-conform keygen`: an ed25519 key pair for `run --sign` / `verify --key`. Never overwrites. */
export function register(program: Command): void {
  program
    .command('keygen')
    .description('write an ed25519 key pair for signing results (--sign) and verifying them (verify --key)')
    .option('--out <prefix>', 'file prefix: writes <prefix>.key (private) and <prefix>.pub', 'oap-conform-signing')
    .action((opts: { out: string }) => {
      const priv = `${opts.out}.key`;
      const pub = `${opts.out}.pub`;
      for (const f of [priv, pub]) if (existsSync(f)) throw new CliError('exists', `${f} already exists; not overwriting a key`);
      const { privatePem, publicPem } = generateSigningKeys();
      try {
        writeFileSync(priv, privatePem, { mode: 0o600 });
        writeFileSync(pub, publicPem);
      } catch (err) {
        throw new CliError('io', `cannot write the key pair at ${opts.out}: ${(err as Error).message}`);
      }
      process.stdout.write(`wrote ${priv} (keep secret) and ${pub}\n`);
    });
}

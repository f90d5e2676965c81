import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Command, CommanderError } from 'commander';
import { stripControl } from '../../reports/text.js';
import { packageVersion } from '../util/package-root.js';
import { CliError, EXIT } from './exit-codes.js';

/** Each module in ./commands exports `register(program)`; they are found at start so that
 * commands can be added without touching this file. */
export interface CommandModule {
  register(program: Command): void;
}

async function loadCommands(program: Command): Promise<void> {
  const dir = join(dirname(fileURLToPath(import.meta.url)), 'commands');
  const files = readdirSync(dir)
    .filter((f) => /\.(js|ts)$/.test(f) && !/\.(test|d)\.(js|ts)$/.test(f))
    .sort();
  for (const file of files) {
    const mod = (await import(pathToFileURL(join(dir, file)).href)) as Partial<CommandModule>;
    mod.register?.(program);
  }
}

export function reportFatal(err: unknown): number {
  if (err instanceof CliError) {
    process.stderr.write(`oap-conform: ${err.code}: ${oneLine(err.message)}\n`);
    return err.exitCode;
  }
  if (err instanceof CommanderError) {
    return err.exitCode === 0 ? EXIT.OK : EXIT.USAGE;
  }
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`oap-conform: internal-error: ${oneLine(message)}\n`);
  if (process.env.OAP_CONFORM_DEBUG && err instanceof Error) process.stderr.write(`${err.stack}\n`);
  return EXIT.USAGE;
}

function oneLine(s: string): string {
  // Messages can quote the adapter (its stderr, a bad line): no terminal control sequences either.
  return stripControl(s).replace(/\s*[\r\n]\s*/g, ' ').trim();
}

export async function main(argv: string[]): Promise<number> {
  const program = new Command();
  program
    .name('oap-conform')
    .description('Conformance suite and certification runner for OAP 1.0.1')
    .version(packageVersion())
    .exitOverride()
    .configureOutput({
      writeErr: (s) => process.stderr.write(s.startsWith('error:') ? `oap-conform: usage: ${s.slice(7)}` : s),
    });
  await loadCommands(program);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.OK;
  } catch (err) {
    return reportFatal(err);
  }
}

const isEntry = process.argv[1] && fileURLToPath(import.meta.url).replace(/\.ts$/, '.js') === process.argv[1].replace(/\.ts$/, '.js');
const launchedByBin = process.argv[1]?.endsWith('oap-conform.js') || process.argv[1]?.endsWith('oap-conform');
if (isEntry || launchedByBin) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      process.exitCode = reportFatal(err);
    },
  );
}

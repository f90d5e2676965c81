import { fileURLToPath } from 'node:url';
import { Command, CommanderError } from 'commander';
import { stripControl } from '../../reports/text.js';
import { packageVersion } from '../../spec/package-root.js';
import { CliError, EXIT } from '../exit-codes.js';
import * as baseline from './commands/baseline.js';
import * as compare from './commands/compare.js';
import * as diff from './commands/diff.js';
import * as init from './commands/init.js';
import * as keygen from './commands/keygen.js';
import * as list from './commands/list.js';
import * as merge from './commands/merge.js';
import * as replay from './commands/replay.js';
import * as run from './commands/run.js';
import * as smoke from './commands/smoke.js';
import * as validate from './commands/validate.js';
import * as verify from './commands/verify.js';
import type { CliEmbedding } from './embedding.js';

/** Every command, in `--help` order. */
const COMMANDS: ReadonlyArray<(program: Command, embed: CliEmbedding) => void> = [
  run.register,
  smoke.register,
  validate.register,
  list.register,
  init.register,
  replay.register,
  merge.register,
  verify.register,
  diff.register,
  compare.register,
  baseline.register,
  keygen.register,
];

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
  return stripControl(s)
    .replace(/\s*[\r\n]\s*/g, ' ')
    .trim();
}

/** Run the CLI on `argv` (without node and the script); resolves to the exit code. */
export async function main(argv: string[], embed: CliEmbedding = {}): Promise<number> {
  const program = new Command();
  program
    .name('oap-conform')
    .description('Conformance suite and certification runner for OAP 1.0.1')
    .version(packageVersion())
    .exitOverride()
    .configureOutput({
      writeErr: (s) => process.stderr.write(s.startsWith('error:') ? `oap-conform: usage: ${s.slice(7)}` : s),
    });
  for (const register of COMMANDS) register(program, embed);
  try {
    // `run` is the default command, so commander would read a mistyped command as an argument of
    // run ("too many arguments for 'run'"): a first word that is no command is named as such.
    const first = argv[0];
    const names = program.commands.map((c) => c.name());
    if (first !== undefined && !first.startsWith('-') && first !== 'help' && !names.includes(first)) {
      const near = names.filter((n) => n.startsWith(first.slice(0, 2)) || first.startsWith(n.slice(0, 3)));
      throw new CliError(
        'unknown-command',
        `unknown command "${first}"${near.length ? ` (did you mean ${near.join(' or ')}?)` : ''}; commands: ${names.join(', ')} (oap-conform --help)`,
        EXIT.USAGE,
      );
    }
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

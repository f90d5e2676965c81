import { fileURLToPath } from 'node:url';
import { Command, CommanderError } from 'commander';
import { stripControl } from '../../reports/text.js';
import { packageVersion } from '../../spec/package-root.js';
import { EngineError } from '../engine/errors.js';
import { CliError, EXIT, exitCodeForEngineError } from '../exit-codes.js';
import type { CliEmbedding } from './embedding.js';

type Register = (program: Command, embed: CliEmbedding) => void;

/**
 * Every command, in help order, loaded on demand: `run` pulls in the engine, the whole suite and
 * the fuzzer (about 0.4 s of module loading), which `validate` or `verify` never need. A command
 * named first on the line is the only one loaded; anything else (the default `run` with options
 * first, `--help`, a typo) loads them all, so help and errors read as before.
 */
const COMMANDS: ReadonlyArray<[string, () => Promise<{ register: Register }>]> = [
  ['run', () => import('./commands/run.js')],
  ['smoke', () => import('./commands/smoke.js')],
  ['validate', () => import('./commands/validate.js')],
  ['list', () => import('./commands/list.js')],
  ['init', () => import('./commands/init.js')],
  ['replay', () => import('./commands/replay.js')],
  ['merge', () => import('./commands/merge.js')],
  ['verify', () => import('./commands/verify.js')],
  ['diff', () => import('./commands/diff.js')],
  ['compare', () => import('./commands/compare.js')],
  ['baseline', () => import('./commands/baseline.js')],
  ['keygen', () => import('./commands/keygen.js')],
];

export function reportFatal(err: unknown): number {
  if (err instanceof CliError) {
    process.stderr.write(`oap-conform: ${err.code}: ${oneLine(err.message)}\n`);
    return err.exitCode;
  }
  if (err instanceof EngineError) {
    process.stderr.write(`oap-conform: ${err.code}: ${oneLine(err.message)}\n`);
    return exitCodeForEngineError(err.kind);
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
  const named = COMMANDS.find(([name]) => name === argv[0]);
  for (const [, load] of named ? [named] : COMMANDS) (await load()).register(program, embed);
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

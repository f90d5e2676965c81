import type { EngineErrorKind } from './engine/errors.js';

/** Documented process exit codes (README "Exit codes"). */
export const EXIT = {
  /** The run completed and the level claim holds (or the command succeeded). */
  OK: 0,
  /** Conformance failures: a required ID failed, a document was invalid, a regression was found. */
  FAILURES: 1,
  /** Usage or input error: bad flag, unreadable file, malformed fixture directory. */
  USAGE: 2,
  /** The adapter could not be run (spawn failure, handshake failure, protocol mismatch). */
  ADAPTER: 3,
  /** A bug in oap-conform's own checks hit some cases; never counted against the adapter. Report it. */
  SUITE_FAULT: 4,
  /** Interrupted (SIGINT/SIGTERM); partial results were written and marked incomplete. */
  INTERRUPTED: 130,
} as const;

/** The GitHub Action's own code (action.yml), never the CLI's: npx could not fetch or start the package. */
export const ACTION_NPX_FAILED = 5;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/**
 * An error the CLI reports as one line, `oap-conform: <code>: <message>`, then exits with `exitCode`.
 * Anything else that escapes a command is a bug and is still reported on one line (exit 2), never as
 * a stack trace unless OAP_CONFORM_DEBUG is set.
 */
export class CliError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly exitCode: ExitCode = EXIT.USAGE,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** The exit code for why the engine could not run (runner/engine/errors.ts): the engine itself knows none. */
export function exitCodeForEngineError(kind: EngineErrorKind): ExitCode {
  switch (kind) {
    case 'usage':
      return EXIT.USAGE;
    case 'adapter':
      return EXIT.ADAPTER;
    case 'interrupted':
      return EXIT.INTERRUPTED;
  }
}

/** The exit code for how a judged run ended (results/outcome.ts). */
export function exitCodeFor(ending: 'ok' | 'failures' | 'adapter-failed' | 'interrupted' | 'suite-fault'): ExitCode {
  switch (ending) {
    case 'ok':
      return EXIT.OK;
    case 'failures':
      return EXIT.FAILURES;
    case 'adapter-failed':
      return EXIT.ADAPTER;
    case 'interrupted':
      return EXIT.INTERRUPTED;
    case 'suite-fault':
      return EXIT.SUITE_FAULT;
  }
}

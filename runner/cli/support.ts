import { parseAdapterEnv } from '../engine/env.js';
import { EngineError } from '../engine/errors.js';
import { CliError, EXIT } from '../exit-codes.js';

/**
 * The results modules throw plain errors carrying a `code` (bad input, mismatched shards, bad key);
 * at the CLI boundary they become one-line CliErrors with exit code 2. Anything else is a bug and
 * is rethrown for main() to report.
 */
export async function withInputErrors<T>(fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof CliError || err instanceof EngineError) throw err;
    const code = (err as { code?: unknown }).code;
    if (err instanceof Error && typeof code === 'string' && !code.startsWith('ERR_')) throw new CliError(code, err.message, EXIT.USAGE);
    throw err;
  }
}

/** Commander collector for repeatable options. */
export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

export const DEFAULT_OUT_DIR = 'oap-conform-results';
export const DEFAULT_BASELINE_FILE = 'oap-conform-baseline.json';

/** The help text of `--adapter-env`, the same on every command that starts an adapter. */
export const ADAPTER_ENV_HELP =
  "add a variable to the adapter process environment (repeatable; NAME alone passes the runner's value; only PATH, LANG, LC_ALL, TZ and OAP_* pass otherwise)";

/** `--adapter-env` values as variables; a bad one is an AdapterEnvError (one line, exit 2). */
export function adapterEnvFlags(specs: readonly string[] | undefined): Record<string, string> | undefined {
  return specs?.length ? parseAdapterEnv(specs) : undefined;
}

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The adapter process environment is an allowlist, so nothing from the runner's environment
 * (tokens, proxies, the developer's HOME and its configuration) can leak into a certification run:
 *   - PATH, LANG, LC_ALL, TZ, SYSTEMROOT (Windows needs it to start processes), copied if set;
 *   - every OAP_* variable, copied (the documented way to pass settings to an adapter);
 *   - what `--adapter-env NAME[=VALUE]` names (`extra`: an adapter's source path, PYTHONPATH...);
 *   - HOME, XDG_CONFIG_HOME, XDG_DATA_HOME, XDG_CACHE_HOME, XDG_STATE_HOME and TMPDIR, set to
 *     fresh directories inside the worker's private temp dir (never overridable: they keep the
 *     adapter's writes inside the directories the side-effect checks observe).
 */
export const PASSTHROUGH_ENV = ['PATH', 'LANG', 'LC_ALL', 'TZ', 'SYSTEMROOT'] as const;
export const PASSTHROUGH_PREFIX = 'OAP_';
/** Set by the runner for every adapter process; `--adapter-env` cannot replace them. */
export const PRIVATE_DIR_ENV = ['HOME', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_CACHE_HOME', 'XDG_STATE_HOME', 'TMPDIR'] as const;

export class AdapterEnvError extends Error {
  readonly code = 'adapter-env';
}

/**
 * `--adapter-env` values (`NAME=VALUE`, or `NAME` to pass the runner's own value through) as the
 * variables they add. Throws AdapterEnvError (one line) for a malformed name, a NAME the runner
 * does not have, or a variable the runner sets itself.
 */
export function parseAdapterEnv(specs: readonly string[], source: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const spec of specs) {
    const eq = spec.indexOf('=');
    const name = eq === -1 ? spec : spec.slice(0, eq);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      throw new AdapterEnvError(`--adapter-env ${spec}: expected NAME or NAME=VALUE, with NAME made of letters, digits and _`);
    if ((PRIVATE_DIR_ENV as readonly string[]).includes(name))
      throw new AdapterEnvError(
        `--adapter-env ${name}: the runner points ${PRIVATE_DIR_ENV.join(', ')} at private per-worker directories; an adapter cannot replace them`,
      );
    const value = eq === -1 ? source[name] : spec.slice(eq + 1);
    if (value === undefined)
      throw new AdapterEnvError(`--adapter-env ${name}: ${name} is not set in the runner's environment (give a value: ${name}=VALUE)`);
    out[name] = value;
  }
  return out;
}

export function adapterEnv(
  workerDir: string,
  source: NodeJS.ProcessEnv = process.env,
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of PASSTHROUGH_ENV) {
    const v = source[key];
    if (v !== undefined) env[key] = v;
  }
  for (const [key, v] of Object.entries(source)) if (key.startsWith(PASSTHROUGH_PREFIX) && v !== undefined) env[key] = v;
  Object.assign(env, extra);
  const home = join(workerDir, 'home');
  const dirs = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    TMPDIR: join(workerDir, 'tmp'),
  };
  for (const [key, dir] of Object.entries(dirs)) {
    mkdirSync(dir, { recursive: true });
    env[key] = dir;
  }
  return env;
}

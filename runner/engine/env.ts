import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The adapter process environment is an allowlist, so nothing from the runner's environment
 * (tokens, proxies, the developer's HOME and its configuration) can leak into a certification run:
 *   - PATH, LANG, LC_ALL, TZ, SYSTEMROOT (Windows needs it to start processes), copied if set;
 *   - every OAP_* variable, copied (the documented way to pass settings to an adapter);
 *   - HOME, XDG_CONFIG_HOME, XDG_DATA_HOME, XDG_CACHE_HOME, XDG_STATE_HOME and TMPDIR, set to
 *     fresh directories inside the worker's private temp dir.
 */
export const PASSTHROUGH_ENV = ['PATH', 'LANG', 'LC_ALL', 'TZ', 'SYSTEMROOT'] as const;
export const PASSTHROUGH_PREFIX = 'OAP_';

export function adapterEnv(workerDir: string, source: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of PASSTHROUGH_ENV) {
    const v = source[key];
    if (v !== undefined) env[key] = v;
  }
  for (const [key, v] of Object.entries(source)) if (key.startsWith(PASSTHROUGH_PREFIX) && v !== undefined) env[key] = v;
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

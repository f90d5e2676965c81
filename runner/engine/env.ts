import { mkdirSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { EngineError } from './errors.js';

/**
 * The adapter process environment is an allowlist, so nothing from the runner's environment
 * (tokens, proxies, the developer's HOME and its configuration) can leak into a certification run:
 *   - PATH, LANG, LC_ALL, TZ, SYSTEMROOT (Windows needs it to start processes), copied if set;
 *   - every OAP_* variable, copied (the documented way to pass settings to an adapter);
 *   - what `--adapter-env NAME[=VALUE]` names (`extra`: an adapter's source path, PYTHONPATH...);
 *   - HOME, XDG_CONFIG_HOME, XDG_DATA_HOME, XDG_CACHE_HOME, XDG_STATE_HOME and TMPDIR, set to
 *     fresh directories inside the worker's private temp dir (never overridable: the worker
 *     re-points them at each case's own directories, see CaseHome, where the side-effect checks
 *     observe the adapter's writes).
 */
const PASSTHROUGH_ENV = ['PATH', 'LANG', 'LC_ALL', 'TZ', 'SYSTEMROOT'] as const;
const PASSTHROUGH_PREFIX = 'OAP_';
/** Set by the runner for every adapter process; `--adapter-env` cannot replace them. */
const PRIVATE_DIR_ENV = ['HOME', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_CACHE_HOME', 'XDG_STATE_HOME', 'TMPDIR'] as const;

/** A malformed or forbidden `--adapter-env` (a usage error: exit 2). */
export class AdapterEnvError extends EngineError {
  constructor(message: string) {
    super('usage', 'adapter-env', message);
    this.name = 'AdapterEnvError';
  }
}

/**
 * `--adapter-env` as given, which the run header records and a rerun line and --resume repeat
 * (`NAME` for a pass-through, whose value is read again; `NAME=VALUE` for a set value, recorded as
 * given), and the variables it adds to the adapter's environment.
 */
export interface AdapterEnvSetting {
  readonly given: readonly string[];
  readonly vars: Readonly<Record<string, string>>;
}

export function adapterEnvSetting(given: readonly string[], source: NodeJS.ProcessEnv = process.env): AdapterEnvSetting {
  return { given: [...given], vars: parseAdapterEnv(given, source) };
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

/** The XDG base directories below HOME, as adapterEnv and a case's home lay them out. */
const XDG_DIRS = {
  XDG_CONFIG_HOME: ['.config'],
  XDG_DATA_HOME: ['.local', 'share'],
  XDG_CACHE_HOME: ['.cache'],
  XDG_STATE_HOME: ['.local', 'state'],
} as const;

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
  const dirs: Record<string, string> = { HOME: home, TMPDIR: join(workerDir, 'tmp') };
  for (const [key, rel] of Object.entries(XDG_DIRS)) dirs[key] = join(home, ...rel);
  for (const [key, dir] of Object.entries(dirs)) {
    mkdirSync(dir, { recursive: true });
    env[key] = dir;
  }
  return env;
}

/**
 * The adapter's HOME, XDG dirs and TMPDIR, inside the running case's directory. An adapter process
 * serves many cases and its environment is fixed when it starts, so HOME names a symlink in the
 * worker's directory (`<worker>/home`, and `<worker>/tmp` for TMPDIR) that the worker points at
 * the running case's `<case>/home` and `<case>/tmp` before the case starts, and back at the
 * worker's idle directories when it ends (the adapter starts, shakes hands and waits between cases
 * there). A file the adapter writes into $XDG_CONFIG_HOME during a case therefore lands in that
 * case's snapshotted tree, where L1-I11 and L3-K1 look for side effects. Re-pointing costs two
 * symlink swaps a case; restarting the adapter per case would cost a process start.
 * (In-process adapters share the runner's own environment, which no case can re-point.)
 */
export class CaseHome {
  readonly env: Record<string, string>;
  private readonly links: { home: string; tmp: string };
  private readonly idle: { home: string; tmp: string };

  constructor(workerDir: string, source: NodeJS.ProcessEnv = process.env, extra: Readonly<Record<string, string>> = {}) {
    this.env = adapterEnv(join(workerDir, 'idle'), source, extra);
    this.idle = { home: this.env.HOME!, tmp: this.env.TMPDIR! };
    this.links = { home: join(workerDir, 'home'), tmp: join(workerDir, 'tmp') };
    this.env.HOME = this.links.home;
    this.env.TMPDIR = this.links.tmp;
    for (const [key, rel] of Object.entries(XDG_DIRS)) this.env[key] = join(this.links.home, ...rel);
    this.pointAt(undefined);
  }

  /** Point HOME and TMPDIR at a case's directories (created here if missing), or back at the idle ones. */
  pointAt(dirs: { home: string; tmp: string } | undefined): void {
    const target = dirs ?? this.idle;
    for (const rel of Object.values(XDG_DIRS)) mkdirSync(join(target.home, ...rel), { recursive: true });
    mkdirSync(target.tmp, { recursive: true });
    swapLink(this.links.home, target.home);
    swapLink(this.links.tmp, target.tmp);
  }
}

/** Replace the symlink at `link` by one to `target` in one rename, so it never dangles. */
function swapLink(link: string, target: string): void {
  const next = `${link}.next`;
  rmSync(next, { force: true });
  symlinkSync(target, next, 'junction');
  renameSync(next, link);
}

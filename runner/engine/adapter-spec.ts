import { existsSync, statSync } from 'node:fs';
import { dirname, extname, isAbsolute, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { resolveBuiltin, UnknownBuiltin, type BuiltinAdapter } from '../../harnesses/builtin.js';
import type { AdapterFactory } from '../../sdk/ts/types.js';
import { EngineError } from './errors.js';
import { fromRoot, packageRoot } from '../../spec/package-root.js';
import { shellWords, ShellWordsError } from './shell-words.js';

/**
 * How to run the adapter named by `--adapter SPEC`:
 *   builtin:NAME            shipped adapter; in-process unless it is process-only or --process
 *   ./adapter.js|.mjs|.ts   module whose default export is an AdapterFactory; in-process
 *   anything else           a command line, split with shellWords (no shell), spoken to over stdio
 * `processArgv` runs the same adapter as its own process (builtins and modules through
 * dist/harnesses/host.js); it is what `--process` and CaseContext.spawnAdapter use.
 */
export interface ResolvedAdapter {
  spec: string;
  kind: 'builtin' | 'module' | 'command';
  mode: 'in-process' | 'stdio';
  factory?: AdapterFactory;
  processArgv?: string[];
  /** Things the user should know before trusting the run (e.g. compiled JavaScript older than its TypeScript). */
  warnings?: string[];
}

const MODULE_EXT = new Set(['.js', '.mjs', '.cjs', '.ts', '.mts']);

/**
 * The host script that serves `target` (default: any). A builtin runs from the build's bundle of the
 * host where there is one (`npm run bundle:host`: a few files instead of some 300 modules), which
 * starts in about half the CPU (0.11 s instead of 0.23 s to its first answer on the development
 * machine), and a crash case spawns an adapter per crash point. A module adapter runs from the
 * compiled host: it imports `oap-conform/sdk` itself, and the SDK's classes it throws must be the
 * ones the host checks for, not a bundled copy.
 */
export function hostScript(target = ''): string | undefined {
  const bundled = target.startsWith('builtin:') ? [fromRoot('dist', 'harnesses', 'bundled', 'host.js')] : [];
  return [...bundled, fromRoot('dist', 'harnesses', 'host.js')].find((path) => existsSync(path));
}

function hostArgv(target: string): string[] | undefined {
  const host = hostScript(target);
  return host ? [process.execPath, host, target] : undefined;
}

/** The nearest ancestor directory holding a package.json or tsconfig.json (a TS project root). */
function projectRoot(from: string): string | undefined {
  let dir = from;
  for (;;) {
    if (existsSync(join(dir, 'package.json')) || existsSync(join(dir, 'tsconfig.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** A .ts module runs as its compiled .js: next to it, or under <project>/dist/ mirroring its path. */
function compiledModulePath(tsPath: string): string | undefined {
  const js = tsPath.replace(/\.m?ts$/, (m) => (m === '.mts' ? '.mjs' : '.js'));
  if (existsSync(js)) return js;
  const roots = [projectRoot(dirname(tsPath)), packageRoot].filter((r): r is string => !!r);
  for (const root of roots) {
    const rel = relative(root, js);
    if (rel.startsWith('..') || isAbsolute(rel)) continue;
    const candidate = join(root, 'dist', rel);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/**
 * A TypeScript adapter runs as its compiled JavaScript: when that is older than the source, the
 * run would judge yesterday's adapter. One line saying so and how to fix it; the run goes on.
 */
function staleCompiled(source: string, compiled: string): string | undefined {
  try {
    if (statSync(compiled).mtimeMs >= statSync(source).mtimeMs) return undefined;
  } catch {
    return undefined;
  }
  return `${relative(process.cwd(), compiled) || compiled} is older than ${relative(process.cwd(), source) || source}: the run uses the compiled file; recompile (npx tsc) to test your latest changes`;
}

async function importFactory(path: string): Promise<AdapterFactory> {
  let mod: { default?: unknown };
  try {
    mod = (await import(pathToFileURL(path).href)) as { default?: unknown };
  } catch (err) {
    throw new EngineError('adapter', 'adapter-module', `cannot import adapter module ${path}: ${(err as Error).message.split('\n')[0]}`);
  }
  if (typeof mod.default !== 'function') {
    throw new EngineError(
      'adapter',
      'adapter-module',
      `${path} has no default export adapter factory (to run a stdio adapter script, pass its command line, e.g. "node ${path}")`,
    );
  }
  return mod.default as AdapterFactory;
}

export async function resolveAdapter(spec: string, opts: { forceProcess?: boolean; cwd?: string } = {}): Promise<ResolvedAdapter> {
  const text = spec.trim();
  if (!text) throw new EngineError('usage', 'adapter-spec', '--adapter is empty');
  if (text.startsWith('builtin:')) {
    let builtin: BuiltinAdapter;
    try {
      builtin = await resolveBuiltin(text.slice('builtin:'.length));
    } catch (err) {
      if (err instanceof UnknownBuiltin) throw new EngineError('usage', 'adapter-spec', err.message);
      throw err;
    }
    const processArgv = hostArgv(text);
    if (builtin.mode === 'process-only' || opts.forceProcess) {
      if (!processArgv)
        throw new EngineError(
          'adapter',
          'adapter-host',
          `${text} runs as a process through dist/harnesses/host.js, which is not built (run npm run build)`,
        );
      return { spec: text, kind: 'builtin', mode: 'stdio', processArgv };
    }
    return { spec: text, kind: 'builtin', mode: 'in-process', factory: builtin.create, ...(processArgv ? { processArgv } : {}) };
  }
  const asPath = resolve(opts.cwd ?? process.cwd(), text);
  if (!/\s/.test(text) && MODULE_EXT.has(extname(text))) {
    if (!existsSync(asPath)) throw new EngineError('usage', 'adapter-spec', `adapter module ${text} not found`);
    let modulePath = asPath;
    if (/\.m?ts$/.test(asPath)) {
      const compiled = compiledModulePath(asPath);
      if (!compiled)
        throw new EngineError(
          'adapter',
          'adapter-module',
          `${text} is TypeScript and no compiled .js was found next to it or under dist/; compile it first (tsc) or pass the .js`,
        );
      modulePath = compiled;
    }
    const stale = modulePath !== asPath ? staleCompiled(asPath, modulePath) : undefined;
    const warnings = stale ? { warnings: [stale] } : {};
    const factory = await importFactory(modulePath);
    const processArgv = hostArgv(modulePath);
    if (opts.forceProcess) {
      if (!processArgv)
        throw new EngineError(
          'adapter',
          'adapter-host',
          'module adapters run as a process through dist/harnesses/host.js, which is not built',
        );
      return { spec: text, kind: 'module', mode: 'stdio', processArgv, ...warnings };
    }
    return { spec: text, kind: 'module', mode: 'in-process', factory, ...(processArgv ? { processArgv } : {}), ...warnings };
  }
  let argv: string[];
  try {
    argv = shellWords(text);
  } catch (err) {
    if (err instanceof ShellWordsError) throw new EngineError('usage', 'adapter-spec', err.message);
    throw err;
  }
  if (argv.length === 0) throw new EngineError('usage', 'adapter-spec', '--adapter is empty');
  return { spec: text, kind: 'command', mode: 'stdio', processArgv: argv };
}

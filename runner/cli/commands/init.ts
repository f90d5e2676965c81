import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { makeDirectory } from '../../../results/make-directory.js';
import { createRequire } from 'node:module';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { fromRoot, packageRoot } from '../../../spec/package-root.js';
import { CliError, EXIT } from '../../exit-codes.js';

const PY_STARTER = `#!/usr/bin/env python3
"""Starter OAP adapter: wire these handlers to your harness's real code, then run
    npx oap-conform smoke --adapter "python3 my_adapter.py"
oap_adapter.py next to this file is the SDK (one standard-library file). The guide is
sdk/WRITING.md and the protocol protocol/PROTOCOL.md in the oap-conform package."""

from oap_adapter import PROTOCOL_VERSION, UNSUPPORTED_PROTOCOL_VERSION, Adapter, Decline, PromptBuilder, RpcError

adapter = Adapter()


@adapter.method("initialize")
def initialize(params):
    if PROTOCOL_VERSION not in params["protocol_versions"]:
        raise RpcError(UNSUPPORTED_PROTOCOL_VERSION, "protocol %s only" % PROTOCOL_VERSION)
    return {
        "protocol_version": PROTOCOL_VERSION,
        "implementation": {"name": "my-harness", "version": "0.0.1", "language": "python"},
        "level": 1,
        "encodings": ["yaml"],          # what your harness really accepts
        "discovery_roots": ["project"],  # what your harness really searches
        "unimplemented": [],             # OPTIONAL features you do not implement
    }


@adapter.method("validate")
def validate(params):
    # params["document"] is {"path": ...} or {"content": ..., "encoding": ...}. Load it with your
    # harness and return {"valid": bool, "kind": ... (when known), "errors": [...], "warnings": [...]};
    # each issue is {"category", "pointer", "message", "code" (optional, your own)}.
    raise Decline("not-implemented", "TODO: call the harness loader")


@adapter.method("instantiate")
def instantiate(params):
    # Resolve params["profile"] over params["roots"], apply params["policy"], and return the session
    # (session.spec_digest: your harness's SPEC 2.2 spec digest; prompt: PromptBuilder()...build()), or
    # {"status": "rejected", "errors": [...], "warnings": []}.
    raise Decline("not-implemented", "TODO: call the harness resolver")


if __name__ == "__main__":
    adapter.serve()
`;

/** The module the TypeScript starter imports the SDK from: the package's `./sdk` export (with its .d.ts). */
const SDK_MODULE = 'oap-conform/sdk';

const TS_STARTER = `/**
 * Starter OAP adapter: wire these handlers to your harness's real code, then
 *   npx tsc
 *   npx oap-conform smoke --adapter ./my-adapter.mts            (in-process; runs the compiled dist/my-adapter.mjs)
 *   npx oap-conform smoke --adapter "node dist/my-adapter.mjs"  (the same adapter over stdio)
 * The SDK and its types come from the oap-conform package you installed ('oap-conform/sdk'). The
 * guide is sdk/WRITING.md and the protocol protocol/PROTOCOL.md in that package.
 */
import { AdapterDecline, PROTOCOL_VERSION, RPC_ERROR, RpcError, defineAdapter, isMain, serveStdio } from '${SDK_MODULE}';

export default function createAdapter() {
  return defineAdapter({
    initialize: (params) => {
      if (!params.protocol_versions.includes(PROTOCOL_VERSION)) {
        throw new RpcError(RPC_ERROR.UNSUPPORTED_PROTOCOL_VERSION, \`protocol \${PROTOCOL_VERSION} only\`);
      }
      return {
        protocol_version: PROTOCOL_VERSION,
        implementation: { name: 'my-harness', version: '0.0.1', language: 'typescript' },
        level: 1,
        encodings: ['yaml'], // what your harness really accepts
        discovery_roots: ['project'], // what your harness really searches
        unimplemented: [], // OPTIONAL features you do not implement
      };
    },
    validate: () => {
      // params.document is {path} or {content, encoding}. Load it with your harness and return
      // {valid, kind? (when known), errors, warnings}; each issue is {category, pointer, message, code?}.
      throw new AdapterDecline('not-implemented', 'TODO: call the harness loader');
    },
    instantiate: () => {
      // Resolve params.profile over params.roots, apply params.policy, and return the session
      // (session.spec_digest: your harness's SPEC 2.2 spec digest; prompt: new PromptBuilder()...build()), or
      // {status: 'rejected', errors, warnings}.
      throw new AdapterDecline('not-implemented', 'TODO: call the harness resolver');
    },
  });
}

if (isMain(import.meta.url)) await serveStdio(createAdapter());
`;

/** What the starter needs from a tsconfig: ES modules with top-level await, Node's types. */
export const TS_CONFIG = `${JSON.stringify(
  {
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      types: ['node'],
      strict: true,
      skipLibCheck: true,
      rootDir: '.',
      outDir: 'dist',
    },
  },
  null,
  2,
)}\n`;

export const PY_FILES = { starter: 'my_adapter.py', sdk: 'oap_adapter.py' } as const;
export const TS_FILES = { starter: 'my-adapter.mts', tsconfig: 'tsconfig.json' } as const;

/** The files `init` writes (a tsconfig.json only when the directory has none). */
export function starterFiles(lang: 'ts' | 'python', opts: { sdkOnly?: boolean } = {}): Record<string, string> {
  const files: Record<string, string> =
    lang === 'ts'
      ? { [TS_FILES.starter]: TS_STARTER }
      : { [PY_FILES.starter]: PY_STARTER, [PY_FILES.sdk]: readFileSync(fromRoot('sdk', 'python', 'oap_adapter.py'), 'utf8') };
  if (opts.sdkOnly) delete files[lang === 'ts' ? TS_FILES.starter : PY_FILES.starter];
  return files;
}

/** A path as the user should type it from the current directory. */
function shown(path: string): string {
  const rel = relative(process.cwd(), path);
  if (rel === '') return '.';
  if (rel.startsWith('..') || isAbsolute(rel)) return path;
  return rel;
}

function quoteWord(word: string): string {
  return /^[\w./@:=+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Where `pkg` resolves from `dir`, or undefined. */
function resolveFrom(dir: string, pkg: string): string | undefined {
  try {
    return createRequire(join(dir, 'noop.js')).resolve(`${pkg}/package.json`);
  } catch {
    return undefined;
  }
}

function tsNextSteps(dir: string, wroteTsconfig: boolean): string[] {
  const lines: string[] = [];
  const missing = ['oap-conform', 'typescript', '@types/node'].filter((p) => !resolveFrom(dir, p));
  if (missing.length) {
    lines.push(
      `  ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not installed for ${shown(dir)}; the starter imports the SDK from your own node_modules:`,
    );
    lines.push(`    (cd ${quoteWord(shown(dir))} && npm install --save-dev ${missing.join(' ')})`);
    if (missing.includes('oap-conform'))
      lines.push(
        `    oap-conform is not on the npm registry yet: until it is, install it from a tarball (npm pack in a checkout) or a checkout, e.g. npm install --save-dev ${packageRoot} (${fromRoot('sdk', 'WRITING.md')}, section 0)`,
      );
  }
  const installed = resolveFrom(dir, 'oap-conform');
  if (installed && realpathSync(resolve(installed, '..')) !== realpathSync(packageRoot)) {
    lines.push(`  note: ${shown(dir)} uses the oap-conform in ${shown(resolve(installed, '..'))}, not this one (${packageRoot});`);
    lines.push(
      '    run `npx oap-conform` from that project so the runner and the SDK are the same copy (in-process declines are otherwise reported as errors)',
    );
  }
  if (!wroteTsconfig) {
    lines.push(
      `  kept the existing ${shown(join(dir, TS_FILES.tsconfig))}: the starter needs "module": "NodeNext" (ES modules, top-level await) and "types": ["node"],`,
    );
    lines.push(`    the tsconfig init would have written is:\n${TS_CONFIG.replace(/^/gm, '      ')}`);
  }
  const here = relative(process.cwd(), dir) === '';
  const compiled = wroteTsconfig ? join(dir, 'dist', 'my-adapter.mjs') : join(dir, 'my-adapter.mjs');
  lines.push(`  compile: ${here ? 'npx tsc' : `(cd ${quoteWord(shown(dir))} && npx tsc)`}`);
  const starter = relative(process.cwd(), join(dir, TS_FILES.starter));
  const spec = starter.startsWith('..') || isAbsolute(starter) ? join(dir, TS_FILES.starter) : `./${starter}`;
  lines.push(`  smoke:   npx oap-conform smoke --adapter ${quoteWord(spec)}   (the starter passes the handshake and declines the rest)`);
  lines.push(
    `           or over stdio: npx oap-conform smoke --adapter "node ${shown(compiled)}"${wroteTsconfig ? '' : ' (wherever your tsconfig puts it)'}`,
  );
  lines.push('  then implement validate and instantiate until smoke passes');
  return lines;
}

export function register(program: Command): void {
  program
    .command('init')
    .description('write a starter adapter (and the SDK it uses) into a directory')
    .requiredOption('--lang <lang>', 'ts or python')
    .option('--dir <dir>', 'target directory (created if missing)', '.')
    .option('--sdk-only', 'python: write only the SDK file oap_adapter.py, e.g. after upgrading oap-conform')
    .action((flags: { lang: string; dir: string; sdkOnly?: boolean }) => {
      if (flags.lang !== 'ts' && flags.lang !== 'python')
        throw new CliError('usage', `--lang must be ts or python (got ${flags.lang})`, EXIT.USAGE);
      if (flags.lang === 'ts' && flags.sdkOnly)
        throw new CliError(
          'usage',
          `--sdk-only is for python: the TypeScript SDK and its types are the installed package (import from '${SDK_MODULE}'); upgrade it with npm install --save-dev oap-conform@latest`,
          EXIT.USAGE,
        );
      const dir = resolve(flags.dir);
      const files = starterFiles(flags.lang, { sdkOnly: !!flags.sdkOnly });
      const clash = Object.keys(files).filter((f) => existsSync(join(dir, f)));
      if (clash.length) {
        throw new CliError(
          'exists',
          `refusing to overwrite ${clash.join(', ')} in ${dir}: move ${clash.length === 1 ? 'it' : 'them'} away, or choose another directory with --dir`,
          EXIT.USAGE,
        );
      }
      try {
        makeDirectory(dir);
      } catch (err) {
        throw new CliError('io', `cannot create ${dir}: ${(err as Error).message}`, EXIT.USAGE);
      }
      let wroteTsconfig = false;
      if (flags.lang === 'ts' && !flags.sdkOnly && !existsSync(join(dir, TS_FILES.tsconfig))) {
        files[TS_FILES.tsconfig] = TS_CONFIG;
        wroteTsconfig = true;
      }
      const out = (s: string): void => void process.stdout.write(`${s}\n`);
      for (const [name, content] of Object.entries(files)) {
        writeFileSync(join(dir, name), content, { flag: 'wx', mode: name === PY_FILES.starter ? 0o755 : 0o644 });
        out(`wrote ${shown(join(dir, name))}`);
      }
      if (flags.sdkOnly) return;
      out('next:');
      if (flags.lang === 'python') {
        const starter = shown(join(dir, PY_FILES.starter));
        // `npx oap-conform` is safe only where a copy is installed: elsewhere npx would fetch the name
        // from the registry, where this project is not published yet. Then name this copy instead.
        const self = resolveFrom(process.cwd(), 'oap-conform') ? 'npx oap-conform' : `node ${quoteWord(fromRoot('bin', 'oap-conform.js'))}`;
        out(
          `  ${self} smoke --adapter ${JSON.stringify(`python3 ${quoteWord(starter)}`)}   (the starter passes the handshake and declines the rest)`,
        );
        out('  then implement validate and instantiate until smoke passes');
      } else {
        for (const line of tsNextSteps(dir, wroteTsconfig)) out(line);
      }
      out(`guide: ${fromRoot('sdk', 'WRITING.md')}`);
      out(`example: ${fromRoot('harnesses', 'examples', flags.lang === 'python' ? 'python/example_adapter.py' : 'ts/example-adapter.ts')}`);
    });
}

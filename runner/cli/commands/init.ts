import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { fromRoot } from '../../util/package-root.js';
import { CliError, EXIT } from '../exit-codes.js';

const PY_STARTER = `#!/usr/bin/env python3
"""Starter OAP adapter: wire these handlers to your harness, then run
    npx oap-conform smoke --adapter "python3 my_adapter.py"
See the protocol (adapters/PROTOCOL.md in the oap-conform package) for every method."""

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
    # params["document"] is {"path": ...} or {"content": ..., "encoding": ...}.
    # Load it with your harness and return {"valid", "kind"?, "errors", "warnings"}.
    raise Decline("not-implemented", "TODO: call the harness loader")


@adapter.method("instantiate")
def instantiate(params):
    # Resolve params["profile"] over params["roots"], apply params["policy"], and return the session.
    raise Decline("not-implemented", "TODO: call the harness resolver")


if __name__ == "__main__":
    adapter.serve()
`;

const TS_STARTER = `/**
 * Starter OAP adapter: wire these handlers to your harness, compile, then run
 *   npx oap-conform smoke --adapter ./my-adapter.ts      (in-process; uses the compiled .js)
 *   npx oap-conform smoke --adapter "node my-adapter.js" (over stdio)
 */
import { AdapterDecline, PROTOCOL_VERSION, defineAdapter, isMain, serveStdio } from 'oap-conform/dist/adapters/sdk/ts/index.js';

export default function createAdapter() {
  return defineAdapter({
    initialize: () => ({
      protocol_version: PROTOCOL_VERSION,
      implementation: { name: 'my-harness', version: '0.0.1', language: 'typescript' },
      level: 1,
      encodings: ['yaml'], // what your harness really accepts
      discovery_roots: ['project'], // what your harness really searches
      unimplemented: [], // OPTIONAL features you do not implement
    }),
    validate: () => {
      throw new AdapterDecline('not-implemented', 'TODO: call the harness loader');
    },
    instantiate: () => {
      throw new AdapterDecline('not-implemented', 'TODO: call the harness resolver');
    },
  });
}

if (isMain(import.meta.url)) await serveStdio(createAdapter());
`;

export function starterFiles(lang: 'ts' | 'python'): Record<string, string> {
  if (lang === 'ts') return { 'my-adapter.ts': TS_STARTER };
  return { 'my_adapter.py': PY_STARTER, 'oap_adapter.py': readFileSync(fromRoot('adapters', 'sdk', 'python', 'oap_adapter.py'), 'utf8') };
}

export function register(program: Command): void {
  program
    .command('init')
    .description('write a starter adapter into the current directory')
    .requiredOption('--lang <lang>', 'ts or python')
    .option('--dir <dir>', 'target directory', '.')
    .action((flags: { lang: string; dir: string }) => {
      if (flags.lang !== 'ts' && flags.lang !== 'python') throw new CliError('usage', `--lang must be ts or python (got ${flags.lang})`, EXIT.USAGE);
      const files = starterFiles(flags.lang);
      const dir = resolve(flags.dir);
      const clash = Object.keys(files).filter((f) => existsSync(join(dir, f)));
      if (clash.length) throw new CliError('exists', `refusing to overwrite ${clash.join(', ')} in ${dir}`, EXIT.USAGE);
      for (const [name, content] of Object.entries(files)) {
        writeFileSync(join(dir, name), content, { flag: 'wx', mode: name.endsWith('.py') ? 0o755 : 0o644 });
        process.stdout.write(`wrote ${join(dir, name)}\n`);
      }
      const cmd = flags.lang === 'python' ? '"python3 my_adapter.py"' : './my-adapter.ts';
      process.stdout.write(`next: implement validate and instantiate, then: npx oap-conform smoke --adapter ${cmd}\n`);
    });
}

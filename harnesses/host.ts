/**
 * Serves a builtin or module adapter over stdio, so it can run as its own (killable) process:
 *
 *   node dist/harnesses/host.js builtin:reference
 *   node dist/harnesses/host.js builtin:chaos/hang?n=2
 *   node dist/harnesses/host.js /abs/path/my-adapter.js
 *
 * The runner uses it for `--process`, for CaseContext.spawnAdapter, and for chaos faults.
 */
import { pathToFileURL } from 'node:url';
import { resolveBuiltin } from './builtin.js';
import { serveStdio } from '../sdk/ts/stdio.js';
import type { AdapterFactory, InProcessAdapter } from '../sdk/ts/types.js';

async function loadModuleAdapter(path: string): Promise<InProcessAdapter> {
  const mod = (await import(pathToFileURL(path).href)) as { default?: unknown };
  if (typeof mod.default !== 'function') throw new Error(`${path} has no default export adapter factory`);
  return await (mod.default as AdapterFactory)();
}

export async function host(spec: string): Promise<void> {
  if (spec.startsWith('builtin:')) {
    const builtin = await resolveBuiltin(spec.slice('builtin:'.length));
    if (builtin.mode === 'process-only') await builtin.serve();
    else await serveStdio(await builtin.create());
  } else {
    await serveStdio(await loadModuleAdapter(spec));
  }
}

const spec = process.argv[2];
if (!spec) {
  process.stderr.write('usage: node host.js builtin:NAME | /path/to/adapter-module.js\n');
  process.exit(2);
}
host(spec).then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`oap-conform host: ${(err as Error).message.split('\n')[0]}\n`);
    process.exit(3);
  },
);

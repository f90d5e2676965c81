import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveAdapter } from '../../runner/engine/adapter-spec.js';
import { adapterEnv } from '../../runner/engine/env.js';
import { handshake } from '../../runner/engine/handshake.js';
import { StdioAdapterClient } from '../../runner/engine/stdio-client.js';
import type { KillableAdapter } from '../../suites/framework/types.js';

/**
 * A builtin adapter as its own, handshaken process (dist/adapters/host.js), for the cases that kill
 * or trace an adapter. Needs the build (`npm test` builds first).
 */
export async function spawnBuiltinForTests(spec: string): Promise<KillableAdapter> {
  const resolved = await resolveAdapter(spec, { forceProcess: true });
  if (!resolved.processArgv) throw new Error(`${spec} cannot run as a process (is dist/ built?)`);
  const client = await StdioAdapterClient.start({
    argv: resolved.processArgv,
    env: adapterEnv(mkdtempSync(join(tmpdir(), 'oap-worker-'))),
    timeoutMs: 20_000,
  });
  await handshake(client);
  return client;
}

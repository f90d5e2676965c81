import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hostScript } from '../../runner/engine/adapter-spec.js';
import { adapterEnv } from '../../runner/engine/env.js';
import { handshake } from '../../runner/engine/handshake.js';
import { StdioAdapterClient } from '../../runner/engine/stdio-client.js';
import { AdapterCrashed } from '../../protocol/errors.js';
import type { KillableAdapter } from '../../suites/kit/types.js';

const live = new Set<StdioAdapterClient>();
let scratch: string | undefined;
let spawned = 0;

/** True when dist/harnesses/host.js exists, so builtins can run as processes (`npm test` builds first). */
export function canSpawnBuiltins(): boolean {
  return hostScript() !== undefined;
}

/**
 * A builtin adapter as its own, handshaken process (dist/harnesses/host.js), as the engine's worker
 * provides for the cases that kill, trace or race an adapter. A spawn that cannot handshake is a
 * crash carrying the stderr tail, as in the worker.
 */
export async function spawnBuiltinForTests(spec: string): Promise<KillableAdapter> {
  const host = hostScript(spec);
  if (!host) throw new Error(`${spec} cannot run as a process: dist/ is not built`);
  scratch ??= mkdtempSync(join(tmpdir(), 'oap-test-workers-'));
  const client = await StdioAdapterClient.start({
    argv: [process.execPath, host, spec],
    env: adapterEnv(join(scratch, `w${spawned++}`)),
    timeoutMs: 60_000,
  });
  live.add(client);
  void client.exited.then(() => live.delete(client));
  await handshake(client, () => client.stderr.tail(2048)).catch(async (err: unknown) => {
    await client.kill().catch(() => {});
    throw new AdapterCrashed(`spawned ${spec}: ${(err as Error).message}`, null, null);
  });
  return client;
}

/** Kill whatever is still running and remove the scratch dir (call from afterAll). */
export async function killSpawnedBuiltins(): Promise<void> {
  await Promise.all([...live].map((c) => c.kill().catch(() => {})));
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
}

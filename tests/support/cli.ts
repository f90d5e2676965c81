import { vi } from 'vitest';
import { main } from '../../runner/cli/main.js';
import type { CliEmbedding } from '../../runner/cli/embedding.js';

export interface CliRun {
  /** The exit code the binary would end with. */
  status: number;
  stdout: string;
  stderr: string;
}

/**
 * The CLI in this process: `main(argv)` exactly as bin/oap-conform.js calls it, with stdout and
 * stderr captured (nothing reaches the test output), the streams reading as pipes (not a TTY, as
 * under spawnSync), and process.exitCode restored. A spawn of the binary costs about half a second
 * of module loading; this costs the command's own work. Use a spawn only where the process boundary
 * is what a test proves (signals, the launcher, a stack trace of the real binary).
 *
 * `cwd` changes the working directory for the call and restores it: only for what is about the
 * working directory (init prints paths relative to it, a relative adapter command runs in it).
 * Everything else passes absolute paths. `env` sets (a string) or removes (undefined) variables of
 * the runner's environment for the call, restored after it. A test file's tests run one at a time
 * in its worker, so nothing else observes either change.
 */
export async function runCli(
  argv: string[],
  opts: { cwd?: string; env?: Record<string, string | undefined>; embed?: CliEmbedding } = {},
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => {
    stdout += typeof s === 'string' ? s : Buffer.from(s).toString('utf8');
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => {
    stderr += typeof s === 'string' ? s : Buffer.from(s).toString('utf8');
    return true;
  });
  const tty = [process.stdout, process.stderr].map((stream) => [stream, Object.getOwnPropertyDescriptor(stream, 'isTTY')] as const);
  for (const [stream] of tty) Object.defineProperty(stream, 'isTTY', { value: false, configurable: true, writable: true });
  const savedExit = process.exitCode;
  const savedCwd = process.cwd();
  // As a user runs it: not under npm exec (npx vitest sets npm_command=exec), unless the test says so.
  const env: Record<string, string | undefined> = { npm_command: undefined, ...opts.env };
  const savedEnv = Object.keys(env).map((name) => [name, process.env[name]] as const);
  process.exitCode = undefined;
  try {
    for (const [name, value] of Object.entries(env)) setEnv(name, value);
    if (opts.cwd) process.chdir(opts.cwd);
    const status = await main(argv, opts.embed);
    return { status, stdout, stderr };
  } finally {
    process.chdir(savedCwd);
    for (const [name, value] of savedEnv) setEnv(name, value);
    process.exitCode = savedExit;
    for (const [stream, descriptor] of tty) {
      if (descriptor) Object.defineProperty(stream, 'isTTY', descriptor);
      else delete (stream as { isTTY?: boolean }).isTTY;
    }
    out.mockRestore();
    err.mockRestore();
  }
}

function setEnv(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

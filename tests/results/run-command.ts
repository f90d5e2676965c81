import { Command } from 'commander';
import { vi } from 'vitest';
import { reportFatal } from '../../runner/cli/main.js';

/**
 * Test support: runs one CLI command module in-process, the way main() does, and returns its exit
 * code and output. Only the module under test is registered, so other commands cannot interfere.
 */
export async function runCommand(
  mod: { register(p: Command): void },
  argv: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => {
    stdout += String(s);
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => {
    stderr += String(s);
    return true;
  });
  const saved = process.exitCode;
  process.exitCode = undefined;
  const program = new Command().exitOverride().configureOutput({
    writeErr: (s) => {
      stderr += s;
    },
    writeOut: (s) => {
      stdout += s;
    },
  });
  mod.register(program);
  let code: number;
  try {
    await program.parseAsync(argv, { from: 'user' });
    code = typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (e) {
    code = reportFatal(e);
  } finally {
    process.exitCode = saved;
    out.mockRestore();
    err.mockRestore();
  }
  return { code, stdout, stderr };
}

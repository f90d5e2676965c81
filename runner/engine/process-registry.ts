/**
 * Every adapter process the runner starts is spawned detached (its own process group) and
 * registered here, so that killing the group also kills grandchildren (`sh -c python3 …`), and so
 * that the runner kills every live group on its way out, whatever the path: normal exit, a thrown
 * error or a signal.
 */
const live = new Set<number>();
let hooked = false;

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is gone (or was never a group on this platform): try the process itself.
    try {
      process.kill(pid, signal);
    } catch {
      /* already dead */
    }
  }
}

export function registerProcess(pid: number): void {
  live.add(pid);
  if (!hooked) {
    hooked = true;
    // 'exit' handlers must be synchronous; SIGKILL to a group is.
    process.on('exit', killAllSync);
  }
}

export function unregisterProcess(pid: number): void {
  live.delete(pid);
}

export function killProcessGroup(pid: number, signal: NodeJS.Signals = 'SIGKILL'): void {
  killGroup(pid, signal);
}

export function killAllSync(): void {
  for (const pid of live) killGroup(pid, 'SIGKILL');
  live.clear();
}

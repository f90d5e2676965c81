/**
 * Serializes writers of one profile file (security.md T8). Within this process a promise chain per
 * real path orders the applies; across processes a proper-lockfile lock (a `<file>.lock` directory
 * with stale detection) does. The revision check runs inside the lock, so two concurrent applies
 * against the same revision cannot both succeed as blind writes: the second sees the first's
 * revision and goes through conflict handling.
 */
import lockfile from 'proper-lockfile';
import { realOrResolved } from '../roots.js';

const chains = new Map<string, Promise<unknown>>();

export async function withProfileLock<T>(path: string, fn: () => Promise<T> | T): Promise<T> {
  const key = realOrResolved(path);
  const previous = chains.get(key) ?? Promise.resolve();
  const run = previous
    .catch(() => undefined)
    .then(async () => {
      const release = await lockfile.lock(key, {
        retries: { retries: 100, minTimeout: 5, maxTimeout: 50 },
        stale: 10_000,
        realpath: false,
      });
      try {
        return await fn();
      } finally {
        await release();
      }
    });
  chains.set(key, run);
  try {
    return await run;
  } finally {
    if (chains.get(key) === run) chains.delete(key);
  }
}

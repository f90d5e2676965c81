import picomatch from 'picomatch';
import type { CaseDef } from '../../suites/kit/types.js';

const GLOB_CHARS = /[*?[\]{}!]/;

/**
 * `--filter PATTERN` over case IDs and requirement IDs: a glob when it has glob characters
 * (`L1-I*`, `L2-A1/*`; case IDs are not paths, so `*` also matches `/`), otherwise a substring.
 * `,` separates alternatives.
 */
export function caseMatcher(pattern: string): (c: Pick<CaseDef, 'id' | 'requirements'>) => boolean {
  const parts = pattern
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const tests = parts.map((p) => (GLOB_CHARS.test(p) ? picomatch(p, { dot: true, bash: true }) : (s: string) => s.includes(p)));
  return (c) => tests.some((t) => t(c.id) || c.requirements.some((r) => t(r)));
}

export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

export function parseShard(text: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || !Number.isSafeInteger(count) || count < 1 || index < 1 || index > count)
    throw new Error(`--shard must be k/n with 1 <= k <= n, got ${text}`);
  return { index, count };
}

/**
 * Shard k of n: the cases at positions k-1, k-1+n, … of the ID-sorted list. Every machine sorts the
 * same list the same way, so the n shards partition it exactly and are balanced within one case.
 */
export function selectShard<T extends { id: string }>(sorted: readonly T[], shard: Shard): T[] {
  return sorted.filter((_, i) => i % shard.count === shard.index - 1);
}

export function byId(a: { id: string }, b: { id: string }): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Up to `max` IDs closest to `id` (edit distance, then shared prefix): the "did you mean" of a mistyped ID. */
export function nearestIds(id: string, ids: readonly string[], max = 3): string[] {
  const scored = ids.map((x) => ({ x, d: editDistance(id, x) }));
  scored.sort((a, b) => a.d - b.d || (a.x < b.x ? -1 : 1));
  const limit = Math.max(3, Math.floor(id.length / 3));
  return scored
    .filter((s) => s.d <= limit)
    .slice(0, max)
    .map((s) => s.x);
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}

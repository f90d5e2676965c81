/**
 * `lifecycle.retention` enforced by the applicator at write time (SPEC §3.8, L2-A9): facts past
 * `fact_ttl_days` (measured from `learned_at` to the apply time) or past their own `expires_at` are
 * dropped, then facts beyond `max_facts` and threads beyond `max_open_threads` are evicted in the
 * configured order. Pinned facts are never evicted, even when they alone exceed the cap. Threads
 * that are done or abandoned go before live ones.
 */
import type { JsonObject } from '../document.js';

type Eviction = 'oldest' | 'least_confident' | 'least_recently_used';

const DAY_MS = 24 * 60 * 60 * 1000;

function time(v: unknown): number {
  const t = typeof v === 'string' ? Date.parse(v) : NaN;
  return Number.isNaN(t) ? Number.NEGATIVE_INFINITY : t;
}

export function enforceRetention(state: JsonObject, retention: JsonObject, now: string): void {
  const eviction = (retention['eviction'] as Eviction | undefined) ?? 'least_recently_used';
  const nowMs = Date.parse(now);
  if (Array.isArray(state['facts'])) {
    let facts = state['facts'] as JsonObject[];
    const ttl = retention['fact_ttl_days'];
    facts = facts.filter((f) => {
      if (f['pinned'] === true) return true;
      if (typeof ttl === 'number' && time(f['learned_at']) !== Number.NEGATIVE_INFINITY && time(f['learned_at']) + ttl * DAY_MS < nowMs)
        return false;
      if (typeof f['expires_at'] === 'string' && time(f['expires_at']) <= nowMs) return false;
      return true;
    });
    if (typeof retention['max_facts'] === 'number')
      facts = cap(
        facts,
        retention['max_facts'],
        (f) => factKey(f, eviction),
        (f) => f['pinned'] === true,
      );
    state['facts'] = facts;
  }
  if (Array.isArray(state['open_threads']) && typeof retention['max_open_threads'] === 'number') {
    const closed = (t: JsonObject): number => (t['status'] === 'done' || t['status'] === 'abandoned' ? 0 : 1);
    const key = (t: JsonObject): number =>
      eviction === 'oldest' ? time(t['opened_at'] ?? t['updated_at']) : time(t['updated_at'] ?? t['opened_at']);
    state['open_threads'] = cap(
      state['open_threads'] as JsonObject[],
      retention['max_open_threads'],
      (t) => [closed(t), key(t)],
      () => false,
    );
  }
}

function factKey(f: JsonObject, eviction: Eviction): number[] {
  if (eviction === 'oldest') return [time(f['learned_at'])];
  if (eviction === 'least_confident') return [typeof f['confidence'] === 'number' ? f['confidence'] : -1];
  return [time(f['last_used_at'] ?? f['learned_at'])];
}

/** Keep at most `max` entries (plus any exempt ones), evicting the smallest keys; order is preserved. */
function cap<T>(list: T[], max: number, key: (e: T) => number | number[], exempt: (e: T) => boolean): T[] {
  const victims = list
    .map((e, i) => ({ e, i, k: ([] as number[]).concat(key(e)) }))
    .filter((x) => !exempt(x.e))
    .sort((a, b) => compareKeys(a.k, b.k) || a.i - b.i);
  const evict = new Set<number>();
  let count = list.length;
  for (const v of victims) {
    if (count <= max) break;
    evict.add(v.i);
    count--;
  }
  return list.filter((_, i) => !evict.has(i));
}

function compareKeys(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/**
 * Retention at write time and eviction order (SPEC §3.8, §3.9 rule 4, §3.10; security.md T9;
 * conformance.md L2-A9, L2-A11, L2-S4).
 *
 * Reading (INTERPRETATIONS.md#retention): "`lifecycle.retention` bounds
 * `state` growth: entry caps, TTL, and an eviction strategy. Entries with `pinned: true` are
 * exempt from automatic eviction" (§3.8). So, given the retention block and the apply time `now`:
 * - a fact expires when `fact_ttl_days` whole days have passed since its `learned_at`
 *   (learned_at + ttl days < now), or when its own `expires_at` is not after `now`; pinned facts
 *   never expire;
 * - `max_facts` and `max_open_threads` cap the unpinned entries; **0 keeps none** (the schema
 *   allows 0 and gives it no special meaning), pinned entries are kept even beyond the cap;
 * - victims go in eviction order: `oldest` by `learned_at`, `least_confident` by `confidence`,
 *   `least_recently_used` (the default) by `last_used_at`, falling back to `learned_at`. Threads
 *   have no confidence, so they go by recency except under `oldest`, and closed threads
 *   (`done`, `abandoned`) go before live ones. An entry without the key goes first; ties keep
 *   document order. The same order decides what a state budget elides (§3.9 rule 4).
 * - `history` is trimmed oldest first to `max_history` (default 50; 0 keeps none) (§3.10).
 * - History order is revision order (INTERPRETATIONS.md, history against the revision counter):
 *   `history` is "An append-only, bounded log of persisted revisions" (§3.10), "Newest last"
 *   (schema), and each persisted write appends its entry (§5.6 step 9) after incrementing
 *   `metadata.revision` by exactly 1 (§5.6 step 8, §2.4). So an entry is newer than another exactly
 *   when it logs a higher revision. `at` is not the order: it is the writing machine's clock.
 * Times are RFC 3339 strings; nothing here reads a clock.
 */

export type Eviction = 'oldest' | 'least_confident' | 'least_recently_used';

/** `lifecycle.retention.eviction` when absent (schema `default`). */
export const DEFAULT_EVICTION: Eviction = 'least_recently_used';
/** `lifecycle.retention.max_history` when absent (schema `default`). */
export const DEFAULT_MAX_HISTORY = 50;

const DAY_MS = 24 * 60 * 60 * 1000;

export interface Retention {
  max_facts?: number | undefined;
  max_open_threads?: number | undefined;
  fact_ttl_days?: number | undefined;
  eviction?: Eviction | undefined;
  max_history?: number | undefined;
}

type Entry = Record<string, unknown>;

const record = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** `spec.lifecycle.retention` of a profile's `spec`, numbers and the eviction name only. */
export function retentionOf(spec: unknown): Retention {
  const r = record(record(record(spec)['lifecycle'])['retention']);
  const num = (k: string): number | undefined => (typeof r[k] === 'number' ? r[k] : undefined);
  const eviction = r['eviction'];
  return {
    max_facts: num('max_facts'),
    max_open_threads: num('max_open_threads'),
    fact_ttl_days: num('fact_ttl_days'),
    eviction: eviction === 'oldest' || eviction === 'least_confident' || eviction === 'least_recently_used' ? eviction : undefined,
    max_history: num('max_history'),
  };
}

/** Milliseconds of an RFC 3339 string; -Infinity when absent or unreadable (such entries go first). */
export function timeOf(v: unknown): number {
  const t = typeof v === 'string' ? Date.parse(v) : Number.NaN;
  return Number.isNaN(t) ? Number.NEGATIVE_INFINITY : t;
}

function isPinned(e: Entry): boolean {
  return e['pinned'] === true;
}

/** Has an unpinned fact passed its TTL (from `learned_at`) or its own `expires_at` at `now`? */
export function factExpired(fact: Entry, retention: Retention, now: string): boolean {
  if (isPinned(fact)) return false;
  const nowMs = Date.parse(now);
  const ttl = retention.fact_ttl_days;
  const learned = timeOf(fact['learned_at']);
  if (typeof ttl === 'number' && learned !== Number.NEGATIVE_INFINITY && learned + ttl * DAY_MS < nowMs) return true;
  return typeof fact['expires_at'] === 'string' && timeOf(fact['expires_at']) <= nowMs;
}

/** Eviction key of a fact or preference: smaller goes first. */
export function factEvictionKey(fact: Entry, eviction: Eviction): number {
  if (eviction === 'oldest') return timeOf(fact['learned_at']);
  if (eviction === 'least_confident') return typeof fact['confidence'] === 'number' ? fact['confidence'] : -1;
  return timeOf(fact['last_used_at'] ?? fact['learned_at']);
}

/** Eviction key of an open thread: closed before live, then by age (`oldest`) or recency. */
function threadEvictionKey(thread: Entry, eviction: Eviction): [number, number] {
  const live = thread['status'] === 'done' || thread['status'] === 'abandoned' ? 0 : 1;
  const when =
    eviction === 'oldest' ? timeOf(thread['opened_at'] ?? thread['updated_at']) : timeOf(thread['updated_at'] ?? thread['opened_at']);
  return [live, when];
}

function compareKeys(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** Indexes of `list` in the order they would be evicted (exempt entries never appear). */
export function evictionOrder<T>(list: readonly T[], key: (e: T) => number | readonly number[], exempt: (e: T) => boolean): number[] {
  return list
    .map((e, i) => ({ e, i, k: ([] as number[]).concat(key(e)) }))
    .filter((x) => !exempt(x.e))
    .sort((a, b) => compareKeys(a.k, b.k) || a.i - b.i)
    .map((x) => x.i);
}

/** Keep at most `max` entries (exempt ones always kept, even beyond it), evicting in key order; order preserved. */
export function capEntries<T>(list: readonly T[], max: number, key: (e: T) => number | readonly number[], exempt: (e: T) => boolean): T[] {
  const evict = new Set<number>();
  let count = list.length;
  for (const i of evictionOrder(list, key, exempt)) {
    if (count <= max) break;
    evict.add(i);
    count--;
  }
  return list.filter((_, i) => !evict.has(i));
}

/** The facts that survive a write at `now`: expired ones dropped, then the cap applied. */
export function retainFacts<T extends Entry>(facts: readonly T[], retention: Retention, now: string): T[] {
  const eviction = retention.eviction ?? DEFAULT_EVICTION;
  const fresh = facts.filter((f) => !factExpired(f, retention, now));
  if (typeof retention.max_facts !== 'number') return fresh;
  return capEntries(fresh, retention.max_facts, (f) => factEvictionKey(f, eviction), isPinned);
}

/** The open threads that survive a write (threads have no `pinned`). */
export function retainThreads<T extends Entry>(threads: readonly T[], retention: Retention): T[] {
  if (typeof retention.max_open_threads !== 'number') return [...threads];
  const eviction = retention.eviction ?? DEFAULT_EVICTION;
  return capEntries(
    threads,
    retention.max_open_threads,
    (t) => threadEvictionKey(t, eviction),
    () => false,
  );
}

/** `state` after retention at `now` (a new object; `facts` and `open_threads` replaced when present). */
export function retainState(state: Entry, retention: Retention, now: string): Entry {
  const out = { ...state };
  if (Array.isArray(state['facts'])) out['facts'] = retainFacts(state['facts'] as Entry[], retention, now);
  if (Array.isArray(state['open_threads'])) out['open_threads'] = retainThreads(state['open_threads'] as Entry[], retention);
  return out;
}

/** The revision a history entry logs, or undefined when it logs no integer one (the schema reports that). */
export function historyRevision(entry: unknown): number | undefined {
  const r = record(entry)['revision'];
  return Number.isInteger(r) ? (r as number) : undefined;
}

/** History newest last: entries in revision order (a new array; those without a revision first, ties in document order). */
export function historyByRevision<T>(history: readonly T[]): T[] {
  return history
    .map((e, i) => ({ e, i, r: historyRevision(e) ?? Number.NEGATIVE_INFINITY }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map((x) => x.e);
}

/** An entry that is not newer than the entry logged before it: its revision is not above `previous`. */
interface HistoryOrderBreak {
  index: number;
  revision: number;
  previous: number;
}

/** Where `history` is not newest last: each entry whose revision is not above the last revision logged before it. */
export function historyOrderBreaks(history: readonly unknown[]): HistoryOrderBreak[] {
  const breaks: HistoryOrderBreak[] = [];
  let previous: number | undefined;
  history.forEach((entry, index) => {
    const revision = historyRevision(entry);
    if (revision === undefined) return;
    if (previous !== undefined && revision <= previous) breaks.push({ index, revision, previous });
    previous = revision;
  });
  return breaks;
}

/** History trimmed oldest first to `maxHistory` entries (the newest kept, in order). */
export function trimHistory<T>(history: readonly T[], maxHistory: number = DEFAULT_MAX_HISTORY): T[] {
  return history.slice(Math.max(0, history.length - maxHistory));
}

// ---------------------------------------------------------------- predicates for judges

/** Is `count` within `cap` (an absent cap bounds nothing)? */
export function withinCap(count: number, cap: number | undefined): boolean {
  return cap === undefined || count <= cap;
}

/** Ids of pinned entries in `before` that `after` lost. */
export function pinnedLost(before: readonly Entry[], after: readonly Entry[]): string[] {
  const kept = new Set(after.map((e) => String(e['id'])));
  return before.filter((e) => isPinned(e) && !kept.has(String(e['id']))).map((e) => String(e['id']));
}

/** Ids of facts in `after` that had expired at `now` and so should have been dropped. */
export function expiredKept(after: readonly Entry[], retention: Retention, now: string): string[] {
  return after.filter((f) => factExpired(f, retention, now)).map((f) => String(f['id']));
}

/**
 * State injection (SPEC §3.9, security.md T4): state entries in a block framed by the stateFraming
 * rule (./rules/prompt.ts says how the reference frames it). Budgets (`max_state_tokens`,
 * `max_state_bytes`, the withinStateBudget rule) drop whole entries in the order of the
 * stateEvictionOrder rule, never pinned ones (nothing of the last one dropped stays: the
 * stateRemainder rule), and a harness notice inside the block tells the agent what was elided.
 */
import { type Eviction, factEvictionKey, timeOf } from '../../spec/semantics/index.js';
import { isObject, type JsonObject } from './json.js';
import type { Rules, StateEntry } from './rules.js';

export interface StateRender {
  text: string | null;
  included: string[];
  elided: string[];
  notice: string | null;
}

export type { Eviction };

/** `last`: the summary is the agent's self-briefing, evicted only after every other unpinned entry. `key`: facts and preferences by the spec model's key. */
interface Entry extends StateEntry {
  id: string;
  body: string;
}

export function renderState(
  state: unknown,
  budgets: { max_state_tokens: number | null; max_state_bytes: number | null },
  eviction: Eviction,
  vars: Record<string, string>,
  rules: Rules,
): StateRender {
  if (!isObject(state)) return { text: null, included: [], elided: [], notice: null };
  const entries = collectEntries(state);
  if (entries.length === 0) return { text: null, included: [], elided: [], notice: null };

  const framing = rules.stateFraming();
  const substituted = rules.substitutionTargets().includes('state');
  const lines = new Map<Entry, string>();
  for (const e of entries) {
    const body = substituted ? e.body.replace(/\$\{\{\s*vars\.([A-Za-z0-9_.-]+)\s*\}\}/g, (w, k: string) => vars[k] ?? w) : e.body;
    lines.set(e, framing.line(body));
  }
  const bytesOf = (list: Entry[]): number => list.reduce((n, e) => n + rules.stateBytes(`${lines.get(e)!}\n`), 0);
  const fits = (list: Entry[]): boolean => rules.withinStateBudget(bytesOf(list), budgets);

  let kept = [...entries];
  const elided: string[] = [];
  let lastGone: Entry | undefined;
  for (const i of rules.stateEvictionOrder(entries, eviction)) {
    if (fits(kept)) break;
    const victim = entries[i]!;
    kept = kept.filter((e) => e !== victim);
    elided.push(victim.id);
    lastGone = victim;
  }
  const used = bytesOf(kept);
  const remainder = lastGone && rules.stateRemainder(lines.get(lastGone)!, (n) => rules.withinStateBudget(used + n, budgets));
  if (lastGone && remainder !== undefined) {
    lines.set(lastGone, remainder);
    kept = entries.filter((e) => e === lastGone || kept.includes(e));
    elided.pop();
  }

  const notice =
    elided.length > 0
      ? `Harness notice: ${elided.length} state entr${elided.length === 1 ? 'y was' : 'ies were'} elided to fit the state budget (${elided.join(', ')}).`
      : null;
  const text = framing.block(
    kept.map((e) => ({ body: e.body, line: lines.get(e)! })),
    notice,
  );
  return { text, included: kept.map((e) => e.id), elided, notice };
}

function collectEntries(state: JsonObject): Entry[] {
  const out: Entry[] = [];
  const push = (e: Entry): void => {
    out.push(e);
  };
  if (typeof state['summary'] === 'string' && state['summary'] !== '') {
    push({
      id: 'summary',
      body: `summary: ${state['summary']}`,
      pinned: false,
      last: true,
      key: (eviction) => (eviction === 'least_confident' ? 1 : timeOf(state['updated_at'])),
    });
  }
  for (const [key, label] of [
    ['facts', 'fact'],
    ['preferences', 'preference'],
  ] as const) {
    const list = Array.isArray(state[key]) ? (state[key] as JsonObject[]) : [];
    for (const f of list) {
      const meta = [
        typeof f['confidence'] === 'number' ? `confidence ${f['confidence']}` : '',
        typeof f['source'] === 'string' ? `source: ${f['source']}` : '',
      ]
        .filter(Boolean)
        .join('; ');
      push({
        id: String(f['id']),
        body: `${label} ${String(f['id'])}${meta ? ` (${meta})` : ''}: ${String(f['text'])}`,
        pinned: f['pinned'] === true,
        last: false,
        key: (eviction) => factEvictionKey(f, eviction),
      });
    }
  }
  const threads = Array.isArray(state['open_threads']) ? (state['open_threads'] as JsonObject[]) : [];
  for (const t of threads) {
    push({
      id: String(t['id']),
      body: `open thread ${String(t['id'])} [${String(t['status'] ?? 'open')}]: ${String(t['title'])}${typeof t['detail'] === 'string' ? ` - ${t['detail']}` : ''}`,
      pinned: false,
      last: false,
      // Threads have no confidence: under least_confident they go first.
      key: (eviction) =>
        eviction === 'least_confident'
          ? -1
          : timeOf(eviction === 'oldest' ? (t['opened_at'] ?? t['updated_at']) : (t['updated_at'] ?? t['opened_at'])),
    });
  }
  const glossary = Array.isArray(state['glossary']) ? (state['glossary'] as JsonObject[]) : [];
  for (const g of glossary) {
    push({
      id: `glossary:${String(g['term'])}`,
      body: `glossary ${String(g['term'])}: ${String(g['definition'])}`,
      pinned: false,
      last: false,
      key: (eviction) => (eviction === 'least_confident' ? -1 : Number.NEGATIVE_INFINITY),
    });
  }
  return out;
}

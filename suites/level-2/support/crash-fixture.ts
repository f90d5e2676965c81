/**
 * The large profile and delta the crash and race cases use, built from the case seed, and the
 * classifier that says what a file left on disk after a kill is.
 *
 * Classes, judged with the oracle:
 *   pre      JCS-equal to the profile before the delta;
 *   post     every operation's effect present, every untouched entry intact, and the revision the
 *            uninterrupted calibration apply produced (so an L2-A10 defect does not look like a tear);
 *   partial  a complete, valid profile with only some of the delta's effects: an L2-A5 violation;
 *   torn     not parseable, not valid, or untouched data lost (a truncated write): an L2-A12 violation.
 * Keeping "partial" and "torn" apart is what lets an in-place writer fail only L2-A12 and a writer
 * that persists operations one by one fail only L2-A5.
 */
import { readFileSync } from 'node:fs';
import { entry, type Entry } from './builders.js';
import { isObject, jcsEqual, rng } from './common.js';
import { collection, revisionOf } from './apply.js';
import { readBack } from '../../support/index.js';

export const CRASH_NAME = 'l2-crash';

export interface CrashFixture {
  pre: Record<string, unknown>;
  delta: Record<string, unknown>;
  adds: Entry[];
  /** fact id → replaced text */
  replaced: Map<string, string>;
}

const TOPICS = ['billing', 'search', 'ingest', 'auth', 'cache', 'queue', 'export', 'render'];

export function crashFixture(seed: number, facts = 2000, adds = 150, replaces = 100): CrashFixture {
  const r = rng(seed);
  const word = (): string => TOPICS[Math.floor(r() * TOPICS.length)]!;
  const list: Entry[] = Array.from({ length: facts }, (_, i) =>
    entry(`fact-${String(i).padStart(5, '0')}`, `The ${word()} service talks to ${word()} through queue ${Math.floor(r() * 1e6)}.`, {
      confidence: Math.round(r() * 100) / 100,
      learned_at: new Date(Date.UTC(2029, 0, 1) + i * 60_000).toISOString().replace('.000Z', 'Z'),
    }),
  );
  const pre = {
    oap: '1.0',
    kind: 'AgentProfile',
    metadata: { name: CRASH_NAME, description: 'A large profile that is written while the adapter is killed.', revision: 10 },
    spec: { role: { instructions: 'You keep many facts.' }, lifecycle: { writeback: 'auto' } },
    state: {
      facts: list,
      preferences: [entry('pref-tail-1', 'Untouched preference after the facts.')],
      open_threads: [{ id: 'thread-tail-1', title: 'Untouched thread after the facts.', status: 'open' }],
    },
    history: [
      { revision: 9, at: '2030-01-01T00:00:00Z', by: 'earlier', sections: ['state'] },
      { revision: 10, at: '2030-01-02T00:00:00Z', by: 'earlier', sections: ['state'] },
    ],
  };
  const newFacts = Array.from({ length: adds }, (_, i) => entry(`fact-new-${i}`, `New fact ${i} about the ${word()} service.`));
  const replaced = new Map<string, string>();
  const ops: Record<string, unknown>[] = newFacts.map((e) => ({ op: 'add', path: '/state/facts/-', value: e }));
  const picked = new Set<number>();
  while (picked.size < replaces) picked.add(Math.floor(r() * facts));
  for (const i of [...picked].sort((a, b) => a - b)) {
    const text = `Replaced text for fact ${i}.`;
    replaced.set(list[i]!.id, text);
    ops.push({ op: 'replace', path: `/state/facts/${i}/text`, value: text });
  }
  const delta = {
    oap: '1.0',
    kind: 'AgentStateDelta',
    target: { name: CRASH_NAME, revision: 10 },
    session: { id: 'sess-crash', outcome: 'completed' },
    operations: ops,
  };
  return { pre, delta, adds: newFacts, replaced };
}

export type CrashClass = 'pre' | 'post' | 'partial' | 'torn';

export interface Classified {
  cls: CrashClass;
  detail: Record<string, unknown>;
}

export function classify(path: string, fx: CrashFixture, postRevision: number | undefined): Classified {
  const read = readBack(path);
  if (!read.ok || !read.doc) {
    return { cls: 'torn', detail: { bytes: safeSize(path), issues: read.issues.slice(0, 3).map((i) => i.code) } };
  }
  const doc = read.doc;
  if (jcsEqual(doc, fx.pre)) return { cls: 'pre', detail: {} };
  const preFacts = (fx.pre.state as { facts: Entry[] }).facts;
  const byId = new Map(collection(doc, 'facts').map((f) => [String(f.id), f]));
  // Untouched data lost = the file lost bytes it should have kept: a tear, not an ops-level issue.
  const lostUntouched = preFacts.filter((f) => !fx.replaced.has(f.id) && !jcsEqual(byId.get(f.id) ?? null, f)).length;
  const tailLost =
    !jcsEqual(collection(doc, 'preferences'), collection(fx.pre, 'preferences')) ||
    !jcsEqual(collection(doc, 'open_threads'), collection(fx.pre, 'open_threads')) ||
    !(Array.isArray(doc.history) && (fx.pre.history as unknown[]).every((h) => (doc.history as unknown[]).some((x) => jcsEqual(x, h))));
  if (lostUntouched > 0 || tailLost) return { cls: 'torn', detail: { lostUntouched, tailLost } };
  const adds = fx.adds.filter((e) => jcsEqual(byId.get(e.id) ?? null, e)).length;
  const reps = [...fx.replaced].filter(([id, text]) => isObject(byId.get(id)) && byId.get(id)!.text === text).length;
  const all = adds === fx.adds.length && reps === fx.replaced.size;
  const revision = revisionOf(doc);
  if (all && (postRevision === undefined || revision === postRevision)) return { cls: 'post', detail: { revision } };
  return { cls: 'partial', detail: { adds, reps, of: { adds: fx.adds.length, reps: fx.replaced.size }, revision } };
}

function safeSize(path: string): number {
  try {
    return readFileSync(path).length;
  } catch {
    return -1;
  }
}

/**
 * Builders for the documents Level 2 cases need: profiles with state, state entries, and deltas.
 * Everything produced here is schema-valid unless a case breaks it on purpose.
 */
import { clone } from './common.js';
import { minimalProfile } from '../../support/index.js';

export interface Entry {
  id: string;
  text: string;
  confidence?: number;
  source?: string;
  learned_at?: string;
  last_used_at?: string;
  pinned?: boolean;
  tags?: string[];
}

export function entry(id: string, text: string, extra: Partial<Entry> = {}): Entry {
  return { id, text, ...extra };
}

export interface ProfileOptions {
  revision?: number;
  /** `null` = leave `spec.lifecycle.writeback` absent (the default, propose). */
  writeback?: 'off' | 'propose' | 'auto' | null;
  retention?: Record<string, unknown>;
  state?: Record<string, unknown>;
  history?: Record<string, unknown>[];
  spec?: Record<string, unknown>;
  updatedAt?: string;
}

/** A profile at a known revision, with lifecycle settings and optional state and history. */
export function profile(name: string, o: ProfileOptions = {}): Record<string, unknown> {
  const lifecycle: Record<string, unknown> = {};
  if (o.writeback !== null) lifecycle.writeback = o.writeback ?? 'auto';
  if (o.retention) lifecycle.retention = o.retention;
  const spec: Record<string, unknown> = {
    tools: { allow: ['read', 'search', 'edit'] },
    ...(Object.keys(lifecycle).length ? { lifecycle } : {}),
    ...(o.spec ?? {}),
  };
  const doc = minimalProfile(name, spec, {
    ...(o.state ? { state: clone(o.state) } : {}),
    ...(o.history ? { history: clone(o.history) } : {}),
  });
  const meta = doc.metadata as Record<string, unknown>;
  meta.revision = o.revision ?? 1;
  if (o.updatedAt) meta.updated_at = o.updatedAt;
  return doc;
}

export interface DeltaOptions {
  revision: number;
  digest?: string;
  sessionId?: string;
  proposals?: Record<string, unknown>[];
  summary?: string;
}

export function delta(name: string, operations: Record<string, unknown>[], o: DeltaOptions): Record<string, unknown> {
  return {
    oap: '1.0',
    kind: 'AgentStateDelta',
    target: { name, revision: o.revision, ...(o.digest ? { digest: o.digest } : {}) },
    session: { id: o.sessionId ?? `sess-${name}`, harness: 'oap-conform', ended_at: '2030-03-01T10:00:00Z', outcome: 'completed' },
    ...(o.summary ? { summary: o.summary } : {}),
    operations,
    ...(o.proposals ? { proposals: o.proposals } : {}),
  };
}

/** `add /state/facts/-` of a new fact: appends, addressed by a fresh id, rebases cleanly. */
export function addFact(e: Entry, reason = 'learned in session'): Record<string, unknown> {
  return { op: 'add', path: '/state/facts/-', value: e, reason };
}

/** A fixed apply time far from the wall clock, so "set to now" is distinguishable from "left alone". */
export const APPLY_NOW = '2031-05-06T07:08:09Z';

/** Facts with distinct, ordered timestamps and confidences; `i` = 0 is the oldest. */
export function datedFacts(prefix: string, count: number, startYear = 2020): Entry[] {
  return Array.from({ length: count }, (_, i) =>
    entry(`${prefix}-${i}`, `${prefix} fact number ${i} about the build.`, {
      learned_at: `${startYear + i}-01-15T12:00:00Z`,
      last_used_at: `${startYear + i}-02-15T12:00:00Z`,
      confidence: 0.5,
    }),
  );
}

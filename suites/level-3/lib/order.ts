/**
 * The orders the narrowing rule is defined on (SPEC 7.2): deny < ask < allow for decisions,
 * set inclusion for names, path containment for filesystem roots, `null` = unbounded for budgets.
 * Level 3 cases compare OBSERVED contracts with each other through these orders, so that a bug
 * in plain Level 1 narrowing shows up identically on both sides and does not leak into an L3 verdict.
 */
import { posix } from 'node:path';
import type { DecisionT, EffectiveContractT } from '../../../adapters/protocol/messages.js';

const RANK: Record<DecisionT, number> = { deny: 0, ask: 1, allow: 2 };

export function rank(d: DecisionT): number {
  return RANK[d];
}

export function minDecision(a: DecisionT, b: DecisionT): DecisionT {
  return RANK[a] <= RANK[b] ? a : b;
}

export function atMost(a: DecisionT, b: DecisionT): boolean {
  return RANK[a] <= RANK[b];
}

export function sorted(xs: Iterable<string>): string[] {
  return [...new Set(xs)].sort();
}

export function intersect(a: Iterable<string>, b: Iterable<string>): string[] {
  const bs = new Set(b);
  return sorted([...a].filter((x) => bs.has(x)));
}

export function minus(a: Iterable<string>, b: Iterable<string>): string[] {
  const bs = new Set(b);
  return sorted([...a].filter((x) => !bs.has(x)));
}

export function sameSet(a: Iterable<string>, b: Iterable<string>): boolean {
  const x = sorted(a);
  const y = sorted(b);
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

/** Workspace-relative root in a comparable form: `.`, `./src/`, `src` → `.`, `src`, `src`. */
export function normRoot(p: string): string {
  const n = posix.normalize(p.replace(/\\/g, '/')).replace(/\/+$/, '');
  return n === '' ? '.' : n.replace(/^\.\//, '');
}

export function within(child: string, parent: string): boolean {
  const c = normRoot(child);
  const p = normRoot(parent);
  return p === '.' || c === p || c.startsWith(`${p}/`);
}

/** A set of roots is covered by another when each of its roots lies inside one of the other's. */
export function rootsWithin(roots: readonly string[], ceiling: readonly string[]): boolean {
  return roots.every((r) => ceiling.some((c) => within(r, c)));
}

/** Budget bound: `null` is unbounded, so `a ≤ b` holds when b is null or both are numbers with a ≤ b. */
export function budgetAtMost(a: number | null, b: number | null): boolean {
  if (b === null) return true;
  return a !== null && a <= b;
}

export const DECISION_FIELDS = ['default', 'shell', 'edit', 'network'] as const;

/**
 * Every place where `a` is more permissive than `b`, as pointer-like labels. Empty means `a` ≤ `b`
 * on decisions, tools, roots, hosts, memory scopes and budgets (the fields L1-I3 narrows).
 */
export function widenings(a: EffectiveContractT, b: EffectiveContractT): string[] {
  const out: string[] = [];
  for (const f of DECISION_FIELDS) if (!atMost(a.permissions[f], b.permissions[f])) out.push(`/permissions/${f}`);
  for (const t of minus(a.tools, b.tools)) out.push(`/tools/${t}`);
  if (!rootsWithin(a.filesystem.read_roots, b.filesystem.read_roots)) out.push('/filesystem/read_roots');
  if (!rootsWithin(a.filesystem.write_roots, b.filesystem.write_roots)) out.push('/filesystem/write_roots');
  for (const h of minus(a.hosts, b.hosts)) out.push(`/hosts/${h}`);
  for (const s of minus(a.memory.scopes, b.memory.scopes)) out.push(`/memory/scopes/${s}`);
  for (const [k, v] of Object.entries(a.budgets) as Array<[keyof EffectiveContractT['budgets'], number | null]>) {
    if (!budgetAtMost(v, b.budgets[k])) out.push(`/budgets/${k}`);
  }
  return out;
}

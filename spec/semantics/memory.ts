/**
 * Memory modes and scopes (SPEC §3.7, §7.2).
 *
 * Reading (INTERPRETATIONS.md#memory): modes are ordered
 * off < read_only < read_write and narrow like decisions (§7.2 "memory scopes" among the things a
 * profile may only reduce). "`mode` is the ceiling for the whole section" (§3.7), so every store's
 * mode is capped by the effective section mode. An absent `mode` is the schema default
 * `read_only`. Scopes are exact strings: "`scopes` names the namespaces the agent may touch"
 * (§3.7) and nothing in the spec gives them a pattern syntax, so a scope is covered only by the
 * same string.
 */
import type { Reasoned } from './reasoned.js';

export type MemoryMode = 'off' | 'read_only' | 'read_write';

/** Every mode, from the most restrictive to the most permissive. */
export const MEMORY_MODES: readonly MemoryMode[] = ['off', 'read_only', 'read_write'];

/** `spec.memory.mode` and `stores[].mode` when absent (agent-profile.schema.json `default`). */
export const DEFAULT_MEMORY_MODE: MemoryMode = 'read_only';

const RANK: Readonly<Record<MemoryMode, number>> = { off: 0, read_only: 1, read_write: 2 };

export function minMemoryMode(first: MemoryMode, ...rest: MemoryMode[]): MemoryMode {
  return rest.reduce((a, b) => (RANK[b] < RANK[a] ? b : a), first);
}

export function memoryAtMost(m: MemoryMode, ceiling: MemoryMode): boolean {
  return RANK[m] <= RANK[ceiling];
}

export function memoryExceeds(a: MemoryMode, b: MemoryMode): boolean {
  return RANK[a] > RANK[b];
}

/** The section's effective mode: min(requested, or the schema default when absent; ceiling). */
export function effectiveMemoryMode(requested: MemoryMode | undefined, ceiling: MemoryMode): Reasoned<MemoryMode> {
  const asked = requested ?? DEFAULT_MEMORY_MODE;
  const value = minMemoryMode(asked, ceiling);
  const reasons: string[] = [];
  if (requested === undefined) reasons.push(`mode absent: the schema default ${DEFAULT_MEMORY_MODE} is requested`);
  if (memoryExceeds(asked, value)) reasons.push(`mode ${asked} limited to ${value} by the ceiling`);
  return { value, reasons };
}

/** A store's effective mode: its own (schema default when absent), capped by the section mode. */
export function storeModeCap(storeMode: MemoryMode | undefined, sectionMode: MemoryMode): MemoryMode {
  return minMemoryMode(storeMode ?? DEFAULT_MEMORY_MODE, sectionMode);
}

/** Scopes in `scopes` that `allowed` does not contain (exact strings), in their order. */
export function scopesBeyond(scopes: readonly string[], allowed: readonly string[]): string[] {
  const ok = new Set(allowed);
  return scopes.filter((s) => !ok.has(s));
}

/**
 * The scopes a session may touch: the requested ones the ceiling contains, or the ceiling's when
 * the profile requests none (an absent list asks for nothing narrower).
 */
export function effectiveScopes(requested: readonly string[] | undefined, ceiling: readonly string[]): Reasoned<string[]> {
  if (requested === undefined) return { value: [...ceiling], reasons: [] };
  const denied = scopesBeyond(requested, ceiling);
  return {
    value: requested.filter((s) => !denied.includes(s)),
    reasons: denied.map((s) => `scope ${s} is not permitted by the ceiling`),
  };
}

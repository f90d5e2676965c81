/**
 * `spec.lifecycle.writeback` (SPEC §3.8; conformance.md L2-A6, L2-A7).
 *
 * Reading (INTERPRETATIONS.md#writeback): the value is read from
 * `spec.lifecycle.writeback` and defaults to `propose` ("`propose` (default)", §3.8; L2-A6
 * "defaulting to `propose` when absent"). `off` discards deltas, `propose` applies state
 * operations only with human approval, `auto` applies them without; proposals are never applied
 * automatically under any value (§6.4, L2-A7).
 */

export type Writeback = 'off' | 'propose' | 'auto';

const WRITEBACK_MODES: readonly Writeback[] = ['off', 'propose', 'auto'];

/** `spec.lifecycle.writeback` when absent. */
export const DEFAULT_WRITEBACK: Writeback = 'propose';

/** The profile's writeback mode, from its `spec` (an unknown value reads as absent). */
export function writebackOf(spec: unknown): Writeback {
  const s = typeof spec === 'object' && spec !== null ? (spec as Record<string, unknown>) : {};
  const lifecycle = s['lifecycle'];
  const v = typeof lifecycle === 'object' && lifecycle !== null ? (lifecycle as Record<string, unknown>)['writeback'] : undefined;
  return (WRITEBACK_MODES as readonly unknown[]).includes(v) ? (v as Writeback) : DEFAULT_WRITEBACK;
}

/** What an applicator does with a delta's state operations under `mode`. */
export function operationsOutcome(mode: Writeback, approved: boolean): 'discarded' | 'queued' | 'applied' {
  if (mode === 'off') return 'discarded';
  if (mode === 'propose' && !approved) return 'queued';
  return 'applied';
}

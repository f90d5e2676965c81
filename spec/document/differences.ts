import diff from 'microdiff';
import { pointerOf } from '../semantics/pointer.js';

/**
 * Where an observation departs from its expectation: one entry per differing leaf, each with an
 * RFC 6901 pointer, computed once when a failure is recorded and rendered by every format
 * (`/budgets/max_tool_calls: 10 vs 100`, not two whole objects). microdiff walks both values and
 * reports created, removed and changed paths; a scalar or a type mismatch at the top is one
 * difference at the root pointer `""`.
 */
export function differencesOf(expected: unknown, observed: unknown): Difference[] {
  if (expected === undefined && observed === undefined) return [];
  if (isContainer(expected) && isContainer(observed) && Array.isArray(expected) === Array.isArray(observed)) {
    return diff(expected, observed).map((d) => {
      const pointer = pointerOf(d.path);
      if (d.type === 'CREATE') return { pointer, observed: d.value };
      if (d.type === 'REMOVE') return { pointer, expected: d.oldValue };
      return { pointer, expected: d.oldValue, observed: d.value };
    });
  }
  if (Object.is(expected, observed)) return [];
  return [{ pointer: '', ...(expected !== undefined ? { expected } : {}), ...(observed !== undefined ? { observed } : {}) }];
}

/** One differing place between the expectation and the observation (RFC 6901 pointer). */
export interface Difference {
  pointer: string;
  expected?: unknown;
  observed?: unknown;
}

function isContainer(v: unknown): v is Record<string, unknown> | unknown[] {
  return typeof v === 'object' && v !== null;
}

import { isDeepStrictEqual } from 'node:util';
import { type CompareOptions, type Difference, describeDifference, differencesOf } from '../../spec/document/differences.js';
import { CheckFailure } from './errors.js';

/**
 * Assertions for cases. Each failure carries the structured expectation and observation. Given how
 * the values compare (their shape and where they sit, e.g. spec/semantics `contractComparison`),
 * the differences are computed here in those terms and the message names the first; otherwise the
 * engine computes them from the two values.
 */
export function expectEqual<T>(observed: T, expected: T, what: string, comparison?: CompareOptions): void {
  if (isDeepStrictEqual(observed, expected)) return;
  if (comparison === undefined)
    throw new CheckFailure(`${what}: expected ${short(expected)}, observed ${short(observed)}`, expected, observed);
  const differences = differencesOf(expected, observed, comparison);
  const first = differences[0];
  const more = differences.length > 1 ? ` (+${differences.length - 1} more)` : '';
  throw new CheckFailure(
    first
      ? `${what}: ${describeDifference(first, (v) => (v === undefined ? '(absent)' : short(v, 80)))}${more}`
      : `${what}: expected ${short(expected)}, observed ${short(observed)}`,
    expected,
    observed,
    differences,
  );
}

export function expectTrue(condition: boolean, what: string, evidence?: { expected?: unknown; observed?: unknown }): asserts condition {
  if (!condition) throw new CheckFailure(what, evidence?.expected, evidence?.observed);
}

export function fail(what: string, expected?: unknown, observed?: unknown): never {
  throw new CheckFailure(what, expected, observed);
}

/** Fail with the differences a spec rule already computed (each `{pointer, expected, observed}`). */
export function failWithDifferences(what: string, differences: readonly Difference[], expected?: unknown, observed?: unknown): never {
  throw new CheckFailure(what, expected, observed, differences);
}

function short(value: unknown, max = 160): string {
  let s: string;
  try {
    s = JSON.stringify(value) ?? String(value);
  } catch {
    s = String(value);
  }
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

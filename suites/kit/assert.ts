import { isDeepStrictEqual } from 'node:util';
import { type CompareOptions, type Difference, describeDifference, differencesOf } from '../../spec/document/differences.js';
import { CheckFailure } from './errors.js';

/**
 * Assertions for cases. Each failure carries the structured expectation and observation, and the
 * differences between them, computed here in the data's own terms (with `comparison`, the shape and
 * place the values have, e.g. spec/semantics `contractComparison`; else inferred from the values).
 * When they differ in more than one place, the message names the first, as the evidence has it: a
 * scalar reads `expected X, observed Y`, anything else `/where: X vs Y (+N more)`.
 */
export function expectEqual<T>(observed: T, expected: T, what: string, comparison?: CompareOptions): void {
  if (isDeepStrictEqual(observed, expected)) return;
  const differences = differencesOf(expected, observed, comparison);
  const first = differences[0];
  const whole =
    first === undefined ||
    (first.pointer === (comparison?.at ?? '') && first.extra === undefined && first.missing === undefined && first.line === undefined);
  const more = differences.length > 1 ? ` (+${differences.length - 1} more)` : '';
  throw new CheckFailure(
    whole
      ? `${what}: expected ${short(expected)}, observed ${short(observed)}`
      : `${what}: ${describeDifference(first, (v) => (v === undefined ? '(absent)' : short(v, 80)))}${more}`,
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

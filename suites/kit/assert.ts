import { isDeepStrictEqual } from 'node:util';
import { CheckFailure } from './errors.js';

/** Assertions for cases. Each failure carries the structured expectation and observation. */
export function expectEqual<T>(observed: T, expected: T, what: string): void {
  if (!isDeepStrictEqual(observed, expected)) {
    throw new CheckFailure(`${what}: expected ${short(expected)}, observed ${short(observed)}`, expected, observed);
  }
}

export function expectTrue(condition: boolean, what: string, evidence?: { expected?: unknown; observed?: unknown }): asserts condition {
  if (!condition) throw new CheckFailure(what, evidence?.expected, evidence?.observed);
}

export function fail(what: string, expected?: unknown, observed?: unknown): never {
  throw new CheckFailure(what, expected, observed);
}

/** Fail with the differences a spec rule already computed (each `{pointer, expected, observed}`). */
export function failWithDifferences(
  what: string,
  differences: readonly { pointer: string; expected?: unknown; observed?: unknown }[],
  expected?: unknown,
  observed?: unknown,
): never {
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

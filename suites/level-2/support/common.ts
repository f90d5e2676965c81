/**
 * Small helpers the Level 2 cases share: deterministic randomness, canonical comparison, and
 * timestamps. Ending a case inconclusive is suites/support's `inconclusive`.
 */
import { fixture, fixtureDocument } from '../../../fixtures/index.js';
import { canonicalJson } from '../../../spec/document/index.js';

function jcs(value: unknown): string {
  return canonicalJson(value);
}

export function jcsEqual(a: unknown, b: unknown): boolean {
  return jcs(a) === jcs(b);
}

export function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Seeded from ctx.seed: spreads kill moments reproducibly. */
export { mulberry32 as rng } from '../../kit/random.js';

/** Two RFC 3339 strings denote the same instant (adapters may reformat the `now` we pass). */
export function sameInstant(a: unknown, b: string): boolean {
  if (typeof a !== 'string') return false;
  const x = Date.parse(a);
  return Number.isFinite(x) && x === Date.parse(b);
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A Level 2 fixture's document as data (a fresh copy each call). */
export function fixtureDoc(id: string): Record<string, unknown> {
  return fixtureDocument(fixture('level-2', id));
}

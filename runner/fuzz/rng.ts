import { createHash } from 'node:crypto';

/**
 * Seeds for everything the fuzzer generates. Nothing here reads the clock or Math.random: a seed
 * and a label give the same number on any machine, so a run is reproducible from its seed alone.
 */
export function deriveSeed(seed: number, label: string): number {
  // fast-check takes a 32-bit signed seed; keep it positive so it prints the same everywhere.
  return createHash('sha256').update(`${seed >>> 0}:${label}`).digest().readUInt32BE(0) & 0x7fffffff;
}

/** mulberry32: a tiny, well-distributed 32-bit PRNG, for generators that want a `() => number`. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

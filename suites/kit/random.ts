import { createHash } from 'node:crypto';

/**
 * The one seeded PRNG of the suite, fuzzer included: mulberry32, a tiny, well-distributed 32-bit
 * generator. Nothing in a case reads the clock or Math.random; a case seed gives the same sequence
 * on any machine, so every generated input is reproducible from the run seed and the case ID.
 */
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

/** Deterministic per-case seed: the same run seed and case ID give the same seed on any machine. */
export function caseSeed(runSeed: number, caseId: string): number {
  return createHash('sha256').update(`${runSeed}:${caseId}`).digest().readUInt32BE(0);
}

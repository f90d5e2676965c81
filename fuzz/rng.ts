import { caseSeed } from '../suites/kit/random.js';

/**
 * Seeds for everything the fuzzer generates. Nothing here reads the clock or Math.random: a seed
 * and a label give the same number on any machine, so a run is reproducible from its seed alone.
 */
export function deriveSeed(seed: number, label: string): number {
  // The suite's per-case seed, kept positive: fast-check takes a 32-bit signed seed.
  return caseSeed(seed >>> 0, label) & 0x7fffffff;
}

import { createHash } from 'node:crypto';

/**
 * Seeds for everything the fuzzer generates. Nothing here reads the clock or Math.random: a seed
 * and a label give the same number on any machine, so a run is reproducible from its seed alone.
 */
export function deriveSeed(seed: number, label: string): number {
  // fast-check takes a 32-bit signed seed; keep it positive so it prints the same everywhere.
  return createHash('sha256').update(`${seed >>> 0}:${label}`).digest().readUInt32BE(0) & 0x7fffffff;
}

export { mulberry32 } from '../../suites/framework/random.js';

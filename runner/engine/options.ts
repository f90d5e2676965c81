import { InvalidArgumentError } from 'commander';
import { ACCOMMODATION_NAMES, type Accommodation, isAccommodation } from '../../suites/kit/accommodations.js';

/** Commander argument parsers for the engine's flags: each rejects bad input with a one-line reason. */
export function parseIntIn(name: string, min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
      throw new InvalidArgumentError(`${name} must be an integer from ${min} to ${max}`);
    }
    return n;
  };
}

export function parseLevel(value: string): 1 | 2 | 3 {
  if (value !== '1' && value !== '2' && value !== '3') throw new InvalidArgumentError('--level must be 1, 2 or 3');
  return Number(value) as 1 | 2 | 3;
}

export function parseList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** `--seed N` (0 to 2^32-1) or `--seed random`. */
export function parseSeed(value: string): number | 'random' {
  if (value.trim() === 'random') return 'random';
  try {
    return parseIntIn('--seed', 0, 2 ** 32 - 1)(value);
  } catch {
    throw new InvalidArgumentError('--seed must be an integer from 0 to 4294967295, or random');
  }
}

/** `--accommodate LIST`: accommodation names, comma-separated (`none` for none), each one known. */
export function parseAccommodations(value: string): Accommodation[] {
  const names = value.trim() === 'none' ? [] : parseList(value);
  const unknown = names.find((n) => !isAccommodation(n));
  if (unknown !== undefined)
    throw new InvalidArgumentError(`unknown accommodation ${unknown}; known: ${ACCOMMODATION_NAMES.join(', ')} (or none)`);
  return [...new Set(names)] as Accommodation[];
}

import { hasOwn, isPlainObject } from './json-data.js';

/** A pattern step: an exact key, `*` for any key or index, or a set of alternative keys. */
type PatternStep = string | readonly string[];

export type PatternPath = readonly PatternStep[];

function stepMatches(step: PatternStep, token: string): boolean {
  if (typeof step === 'string') return step === '*' || step === token;
  return step.includes(token);
}

/**
 * Visits every value of `root` that sits at `pattern`, where `root` itself sits at `base` in the
 * document. With an empty base this selects inside a whole document; with a delta proposal's
 * path as base it selects inside the proposed value, so one rule table serves both.
 * `relative` is the token path from `root` to the visited value.
 */
export function selectPattern(
  root: unknown,
  base: readonly string[],
  pattern: PatternPath,
  visit: (value: unknown, relative: ReadonlyArray<string | number>, absolute: readonly string[]) => void,
): void {
  if (base.length > pattern.length) return;
  for (let i = 0; i < base.length; i++) if (!stepMatches(pattern[i]!, base[i]!)) return;
  const descend = (value: unknown, depth: number, relative: Array<string | number>, absolute: string[]): void => {
    if (depth === pattern.length) {
      visit(value, relative, absolute);
      return;
    }
    const step = pattern[depth]!;
    if (Array.isArray(value)) {
      if (step !== '*') return;
      value.forEach((item, i) => {
        descend(item, depth + 1, [...relative, i], [...absolute, String(i)]);
      });
    } else if (isPlainObject(value)) {
      const keys =
        typeof step === 'string' && step !== '*'
          ? hasOwn(value, step)
            ? [step]
            : []
          : Object.keys(value).filter((k) => stepMatches(step, k));
      for (const key of keys) descend(value[key], depth + 1, [...relative, key], [...absolute, key]);
    }
  };
  descend(root, base.length, [], [...base]);
}

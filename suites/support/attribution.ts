/**
 * Attribution by difference. A failure of a feature's ID (composition, delegation, MCP, skills,
 * memory stores) must be due to the feature: the case judges the feature's input and its
 * feature-free equivalent (the flattened profile, a layer on its own, the parent itself) with the
 * same judge, and compares what the judge found on each. A violation that shows on the equivalent
 * too is the base ID's (a narrowing miss that happens without `extends` is L1-I3's, not L3-E2's):
 * the feature's case is inconclusive for that input, naming the base ID as the one to fix first.
 * Only what the feature input shows and its equivalent does not is the feature's failure.
 *
 * A violation is the judge's difference at one place: two are the same when they are at the same
 * pointer with the same observed value (`sameViolation`), whatever the input was.
 */
import { isDeepStrictEqual } from 'node:util';
import { CaseInconclusive } from '../kit/errors.js';

export interface Violation {
  /** Where, in the judged answer (`/permissions/shell`, `/hosts/evil.example.com`). */
  pointer: string;
  /** What the answer says there. */
  observed?: unknown;
}

function sameViolation(a: Violation, b: Violation): boolean {
  return a.pointer === b.pointer && isDeepStrictEqual(a.observed, b.observed);
}

export interface Attributed<V extends Violation> {
  /** The feature's own: violations its equivalent does not show. */
  own: V[];
  /** Shown on the equivalent too: the base ID's. */
  shared: V[];
}

/** Split the feature input's violations by whether the equivalent shows the same one. */
export function attribute<V extends Violation>(feature: readonly V[], equivalent: readonly Violation[]): Attributed<V> {
  const own: V[] = [];
  const shared: V[] = [];
  for (const v of feature) (equivalent.some((e) => sameViolation(v, e)) ? shared : own).push(v);
  return { own, shared };
}

export interface ByDifference {
  /** The feature's ID (L3-E2) and the base ID a shared violation belongs to (L1-I3). */
  feature: string;
  base: string;
  /** The feature-free equivalent, in words: `the flattened profile`. */
  equivalent: string;
}

/**
 * The violations of the feature input that are the feature's own. When there are violations and
 * every one shows on the equivalent as well, the case cannot judge the feature on this input: it
 * ends inconclusive, its cause the shared violations and `base` the ID to fix first. The equivalent
 * is judged only when the feature input shows a violation (it costs requests).
 */
export async function featureOwn<V extends Violation>(
  feature: readonly V[],
  equivalent: () => Promise<readonly Violation[]> | readonly Violation[],
  at: ByDifference,
): Promise<V[]> {
  if (feature.length === 0) return [];
  const { own, shared } = attribute(feature, await equivalent());
  if (own.length === 0) {
    const where = shared.map((v) => v.pointer).join(', ');
    throw new CaseInconclusive(
      `the same violation shows on ${at.equivalent}, without the feature: ${at.base}'s failure, not ${at.feature}'s (at ${where})`,
      `${at.equivalent} violates at ${where} as well`,
      at.base,
    );
  }
  return own;
}

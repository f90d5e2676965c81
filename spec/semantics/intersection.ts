/**
 * Intersecting a profile's filesystem roots or network hosts with a ceiling's (SPEC §7.2 "filesystem
 * roots", "network hosts"; conformance.md L1-I3, L1-I9).
 *
 * Reading (INTERPRETATIONS.md#roots, INTERPRETATIONS.md#hosts): "The effective value is always the
 * more restrictive of profile and policy", and a root or host list means the set of paths or hosts
 * it covers. So each requested entry is taken in order: an entry inside some ceiling entry is kept
 * as requested (its spelling included); otherwise the ceiling entries inside it are what is left of
 * it (the entry is narrowed to them); otherwise nothing is left (it is dropped). Narrowed and dropped
 * entries are the adjustments L1-I9 asks a harness to record, by index into the request. A request
 * that names nothing (roots absent; hosts absent or empty, which the schema reads as the harness
 * default) asks for nothing narrower and gets the ceiling's list.
 *
 * | requested        | ceiling          | value                   | adjustment       |
 * | ---------------- | ---------------- | ----------------------- | ---------------- |
 * | `src/a`          | `src`            | `src/a`                 | none             |
 * | `.`              | `src`, `docs`    | `src`, `docs`           | narrowed         |
 * | `../x`           | `.`              | nothing                 | dropped          |
 * | `a.example.net`  | `*.example.net`  | `a.example.net`         | none             |
 * | `*.example.net`  | `a.example.net`  | `a.example.net`         | narrowed         |
 */
import { hostCovered, requestedHosts } from './host.js';
import { rootWithin } from './path.js';

/** What intersection did to one requested entry that it did not keep as it was. */
type IntersectionAdjustment =
  | { index: number; requested: string; action: 'narrowed'; effective: string[]; reason: string }
  | { index: number; requested: string; action: 'dropped'; reason: string };

/** The entries a session gets, and what became of the requested entries that were not kept. */
export interface Intersection {
  value: string[];
  adjustments: IntersectionAdjustment[];
}

function intersect(
  requested: readonly string[],
  limit: readonly string[],
  within: (inner: string, outer: string) => boolean,
  reasons: { narrowed: string; dropped: string },
): Intersection {
  const value: string[] = [];
  const adjustments: IntersectionAdjustment[] = [];
  requested.forEach((r, index) => {
    if (limit.some((q) => within(r, q))) {
      value.push(r);
      return;
    }
    const inner = limit.filter((q) => within(q, r));
    if (inner.length > 0) {
      value.push(...inner);
      adjustments.push({ index, requested: r, action: 'narrowed', effective: inner, reason: reasons.narrowed });
    } else adjustments.push({ index, requested: r, action: 'dropped', reason: reasons.dropped });
  });
  return { value: [...new Set(value)], adjustments };
}

/**
 * The requested filesystem roots intersected with the ceiling's (undefined = none requested).
 * Entries are compared by meaning (spec/semantics/path.ts `rootWithin`); kept entries keep their
 * spelling, so a caller that wants normal forms passes normal forms.
 */
export function intersectRoots(requested: readonly string[] | undefined, limit: readonly string[], workspace?: string): Intersection {
  if (requested === undefined) return { value: [...limit], adjustments: [] };
  return intersect(requested, limit, (inner, outer) => rootWithin(inner, outer, workspace), {
    narrowed: 'only the parts inside the permitted roots',
    dropped: 'outside every permitted root',
  });
}

/** A profile's `allow_hosts` intersected with the ceiling's hosts (absent or empty = the ceiling's). */
export function intersectHosts(allowHosts: readonly string[] | undefined, limit: readonly string[]): Intersection {
  const requested = requestedHosts(allowHosts);
  if (requested === undefined) return { value: [...limit], adjustments: [] };
  return intersect(requested, limit, hostCovered, { narrowed: 'only the hosts the ceiling allows', dropped: 'host not allowed' });
}

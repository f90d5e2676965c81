/**
 * Set helpers for comparing observed name lists (tools, scopes, hosts as spelled). The orders the
 * narrowing rule is defined on are the spec model's (spec/semantics); these only compare lists.
 */

export function sorted(xs: Iterable<string>): string[] {
  return [...new Set(xs)].sort();
}

export function intersect(a: Iterable<string>, b: Iterable<string>): string[] {
  const bs = new Set(b);
  return sorted([...a].filter((x) => bs.has(x)));
}

export function sameSet(a: Iterable<string>, b: Iterable<string>): boolean {
  const x = sorted(a);
  const y = sorted(b);
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

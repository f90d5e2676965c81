/**
 * The runner's own reading of the ceilings a harness policy and a profile express, used to judge
 * effective contracts by meaning rather than by spelling: two root lists are the same ceiling when
 * they allow the same paths, whatever their order or redundancy. Each judgement probes a fixed set
 * of concrete paths, hosts or scopes chosen by the case.
 */
import picomatch from 'picomatch';

export type DecisionName = 'deny' | 'ask' | 'allow';

const RANK: Record<DecisionName, number> = { deny: 0, ask: 1, allow: 2 };

/** The more restrictive of two decisions on deny < ask < allow (security.md T1). */
export function minDecision(a: DecisionName, b: DecisionName): DecisionName {
  return RANK[a] <= RANK[b] ? a : b;
}

export function morePermissive(a: DecisionName, b: DecisionName): boolean {
  return RANK[a] > RANK[b];
}

export type MemoryModeName = 'off' | 'read_only' | 'read_write';
const MEMORY_RANK: Record<MemoryModeName, number> = { off: 0, read_only: 1, read_write: 2 };

export function minMemoryMode(a: MemoryModeName, b: MemoryModeName): MemoryModeName {
  return MEMORY_RANK[a] <= MEMORY_RANK[b] ? a : b;
}

/** Workspace-relative path with `./`, trailing `/` and `.` normalised away ('' = whole workspace). */
export function normalizeRel(p: string): string {
  let s = p.replace(/\\/g, '/').replace(/\/+$/, '');
  while (s.startsWith('./')) s = s.slice(2);
  return s === '.' ? '' : s;
}

/** Does a root (directory prefix or glob) cover the workspace-relative path? */
export function rootCovers(root: string, path: string): boolean {
  const r = normalizeRel(root);
  const p = normalizeRel(path);
  if (r === '' || r === '**') return true;
  if (p === r || p.startsWith(`${r}/`)) return true;
  return /[*?[{]/.test(r) && picomatch(r, { dot: true })(p);
}

export function pathAllowed(roots: readonly string[], denied: readonly string[], path: string): boolean {
  return roots.some((r) => rootCovers(r, path)) && !denied.some((d) => rootCovers(d, path));
}

/** Exact host, or `*.domain` for any host below domain (not the domain itself). Case-insensitive. */
export function hostAllowed(patterns: readonly string[], host: string): boolean {
  const h = host.toLowerCase();
  return patterns.some((raw) => {
    const p = raw.toLowerCase();
    if (p === '*') return true;
    if (p.startsWith('*.')) return h.endsWith(p.slice(1));
    return h === p;
  });
}

/** Does a tool-name pattern (exact or glob) select the tool? */
export function toolMatches(pattern: string, tool: string): boolean {
  return pattern === tool || pattern === '*' || (/[*?[{]/.test(pattern) && picomatch(pattern, { dot: true })(tool));
}

/** The smaller of two optional limits; undefined/null = unbounded. */
export function minLimit(a: number | null | undefined, b: number | null | undefined): number | null {
  if (a === undefined || a === null) return b ?? null;
  if (b === undefined || b === null) return a;
  return Math.min(a, b);
}

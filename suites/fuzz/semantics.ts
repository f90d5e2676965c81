/**
 * The runner's own reading of the narrowing rules, used to judge fuzzed instantiations. Only what
 * the spec fixes is encoded as an exact answer; everything else is a one-sided safety bound.
 *
 * Glob dialect: picomatch defaults (`*` stays inside one `/` segment, `**` crosses segments). The
 * spec does not fix a dialect (SPEC §3.4 only says "names MAY be globs"), so the generators use only
 * patterns whose meaning is the same in every common dialect that treats `/` as a separator:
 * literal names, `seg/*`, `mcp/<server>/*`, `*`, `*` + `/*` and `**`.
 */
import picomatch from 'picomatch';
import type { DecisionT, HarnessPolicyT } from '../../adapters/protocol/messages.js';

const ORDER: Record<DecisionT, number> = { deny: 0, ask: 1, allow: 2 };
export const DECISIONS: readonly DecisionT[] = ['deny', 'ask', 'allow'];

export function minDecision(a: DecisionT, b: DecisionT): DecisionT {
  return ORDER[a] <= ORDER[b] ? a : b;
}

export function atMost(value: DecisionT, ceiling: DecisionT): boolean {
  return ORDER[value] <= ORDER[ceiling];
}

export type MemoryModeT = 'off' | 'read_only' | 'read_write';
const MEMORY_ORDER: Record<MemoryModeT, number> = { off: 0, read_only: 1, read_write: 2 };

export function minMemoryMode(a: MemoryModeT, b: MemoryModeT): MemoryModeT {
  return MEMORY_ORDER[a] <= MEMORY_ORDER[b] ? a : b;
}

export function memoryAtMost(value: MemoryModeT, ceiling: MemoryModeT): boolean {
  return MEMORY_ORDER[value] <= MEMORY_ORDER[ceiling];
}

const matcherCache = new Map<string, (s: string) => boolean>();

export function globMatches(pattern: string, name: string): boolean {
  let m = matcherCache.get(pattern);
  if (m === undefined) {
    m = picomatch(pattern);
    matcherCache.set(pattern, m);
  }
  return m(name);
}

export function matchesAny(patterns: readonly string[], name: string): boolean {
  return patterns.some((p) => globMatches(p, name));
}

/** What the harness would grant the user alone: `available` filtered by the `grant` globs. */
export function grantedTools(policy: HarnessPolicyT): string[] {
  return policy.tools.available.filter((t) => matchesAny(policy.tools.grant, t)).sort();
}

export interface ToolsRequest {
  policy?: 'allowlist' | 'denylist' | 'inherit';
  allow?: string[];
  deny?: string[];
}

/** SPEC §3.4 table, over a granted set. `inherit` ignores allow and deny. */
export function toolTable(request: ToolsRequest | undefined, granted: readonly string[]): string[] {
  const policy = request?.policy ?? 'allowlist';
  const allow = request?.allow ?? [];
  const deny = request?.deny ?? [];
  let out: string[];
  if (policy === 'inherit') out = [...granted];
  else if (policy === 'denylist') out = granted.filter((t) => !matchesAny(deny, t));
  else out = granted.filter((t) => matchesAny(allow, t) && !matchesAny(deny, t));
  return out.sort();
}

/** The decision the policy alone gives a permission key: its explicit value, else `default`. */
export function policyDecision(policy: HarnessPolicyT, key: 'default' | 'shell' | 'edit' | 'network'): DecisionT {
  return key === 'default' ? policy.permissions.default : (policy.permissions[key] ?? policy.permissions.default);
}

// ---------------------------------------------------------------- paths

/**
 * Workspace-relative normal form ("./src/" -> "src", "" -> "."), or undefined when the path is
 * absolute or climbs out of the workspace: such a root can never be inside a relative policy root.
 * An effective root the adapter reports as an absolute path under the workspace is mapped back.
 */
export function normalizeRoot(p: string, workspace?: string): string | undefined {
  let rel = p;
  if (rel.startsWith('/')) {
    if (workspace === undefined) return undefined;
    const ws = workspace.replace(/\/+$/, '');
    if (rel === ws) return '.';
    if (!rel.startsWith(`${ws}/`)) return undefined;
    rel = rel.slice(ws.length + 1);
  }
  const parts: string[] = [];
  for (const seg of rel.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(seg);
  }
  return parts.length === 0 ? '.' : parts.join('/');
}

export function rootWithin(inner: string, outer: string): boolean {
  return outer === '.' || inner === outer || inner.startsWith(`${outer}/`);
}

/** Is (reported) root `p` inside at least one of `ceilings` (both workspace-relative)? */
export function rootCovered(p: string, ceilings: readonly string[], workspace?: string): boolean {
  const inner = normalizeRoot(p, workspace);
  if (inner === undefined) return false;
  return ceilings.some((c) => {
    const outer = normalizeRoot(c, workspace);
    return outer !== undefined && rootWithin(inner, outer);
  });
}

// ---------------------------------------------------------------- hosts

/**
 * Does host pattern `outer` cover every host `inner` can match? `*.d` covers `x.d` and `*.x.d` but
 * not the apex `d` (the generators never ask for an apex whose only cover is a wildcard, since
 * dialects differ there). Hosts compare case-insensitively.
 */
export function hostCovered(inner: string, outer: string): boolean {
  const i = inner.toLowerCase();
  const o = outer.toLowerCase();
  if (i === o) return true;
  if (o.startsWith('*.')) {
    const suffix = o.slice(1);
    const iBase = i.startsWith('*.') ? i.slice(1) : `.${i}`;
    return iBase.endsWith(suffix) && iBase.length > suffix.length;
  }
  return false;
}

export function hostCoveredByAny(inner: string, outers: readonly string[]): boolean {
  return outers.some((o) => hostCovered(inner, o));
}

// ---------------------------------------------------------------- budgets

export const BUDGET_KEYS = [
  'max_turns',
  'max_tool_calls',
  'timeout_seconds',
  'max_cost_usd',
  'max_context_tokens',
  'max_state_tokens',
  'max_state_bytes',
] as const;
export type BudgetKey = (typeof BUDGET_KEYS)[number];

/** The budgets a profile requests, gathered from spec.runtime and spec.context.budget. */
export function profileBudgets(profile: Record<string, unknown>): Partial<Record<BudgetKey, number>> {
  const spec = (profile.spec ?? {}) as { runtime?: Record<string, unknown>; context?: { budget?: Record<string, unknown> } };
  const out: Partial<Record<BudgetKey, number>> = {};
  for (const k of ['max_turns', 'max_tool_calls', 'timeout_seconds', 'max_cost_usd'] as const) {
    const v = spec.runtime?.[k];
    if (typeof v === 'number') out[k] = v;
  }
  for (const k of ['max_context_tokens', 'max_state_tokens', 'max_state_bytes'] as const) {
    const v = spec.context?.budget?.[k];
    if (typeof v === 'number') out[k] = v;
  }
  return out;
}

/** min over the defined values; null (unbounded) when neither side sets one. SPEC §7.2. */
export function minBudget(a: number | undefined | null, b: number | undefined | null): number | null {
  const vals = [a, b].filter((v): v is number => typeof v === 'number');
  return vals.length === 0 ? null : Math.min(...vals);
}

/** `value` is no looser than `ceiling` (null = unbounded). */
export function budgetAtMost(value: number | null, ceiling: number | null | undefined): boolean {
  if (ceiling === null || ceiling === undefined) return true;
  return value !== null && value <= ceiling;
}

/**
 * The narrowing rule (SPEC §7.2, §3.5, §3.8 delegation, §4 rule 7; security.md T1, T7;
 * conformance.md L1-I3, L3-E2, L3-B1).
 *
 * Reading (INTERPRETATIONS.md#narrowing): "A profile MAY reduce what the
 * harness would otherwise grant. It MUST NOT increase it. [...] The effective value is always the
 * more restrictive of profile and policy." A ceiling is what a session may at most receive: for a
 * top-level session the harness policy (`policyCeiling`), for a subagent the parent's effective
 * contract (§3.8 "intersected with the parent's effective profile"), which has the same shape.
 *
 * Two questions are asked of an effective contract:
 * - `widenings(effective, ceiling)`: every place it is more permissive than the ceiling (safety,
 *   whatever the profile asked). Used by L1-I3, L3-E2, L3-B1 and the fuzzer alike.
 * - `narrowingDifferences(effective, request, ceiling, probes)`: every place it is more permissive
 *   than "the more restrictive of profile and policy" (L1-I3: "never more permissive", §7.2 "MUST
 *   NOT increase it"). Stricter than that intersection is allowed everywhere except for decisions,
 *   where §3.5 names the answer outright ("the effective decision is the minimum of the two"), so
 *   they are compared exactly. Budgets and the memory mode must be at most the smaller value,
 *   scopes a subset of the intersection, roots and hosts no wider by meaning, over probe paths and
 *   hosts (two spellings of one set are equal); tools only against the grant (which subset the §3.4
 *   table selects is L1-I2's question, tools.ts).
 */
import type { HarnessPolicyT } from '../../protocol/messages.js';
import { BUDGET_KEYS, type Budget, type BudgetKey, budgetAtMost, minBudget, profileBudgets } from './budget.js';
import {
  type Decision,
  exceeds,
  PERMISSION_KEYS,
  type PermissionKey,
  policyDecision,
  type RequestedPermissions,
  effectiveDecision,
} from './decision.js';
import { canonicalHost, hostCoveredByAny, hostsAllowed, requestedHosts } from './host.js';
import { effectiveMemoryMode, effectiveScopes, type MemoryMode, memoryExceeds, scopesBeyond } from './memory.js';
import { normalizeRoot, pathAllowed, rootWithin, rootsBeyond } from './path.js';
import { pointerOf } from './pointer.js';
import { grantedTools } from './tools.js';

/** The bounds a contract sets; a harness policy's ceiling and every effective contract have this shape. */
export interface ContractBounds {
  tools: readonly string[];
  permissions: Readonly<Record<PermissionKey, Decision>>;
  filesystem: { read_roots: readonly string[]; write_roots: readonly string[]; deny_paths: readonly string[] };
  hosts: readonly string[];
  memory: { mode: MemoryMode; scopes: readonly string[]; stores?: ReadonlyArray<{ name: string; mode: MemoryMode }> };
  budgets: Readonly<Record<BudgetKey, Budget>>;
  subagents: { max_depth: number; max_concurrent: number };
}

/** The ceiling of a top-level session: what the harness policy alone would grant. */
export function policyCeiling(policy: HarnessPolicyT): ContractBounds {
  const permissions = {} as Record<PermissionKey, Decision>;
  for (const k of PERMISSION_KEYS) permissions[k] = policyDecision(policy.permissions, k);
  const budgets = {} as Record<BudgetKey, Budget>;
  for (const k of BUDGET_KEYS) budgets[k] = policy.budgets[k] ?? null;
  return {
    tools: grantedTools(policy.tools),
    permissions,
    filesystem: { read_roots: policy.filesystem.read_roots, write_roots: policy.filesystem.write_roots, deny_paths: [] },
    hosts: policy.network.allow_hosts,
    memory: { mode: policy.memory.mode, scopes: policy.memory.scopes },
    budgets,
    subagents: { max_depth: policy.subagents.max_depth, max_concurrent: policy.subagents.max_concurrent },
  };
}

/**
 * Every place `effective` is more permissive than `ceiling`, as pointer labels into the contract
 * (`/permissions/shell`, `/tools/git~1diff`, `/filesystem/read_roots/src`, ...). Empty means
 * `effective` ≤ `ceiling`. `workspace` maps absolute effective roots back to relative ones.
 */
export function widenings(effective: ContractBounds, ceiling: ContractBounds, workspace?: string): string[] {
  const out: string[] = [];
  const label = (...tokens: string[]): string => pointerOf(tokens);
  for (const k of PERMISSION_KEYS) if (exceeds(effective.permissions[k], ceiling.permissions[k])) out.push(label('permissions', k));
  const granted = new Set(ceiling.tools);
  for (const t of effective.tools) if (!granted.has(t)) out.push(label('tools', t));
  for (const key of ['read_roots', 'write_roots'] as const) {
    for (const r of rootsBeyond(effective.filesystem[key], ceiling.filesystem[key], workspace)) out.push(label('filesystem', key, r));
  }
  // A path the ceiling denies must stay denied wherever the effective roots reach it.
  const reach = [...effective.filesystem.read_roots, ...effective.filesystem.write_roots];
  for (const d of ceiling.filesystem.deny_paths) {
    const reached = reach.some((r) => rootWithin(d, r, workspace) || rootWithin(r, d, workspace));
    const kept = effective.filesystem.deny_paths.some((e) => rootWithin(d, e, workspace));
    if (reached && !kept) out.push(label('filesystem', 'deny_paths', d));
  }
  for (const h of effective.hosts) if (!hostCoveredByAny(h, ceiling.hosts)) out.push(label('hosts', h));
  if (memoryExceeds(effective.memory.mode, ceiling.memory.mode)) out.push(label('memory', 'mode'));
  for (const s of effective.memory.stores ?? []) {
    if (memoryExceeds(s.mode, ceiling.memory.mode)) out.push(label('memory', 'stores', s.name));
  }
  for (const s of scopesBeyond(effective.memory.scopes, ceiling.memory.scopes)) out.push(label('memory', 'scopes', s));
  for (const k of BUDGET_KEYS) if (!budgetAtMost(effective.budgets[k], ceiling.budgets[k])) out.push(label('budgets', k));
  if (effective.subagents.max_depth > ceiling.subagents.max_depth) out.push(label('subagents', 'max_depth'));
  if (effective.subagents.max_concurrent > ceiling.subagents.max_concurrent) out.push(label('subagents', 'max_concurrent'));
  return out;
}

// ---------------------------------------------------------------- the exact answer

/** What a profile's `spec` asks of the dimensions L1-I3 narrows. Undefined = nothing requested. */
export interface NarrowingRequest {
  permissions: RequestedPermissions;
  read_roots?: readonly string[] | undefined;
  write_roots?: readonly string[] | undefined;
  deny_paths: readonly string[];
  /** Undefined for an absent or empty `allow_hosts` (the harness default). */
  hosts?: readonly string[] | undefined;
  memoryMode?: MemoryMode | undefined;
  scopes?: readonly string[] | undefined;
  budgets: Partial<Record<BudgetKey, number>>;
}

const record = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const strings = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined);

/** The narrowing request of a profile's `spec` (the resolved, merged one for a profile with `extends`). */
export function narrowingRequest(spec: unknown): NarrowingRequest {
  const s = record(spec);
  const perms = record(s['permissions']);
  const fs = record(perms['filesystem']);
  const memory = record(s['memory']);
  const decision = (k: string): Decision | undefined =>
    perms[k] === 'deny' || perms[k] === 'ask' || perms[k] === 'allow' ? (perms[k] as Decision) : undefined;
  const mode = memory['mode'];
  return {
    permissions: { default: decision('default'), shell: decision('shell'), edit: decision('edit'), network: decision('network') },
    read_roots: strings(fs['read_roots']),
    write_roots: strings(fs['write_roots']),
    deny_paths: strings(fs['deny_paths']) ?? [],
    hosts: requestedHosts(strings(perms['allow_hosts'])),
    memoryMode: mode === 'off' || mode === 'read_only' || mode === 'read_write' ? mode : undefined,
    scopes: strings(memory['scopes']),
    budgets: profileBudgets(s),
  };
}

/** May the session reach `path` under the intersection of request and ceiling? */
function expectedPathAllowed(
  request: NarrowingRequest,
  ceiling: ContractBounds,
  key: 'read_roots' | 'write_roots',
  path: string,
  workspace?: string,
): boolean {
  return (
    pathAllowed(ceiling.filesystem[key], ceiling.filesystem.deny_paths, path, workspace) &&
    pathAllowed(request[key] ?? ['.'], request.deny_paths, path, workspace)
  );
}

/** May the session reach `host` under the intersection of request and ceiling? */
function expectedHostAllowed(request: NarrowingRequest, ceiling: ContractBounds, host: string): boolean {
  return hostsAllowed(ceiling.hosts, host) && (request.hosts === undefined || hostsAllowed(request.hosts, host));
}

/** The values the spec fixes outright: decisions, memory mode, scopes and budgets. */
export function expectedValues(
  request: NarrowingRequest,
  ceiling: ContractBounds,
): {
  permissions: Record<PermissionKey, Decision>;
  memoryMode: MemoryMode;
  scopes: string[];
  budgets: Record<BudgetKey, Budget>;
} {
  const permissions = {} as Record<PermissionKey, Decision>;
  for (const k of PERMISSION_KEYS) permissions[k] = effectiveDecision(request.permissions, ceiling.permissions, k).value;
  const budgets = {} as Record<BudgetKey, Budget>;
  for (const k of BUDGET_KEYS) budgets[k] = minBudget(request.budgets[k], ceiling.budgets[k]);
  return {
    permissions,
    memoryMode: effectiveMemoryMode(request.memoryMode, ceiling.memory.mode).value,
    scopes: effectiveScopes(request.scopes, ceiling.memory.scopes).value,
    budgets,
  };
}

/** Paths and hosts at which two root or host lists are compared by meaning. */
export interface Probes {
  paths: readonly string[];
  hosts: readonly string[];
}

/**
 * Probes that tell apart any two unions of the given roots and host patterns: each root, a path
 * below it and its parent; each host, and for `*.d` a host below `d` and `d` itself.
 */
export function probesFor(roots: readonly string[], hosts: readonly string[], workspace?: string): Probes {
  const paths = new Set<string>(['probe.txt']);
  for (const raw of roots) {
    const r = normalizeRoot(raw, workspace);
    if (r === undefined || /[*?[\]]/.test(r)) continue;
    if (r !== '.') {
      paths.add(r);
      const parent = r.includes('/') ? r.slice(0, r.lastIndexOf('/')) : '.';
      if (parent !== '.') paths.add(`${parent}/probe-sibling.txt`);
    }
    paths.add(r === '.' ? 'probe-dir/probe.txt' : `${r}/probe.txt`);
  }
  const hostProbes = new Set<string>();
  for (const raw of hosts) {
    const h = canonicalHost(raw);
    if (h === '*') hostProbes.add('probe-any.example');
    else if (h.startsWith('*.')) {
      hostProbes.add(`probe.${h.slice(2)}`);
      hostProbes.add(h.slice(2));
    } else hostProbes.add(h);
  }
  return { paths: [...paths], hosts: [...hostProbes] };
}

/** One place where an effective contract is not what the narrowing rule gives. */
export interface Difference {
  /** Label into the effective contract, e.g. `/permissions/shell` or `/filesystem/read_roots`. */
  pointer: string;
  expected: unknown;
  observed: unknown;
}

/**
 * Every place `effective` is more permissive than the more restrictive of `request` and `ceiling`:
 * tools outside the grant, decisions other than the exact minimum, a memory mode or budget above the
 * smaller value, scopes outside the intersection, stores above the ceiling's mode, and probe paths
 * and hosts reachable although the intersection does not reach them. A harness granting less than
 * the intersection (a root, a host, a scope, a smaller budget) has no difference here: that is a
 * narrowing to record (L1-I9), not a widening (INTERPRETATIONS.md#narrowing).
 */
export function narrowingDifferences(
  effective: ContractBounds,
  request: NarrowingRequest,
  ceiling: ContractBounds,
  opts: { probes?: Probes; workspace?: string } = {},
): Difference[] {
  const { workspace } = opts;
  const probes =
    opts.probes ??
    probesFor(
      [
        ...ceiling.filesystem.read_roots,
        ...ceiling.filesystem.write_roots,
        ...ceiling.filesystem.deny_paths,
        ...(request.read_roots ?? []),
        ...(request.write_roots ?? []),
        ...request.deny_paths,
        ...effective.filesystem.read_roots,
        ...effective.filesystem.write_roots,
        ...effective.filesystem.deny_paths,
      ],
      [...ceiling.hosts, ...(request.hosts ?? []), ...effective.hosts],
      workspace,
    );
  const out: Difference[] = [];
  const granted = new Set(ceiling.tools);
  const ungranted = effective.tools.filter((t) => !granted.has(t));
  if (ungranted.length > 0) out.push({ pointer: '/tools', expected: { within: [...ceiling.tools] }, observed: [...effective.tools] });
  const want = expectedValues(request, ceiling);
  for (const k of PERMISSION_KEYS) {
    if (effective.permissions[k] !== want.permissions[k])
      out.push({ pointer: `/permissions/${k}`, expected: want.permissions[k], observed: effective.permissions[k] });
  }
  for (const key of ['read_roots', 'write_roots'] as const) {
    // A root that names no place inside the workspace reaches outside it (security.md T6).
    const outside = effective.filesystem[key].filter((r) => normalizeRoot(r, workspace) === undefined);
    if (outside.length > 0) out.push({ pointer: `/filesystem/${key}`, expected: { within: 'the workspace' }, observed: outside });
    for (const p of probes.paths) {
      const expected = expectedPathAllowed(request, ceiling, key, p, workspace);
      const observed = pathAllowed(effective.filesystem[key], effective.filesystem.deny_paths, p, workspace);
      if (observed && !expected)
        out.push({ pointer: `/filesystem/${key}`, expected: { path: p, allowed: expected }, observed: { path: p, allowed: observed } });
    }
  }
  for (const h of probes.hosts) {
    const expected = expectedHostAllowed(request, ceiling, h);
    const observed = hostsAllowed(effective.hosts, h);
    if (observed && !expected)
      out.push({ pointer: '/hosts', expected: { host: h, allowed: expected }, observed: { host: h, allowed: observed } });
  }
  if (memoryExceeds(effective.memory.mode, want.memoryMode))
    out.push({ pointer: '/memory/mode', expected: { atMost: want.memoryMode }, observed: effective.memory.mode });
  for (const s of effective.memory.stores ?? []) {
    if (memoryExceeds(s.mode, ceiling.memory.mode))
      out.push({ pointer: pointerOf(['memory', 'stores', s.name]), expected: { atMost: ceiling.memory.mode }, observed: s.mode });
  }
  const beyond = scopesBeyond(effective.memory.scopes, want.scopes);
  if (beyond.length > 0)
    out.push({ pointer: '/memory/scopes', expected: { within: [...new Set(want.scopes)].sort() }, observed: [...effective.memory.scopes] });
  for (const k of BUDGET_KEYS) {
    if (!budgetAtMost(effective.budgets[k], want.budgets[k]))
      out.push({ pointer: `/budgets/${k}`, expected: { atMost: want.budgets[k] }, observed: effective.budgets[k] });
  }
  return out;
}

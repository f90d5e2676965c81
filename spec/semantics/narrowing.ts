/**
 * The narrowing rule's inputs (SPEC §7.2, §3.5, §3.8 delegation, §4 rule 7; security.md T1, T7;
 * conformance.md L1-I3, L3-E2, L3-B1).
 *
 * Reading (INTERPRETATIONS.md#narrowing): "A profile MAY reduce what the harness would otherwise
 * grant. It MUST NOT increase it. [...] The effective value is always the more restrictive of
 * profile and policy." A ceiling is what a session may at most receive: for a top-level session the
 * harness policy (`policyCeiling`), for a subagent the parent's effective contract (§3.8
 * "intersected with the parent's effective profile"), which has the same shape. A profile's
 * request is what its `spec` asks of those dimensions (`narrowingRequest`). The most permissive
 * contract the two allow is ./contract.ts `predictContract`, and ./contract-judge.ts compares a
 * harness's whole answer with it, roots and hosts by meaning over the probes of `probesFor`.
 */
import type { HarnessPolicyT } from '../../protocol/messages.js';
import { BUDGET_KEYS, type Budget, type BudgetKey, profileBudgets } from './budget.js';
import { type Decision, PERMISSION_KEYS, type PermissionKey, policyDecision, type RequestedPermissions } from './decision.js';
import { canonicalHost, requestedHosts } from './host.js';
import type { MemoryMode } from './memory.js';
import { normalizeRoot } from './path.js';
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

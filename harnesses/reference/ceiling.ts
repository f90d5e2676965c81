/**
 * A ceiling is what a session may at most receive. For a top-level session it comes from the
 * harness policy; for a subagent it is the parent's *effective* contract (SPEC §3.8, L3-B1), so
 * the same narrowing code serves both and a child can never exceed its parent.
 */
import type { EffectiveContractT, HarnessPolicyT } from '../../protocol/messages.js';
import {
  type Budget,
  type BudgetKey,
  type Decision,
  type MemoryMode,
  normalizeRoot,
  PERMISSION_KEYS,
  type PermissionKey,
  policyCeiling,
} from '../../spec/semantics/index.js';
import { containPath } from './paths.js';

export type PolicyRuleT = EffectiveContractT['rules'][number];

export interface Ceiling {
  origin: 'policy' | 'parent';
  /** Is a concrete tool name granted in this context? (MCP catalog tools are not in `available`, so this is a predicate.) */
  grants(tool: string): boolean;
  /** Every key decided: an unset policy category already reads as the policy default. */
  permissions: Record<PermissionKey, Decision>;
  rules: PolicyRuleT[];
  read_roots: string[];
  write_roots: string[];
  deny_paths: string[];
  hosts: string[];
  /** `stores`: under a parent, the parent's stores and their modes (a subagent may have no other). */
  memory: { mode: MemoryMode; scopes: string[]; stores?: Array<{ name: string; mode: MemoryMode }> };
  budgets: Record<BudgetKey, Budget>;
  subagents: { max_depth: number; max_concurrent: number };
}

export function ceilingFromPolicy(
  policy: HarnessPolicyT,
  workspace: string,
  // The two rules of the table (./rules.ts) that read the policy alone; named here, not imported, as the table names Ceiling.
  rules: {
    policyDecision(permissions: HarnessPolicyT['permissions'], key: PermissionKey): Decision;
    policyGrants(grant: readonly string[], tool: string): boolean;
  },
): Ceiling {
  const bounds = policyCeiling(policy);
  const permissions = {} as Record<PermissionKey, Decision>;
  for (const k of PERMISSION_KEYS) permissions[k] = rules.policyDecision(policy.permissions, k);
  const root = (p: string): string | undefined => {
    const r = containPath(workspace, p, policy.filesystem.allow_absolute ?? false);
    return r.ok ? r.relative : undefined;
  };
  const roots = (list: readonly string[]): string[] => [...new Set(list.map(root).filter((p): p is string => p !== undefined))];
  return {
    origin: 'policy',
    grants: (tool) => rules.policyGrants(policy.tools.grant, tool),
    permissions,
    rules: (policy.permissions.rules ?? []).map((r) => ({
      tool: r.tool ?? '*',
      action: r.action ?? '*',
      target: r.target ?? '*',
      decision: r.decision,
    })),
    read_roots: roots(bounds.filesystem.read_roots),
    write_roots: roots(bounds.filesystem.write_roots),
    deny_paths: [],
    hosts: [...bounds.hosts],
    memory: { mode: bounds.memory.mode, scopes: [...bounds.memory.scopes] },
    budgets: { ...bounds.budgets },
    subagents: { ...bounds.subagents },
  };
}

export function ceilingFromParent(parent: EffectiveContractT): Ceiling {
  const tools = new Set(parent.tools);
  const roots = (list: readonly string[]): string[] => list.map((r) => normalizeRoot(r)).filter((r): r is string => r !== undefined);
  const permissions = {} as Record<PermissionKey, Decision>;
  for (const k of PERMISSION_KEYS) permissions[k] = parent.permissions[k];
  return {
    origin: 'parent',
    grants: (tool) => tools.has(tool),
    permissions,
    rules: parent.rules.map((r) => ({ ...r })),
    read_roots: roots(parent.filesystem.read_roots),
    write_roots: roots(parent.filesystem.write_roots),
    deny_paths: [...parent.filesystem.deny_paths],
    hosts: [...parent.hosts],
    memory: {
      mode: parent.memory.mode,
      scopes: [...parent.memory.scopes],
      stores: parent.memory.stores.map((s) => ({ name: s.name, mode: s.mode })),
    },
    budgets: { ...parent.budgets },
    subagents: { max_depth: parent.subagents.max_depth, max_concurrent: parent.subagents.max_concurrent },
  };
}

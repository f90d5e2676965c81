/**
 * A ceiling is what a session may at most receive. For a top-level session it comes from the
 * harness policy; for a subagent it is the parent's *effective* contract (SPEC §3.8, L3-B1), so
 * the same narrowing code serves both and a child can never exceed its parent.
 */
import type { EffectiveContractT, HarnessPolicyT } from '../protocol/messages.js';
import type { Decision, MemoryMode } from './decisions.js';
import { matchesAny } from './globs.js';
import { containPath, normalizeRelative } from './paths.js';

export type PolicyRuleT = EffectiveContractT['rules'][number];
export type BudgetsT = EffectiveContractT['budgets'];

export interface Ceiling {
  origin: 'policy' | 'parent';
  /** Is a concrete tool name granted in this context? */
  grants(tool: string): boolean;
  permissions: { default: Decision; shell?: Decision; edit?: Decision; network?: Decision };
  rules: PolicyRuleT[];
  read_roots: string[];
  write_roots: string[];
  deny_paths: string[];
  hosts: string[];
  memory: { mode: MemoryMode; scopes: string[]; stores?: string[] };
  budgets: Partial<Record<keyof BudgetsT, number | null>>;
  subagents: { max_depth: number; max_concurrent: number };
}

export function ceilingFromPolicy(policy: HarnessPolicyT, workspace: string): Ceiling {
  const root = (p: string): string | undefined => {
    const r = containPath(workspace, p, policy.filesystem.allow_absolute ?? false);
    return r.ok ? r.relative : undefined;
  };
  const roots = (list: string[]): string[] => [...new Set(list.map(root).filter((p): p is string => p !== undefined))];
  return {
    origin: 'policy',
    grants: (tool) => matchesAny(policy.tools.grant, tool),
    permissions: {
      default: policy.permissions.default,
      ...(policy.permissions.shell ? { shell: policy.permissions.shell } : {}),
      ...(policy.permissions.edit ? { edit: policy.permissions.edit } : {}),
      ...(policy.permissions.network ? { network: policy.permissions.network } : {}),
    },
    rules: (policy.permissions.rules ?? []).map((r) => ({
      tool: r.tool ?? '*',
      action: r.action ?? '*',
      target: r.target ?? '*',
      decision: r.decision,
    })),
    read_roots: roots(policy.filesystem.read_roots),
    write_roots: roots(policy.filesystem.write_roots),
    deny_paths: [],
    hosts: [...policy.network.allow_hosts],
    memory: { mode: policy.memory.mode, scopes: [...policy.memory.scopes] },
    budgets: { ...policy.budgets },
    subagents: { ...policy.subagents },
  };
}

export function ceilingFromParent(parent: EffectiveContractT): Ceiling {
  const tools = new Set(parent.tools);
  return {
    origin: 'parent',
    grants: (tool) => tools.has(tool),
    permissions: { ...parent.permissions },
    rules: parent.rules.map((r) => ({ ...r })),
    read_roots: parent.filesystem.read_roots.map(normalizeRelative),
    write_roots: parent.filesystem.write_roots.map(normalizeRelative),
    deny_paths: [...parent.filesystem.deny_paths],
    hosts: [...parent.hosts],
    memory: { mode: parent.memory.mode, scopes: [...parent.memory.scopes], stores: parent.memory.stores.map((s) => s.name) },
    budgets: { ...parent.budgets },
    subagents: { max_depth: parent.subagents.max_depth, max_concurrent: parent.subagents.max_concurrent },
  };
}

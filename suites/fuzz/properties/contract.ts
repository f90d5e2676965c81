/**
 * Judging an effective contract against a ceiling (the harness policy, or a parent session's
 * effective contract) and against the profile's own request. Returns every violation found so the
 * first one can be reported and all of them recorded.
 */
import type { DecisionT, EffectiveContractT, HarnessPolicyT } from '../../../adapters/protocol/messages.js';
import {
  atMost,
  BUDGET_KEYS,
  budgetAtMost,
  grantedTools,
  hostCoveredByAny,
  memoryAtMost,
  minBudget,
  minDecision,
  minMemoryMode,
  policyDecision,
  profileBudgets,
  rootCovered,
  type BudgetKey,
  type MemoryModeT,
} from '../semantics.js';
import type { Violation } from './types.js';

export const PERMISSION_KEYS = ['default', 'shell', 'edit', 'network'] as const;
type PermKey = (typeof PERMISSION_KEYS)[number];

/** The most a session may get: from the harness policy alone, or from a parent's effective contract. */
export interface Ceiling {
  source: 'policy' | 'parent';
  tools: string[];
  permissions: Record<PermKey, DecisionT>;
  readRoots: string[];
  writeRoots: string[];
  hosts: string[];
  memoryMode: MemoryModeT;
  scopes: string[];
  budgets: Record<BudgetKey, number | null>;
  maxDepth: number;
  maxConcurrent: number;
  /** Workspace for mapping absolute roots the adapter reports back to relative ones. */
  workspace: string;
}

export function ceilingFromPolicy(policy: HarnessPolicyT, workspace: string): Ceiling {
  const budgets = {} as Record<BudgetKey, number | null>;
  for (const k of BUDGET_KEYS) budgets[k] = policy.budgets[k] ?? null;
  return {
    source: 'policy',
    tools: grantedTools(policy),
    permissions: {
      default: policyDecision(policy, 'default'),
      shell: policyDecision(policy, 'shell'),
      edit: policyDecision(policy, 'edit'),
      network: policyDecision(policy, 'network'),
    },
    readRoots: policy.filesystem.read_roots,
    writeRoots: policy.filesystem.write_roots,
    hosts: policy.network.allow_hosts,
    memoryMode: policy.memory.mode,
    scopes: policy.memory.scopes,
    budgets,
    maxDepth: policy.subagents.max_depth,
    maxConcurrent: policy.subagents.max_concurrent,
    workspace,
  };
}

export function ceilingFromEffective(eff: EffectiveContractT, workspace: string): Ceiling {
  return {
    source: 'parent',
    tools: eff.tools,
    permissions: eff.permissions,
    readRoots: eff.filesystem.read_roots,
    writeRoots: eff.filesystem.write_roots,
    hosts: eff.hosts,
    memoryMode: eff.memory.mode,
    scopes: eff.memory.scopes,
    budgets: eff.budgets,
    maxDepth: eff.subagents.max_depth,
    maxConcurrent: eff.subagents.max_concurrent,
    workspace,
  };
}

/** Safety only: nothing in `eff` is looser than `ceiling`. Holds whatever the profile asked. */
export function ceilingViolations(eff: EffectiveContractT, c: Ceiling): Violation[] {
  const out: Violation[] = [];
  const who = c.source === 'policy' ? 'harness policy' : "parent's effective contract";
  const extraTools = eff.tools.filter((t) => !c.tools.includes(t));
  if (extraTools.length) {
    out.push({
      message: `effective tools ${JSON.stringify(extraTools)} are not granted by the ${who}`,
      expected: { within: c.tools },
      observed: { tools: eff.tools },
    });
  }
  for (const k of PERMISSION_KEYS) {
    if (!atMost(eff.permissions[k], c.permissions[k])) {
      out.push({
        message: `effective permissions.${k} is ${eff.permissions[k]}, looser than the ${who} (${c.permissions[k]})`,
        expected: { [k]: `<= ${c.permissions[k]}` },
        observed: { [k]: eff.permissions[k] },
      });
    }
  }
  for (const [label, roots, ceil] of [
    ['read_roots', eff.filesystem.read_roots, c.readRoots],
    ['write_roots', eff.filesystem.write_roots, c.writeRoots],
  ] as const) {
    const outside = roots.filter((r) => !rootCovered(r, ceil, c.workspace));
    if (outside.length)
      out.push({
        message: `effective ${label} ${JSON.stringify(outside)} lie outside the ${who}'s roots`,
        expected: { within: ceil },
        observed: { [label]: roots },
      });
  }
  const badHosts = eff.hosts.filter((h) => !hostCoveredByAny(h, c.hosts));
  if (badHosts.length)
    out.push({
      message: `effective hosts ${JSON.stringify(badHosts)} are not covered by the ${who}`,
      expected: { within: c.hosts },
      observed: { hosts: eff.hosts },
    });
  if (!memoryAtMost(eff.memory.mode, c.memoryMode)) {
    out.push({
      message: `effective memory.mode ${eff.memory.mode} exceeds the ${who} (${c.memoryMode})`,
      expected: { mode: `<= ${c.memoryMode}` },
      observed: { mode: eff.memory.mode },
    });
  }
  const badScopes = eff.memory.scopes.filter((s) => !c.scopes.includes(s));
  if (badScopes.length)
    out.push({
      message: `effective memory scopes ${JSON.stringify(badScopes)} are not in the ${who}`,
      expected: { within: c.scopes },
      observed: { scopes: eff.memory.scopes },
    });
  for (const k of BUDGET_KEYS) {
    if (!budgetAtMost(eff.budgets[k], c.budgets[k])) {
      out.push({
        message: `effective budgets.${k} ${eff.budgets[k] ?? 'unbounded'} exceeds the ${who} (${c.budgets[k]})`,
        expected: { [k]: `<= ${c.budgets[k]}` },
        observed: { [k]: eff.budgets[k] },
      });
    }
  }
  if (eff.subagents.max_depth > c.maxDepth)
    out.push({
      message: `effective subagents.max_depth ${eff.subagents.max_depth} exceeds the ${who} (${c.maxDepth})`,
      expected: { max_depth: `<= ${c.maxDepth}` },
      observed: { max_depth: eff.subagents.max_depth },
    });
  if (eff.subagents.max_concurrent > c.maxConcurrent)
    out.push({
      message: `effective subagents.max_concurrent ${eff.subagents.max_concurrent} exceeds the ${who} (${c.maxConcurrent})`,
      expected: { max_concurrent: `<= ${c.maxConcurrent}` },
      observed: { max_concurrent: eff.subagents.max_concurrent },
    });
  return out;
}

interface SpecRequest {
  permissions?: Partial<Record<PermKey, DecisionT>> & {
    filesystem?: { read_roots?: string[]; write_roots?: string[] };
    allow_hosts?: string[];
  };
  memory?: { mode?: MemoryModeT; scopes?: string[] };
  runtime?: { subagents?: { allow?: string[]; max_depth?: number; max_concurrent?: number } };
}

/**
 * Where the spec fixes the answer, compare exactly: a decision both sides state is their minimum
 * (SPEC §3.5); a budget is the smaller defined value (§7.2); an explicitly requested memory mode is
 * the lower mode. Elsewhere only the one-sided bound "no more than the profile asked" is checked:
 * roots, hosts and scopes are intersections whose exact spelling the spec leaves open.
 */
export function requestViolations(
  eff: EffectiveContractT,
  profile: Record<string, unknown>,
  c: Ceiling,
  opts: { subagentExact: boolean },
): Violation[] {
  const out: Violation[] = [];
  const spec = (profile.spec ?? {}) as SpecRequest;
  const perms = spec.permissions ?? {};
  for (const k of PERMISSION_KEYS) {
    const asked = perms[k];
    if (asked === undefined) continue;
    const want = minDecision(asked, c.permissions[k]);
    if (eff.permissions[k] !== want) {
      out.push({
        message: `permissions.${k}: profile asks ${asked}, ceiling is ${c.permissions[k]}, so the effective decision must be ${want}; got ${eff.permissions[k]}`,
        expected: { [k]: want },
        observed: { [k]: eff.permissions[k] },
      });
    }
  }
  const asked = profileBudgets(profile);
  for (const k of BUDGET_KEYS) {
    const want = minBudget(asked[k], c.budgets[k]);
    if (eff.budgets[k] !== want) {
      out.push({
        message: `budgets.${k}: profile asks ${asked[k] ?? 'nothing'}, ceiling is ${c.budgets[k] ?? 'unbounded'}, so the effective budget must be ${want ?? 'unbounded (null)'}; got ${eff.budgets[k]}`,
        expected: { [k]: want },
        observed: { [k]: eff.budgets[k] },
      });
    }
  }
  const mode = spec.memory?.mode;
  if (mode !== undefined && eff.memory.mode !== minMemoryMode(mode, c.memoryMode)) {
    const want = minMemoryMode(mode, c.memoryMode);
    out.push({
      message: `memory.mode: profile asks ${mode}, ceiling is ${c.memoryMode}, so it must be ${want}; got ${eff.memory.mode}`,
      expected: { mode: want },
      observed: { mode: eff.memory.mode },
    });
  }
  const scopes = spec.memory?.scopes;
  if (scopes !== undefined && scopes.length > 0) {
    const extra = eff.memory.scopes.filter((s) => !scopes.includes(s));
    if (extra.length)
      out.push({
        message: `memory scopes ${JSON.stringify(extra)} were not requested by the profile`,
        expected: { within: scopes },
        observed: { scopes: eff.memory.scopes },
      });
  }
  for (const [label, key] of [
    ['read_roots', 'read_roots'],
    ['write_roots', 'write_roots'],
  ] as const) {
    const req = perms.filesystem?.[key];
    if (req === undefined || req.length === 0) continue;
    const got = eff.filesystem[key];
    const outside = got.filter((r) => !rootCovered(r, req, c.workspace));
    if (outside.length)
      out.push({
        message: `effective ${label} ${JSON.stringify(outside)} lie outside what the profile requested`,
        expected: { within: req },
        observed: { [label]: got },
      });
  }
  const hosts = perms.allow_hosts;
  if (hosts !== undefined && hosts.length > 0) {
    const extra = eff.hosts.filter((h) => !hostCoveredByAny(h, hosts));
    if (extra.length)
      out.push({
        message: `effective hosts ${JSON.stringify(extra)} were not requested by the profile`,
        expected: { within: hosts },
        observed: { hosts: eff.hosts },
      });
  }
  const subs = spec.runtime?.subagents;
  const allow = subs?.allow ?? [];
  const extraSubs = eff.subagents.allow.filter((n) => !allow.includes(n));
  if (extraSubs.length)
    out.push({
      message: `subagents ${JSON.stringify(extraSubs)} may be delegated to although the profile does not allow them`,
      expected: { within: allow },
      observed: { allow: eff.subagents.allow },
    });
  if (opts.subagentExact) {
    for (const [k, ceil] of [
      ['max_depth', c.maxDepth],
      ['max_concurrent', c.maxConcurrent],
    ] as const) {
      const req = subs?.[k];
      if (req === undefined) continue;
      const want = Math.min(req, ceil);
      if (eff.subagents[k] !== want)
        out.push({
          message: `subagents.${k}: profile asks ${req}, ceiling is ${ceil}, so it must be ${want}; got ${eff.subagents[k]}`,
          expected: { [k]: want },
          observed: { [k]: eff.subagents[k] },
        });
    }
  }
  return out;
}

/** Join violations into one, keeping every piece of evidence. */
export function combine(vs: Violation[]): Violation | undefined {
  if (vs.length === 0) return undefined;
  if (vs.length === 1) return vs[0];
  return {
    message: `${vs[0]!.message} (+${vs.length - 1} more)`,
    expected: vs.map((v) => v.expected),
    observed: vs.map((v) => v.observed),
  };
}

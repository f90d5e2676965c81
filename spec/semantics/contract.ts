/**
 * The prediction of the whole effective contract (issue 20 part 1; SPEC §7.2, §3.3-§3.8, §4 rule 7,
 * §5.3; conformance.md L1-I2, L1-I3, L1-I12, L2-A6, L3-B1, L3-E2, L3-K1, L3-M1, L3-Y1).
 *
 * `predictContract` takes what a session is built from: the composed profile (its `spec` after the
 * `extends` merge, ./merge.ts), the harness policy, the parent's effective contract when the
 * session is a subagent, and the trust its discovery root gives it. It returns, for every dimension
 * the protocol's `EffectiveContract` reports, the most permissive value the spec allows, each with
 * its reasons, computed by the rule functions beside it (nothing here decides a rule of its own).
 * Where the spec leaves the harness a choice, the prediction says what is allowed: a tier's model
 * may be any model the harness serves, a server of a trusted profile may launch with or without
 * confirmation when the policy auto-launches.
 *
 * The ceiling (INTERPRETATIONS.md#narrowing) is the policy for a top-level session and the parent's
 * effective contract for a subagent (§3.8 "intersected with the parent's effective profile, not
 * with the harness default"); the tools a subagent may have are the parent's, its rules come after
 * the parent's, its stores must be the parent's. Model, MCP launch, skills and writeback are read
 * from the policy and the profile in both cases. ./contract-judge.ts compares an answer with it.
 */
import type { EffectiveContractT, HarnessPolicyT } from '../../protocol/messages.js';
import { BUDGET_KEYS, type Budget, type BudgetKey, minBudget } from './budget.js';
import { type Decision, effectiveDecision, PERMISSION_KEYS, type PermissionKey, type RequestedPermissions } from './decision.js';
import { intersectHosts, intersectRoots } from './intersection.js';
import { effectiveMemoryMode, effectiveScopes, type MemoryMode } from './memory.js';
import {
  type Launch,
  launchAllowed,
  mcpServersOf,
  recommendedLaunch,
  type Transport,
  type Trust,
  toolUniverse,
  unsetReferences,
} from './mcp.js';
import { type ModelChoice, type ModelRule, modelRequestOf, resolveModel } from './model.js';
import { type ContractBounds, type NarrowingRequest, narrowingRequest, policyCeiling } from './narrowing.js';
import { normalizeRoot } from './path.js';
import { effectiveRules, filledRule, type PermissionRule, type RuleSides, type WrittenRule } from './permission-rules.js';
import type { Reasoned } from './reasoned.js';
import { type SkillStatus, skillStatus, skillsOf } from './skills.js';
import { storeModeBound, storesOf, storeUnavailable } from './stores.js';
import { grantedTools, toolTable, type ToolsRequest } from './tools.js';
import { type Writeback, writebackOf } from './writeback.js';

/** What a session is built from. */
export interface ContractInputs {
  /** The composed profile's `spec` (after `extends`); a subagent's own profile when delegating. */
  spec: unknown;
  policy: HarnessPolicyT;
  /** The parent session's effective contract, when the session is a subagent. */
  parent?: EffectiveContractT | undefined;
  /** The trust the profile's discovery root gives it (SPEC §7.1); `imported` outside every root. */
  trust: Trust;
}

type ModelRef = Pick<ModelChoice, 'provider' | 'id'>;

interface PredictedServer {
  name: string;
  transport: Transport;
  /** The launch modes the policy allows. */
  launch: readonly Launch[];
  /** The launch §7.3 recommends for the profile's trust (a SHOULD, judged by L3-M2 alone). */
  recommended: Launch;
  tools: string[];
}

/** The most permissive effective contract the spec allows, dimension by dimension, with the reasons. */
export interface ContractPrediction {
  origin: 'policy' | 'parent';
  ceiling: ContractBounds;
  request: NarrowingRequest;
  tools: Reasoned<string[]> & { granted: string[]; universe: string[]; declaredServers: string[] };
  permissions: Record<PermissionKey, Reasoned<Decision>>;
  rules: { sides: RuleSides; value: PermissionRule[] };
  filesystem: { read_roots: Reasoned<string[]>; write_roots: Reasoned<string[]>; deny_paths: string[] };
  hosts: Reasoned<string[]>;
  memory: {
    mode: Reasoned<MemoryMode>;
    scopes: Reasoned<string[]>;
    /** Each available store at its most; `ceiling` is the bound the ceiling alone sets (its mode, a parent's store). */
    stores: Array<{ name: string; kind: string; mode: MemoryMode; ceiling: MemoryMode }>;
    /** Why each requested store that is not among `stores` is unavailable. */
    dropped: Array<{ name: string; reason: string }>;
  };
  budgets: Record<BudgetKey, Reasoned<Budget>>;
  model: { rule: ModelRule; models: ModelRef[]; reasons: string[] };
  mcp_servers: PredictedServer[];
  /** Why each declared server that is not among `mcp_servers` is dropped. */
  mcp_dropped: Array<{ name: string; reason: string }>;
  skills: Array<{ name: string; status: SkillStatus; reason: string }>;
  subagents: { allow: string[]; max_depth: Reasoned<number>; max_concurrent: Reasoned<number> };
  writeback: Reasoned<Writeback>;
}

const record = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** The ceiling of a subagent: its parent's effective contract, which has the bounds' shape. */
function parentCeiling(parent: EffectiveContractT): ContractBounds {
  return {
    tools: parent.tools,
    permissions: parent.permissions,
    filesystem: parent.filesystem,
    hosts: parent.hosts,
    memory: { mode: parent.memory.mode, scopes: parent.memory.scopes, stores: parent.memory.stores },
    budgets: parent.budgets,
    subagents: { max_depth: parent.subagents.max_depth, max_concurrent: parent.subagents.max_concurrent },
  };
}

function roots(asked: readonly string[] | undefined, limit: readonly string[]): Reasoned<string[]> {
  const normal = (rs: readonly string[]): string[] => rs.map((r) => normalizeRoot(r)).filter((r): r is string => r !== undefined);
  const i = intersectRoots(asked && normal(asked), [...new Set(normal(limit))]);
  return { value: i.value, reasons: i.adjustments.map((a) => `${a.requested}: ${a.reason}`) };
}

/** The smaller delegation limit: the profile's when it sets one, never above the ceiling's. */
function delegationLimit(key: 'max_depth' | 'max_concurrent', asked: unknown, ceiling: number): Reasoned<number> {
  if (typeof asked !== 'number') return { value: ceiling, reasons: [`no ${key} requested: the ceiling's ${ceiling} stands`] };
  const value = Math.min(asked, ceiling);
  return { value, reasons: value < asked ? [`${key}: requested ${asked}, the ceiling allows ${ceiling}`] : [] };
}

/** The models SPEC §3.3 allows: the rule's model, and for a tier (rule 3) any model the harness serves. */
function predictedModel(spec: unknown, models: HarnessPolicyT['models']): ContractPrediction['model'] {
  const tiers = models.tiers ?? {};
  const served: ModelRef[] = [...models.available, ...Object.values(tiers).filter((m): m is ModelRef => m !== undefined)];
  const resolved = resolveModel(modelRequestOf(spec), { available: models.available, tiers, default: models.default });
  const choice: ModelRef = { provider: resolved.value.provider, id: resolved.value.id };
  const allowed = resolved.value.rule === 3 ? [choice, ...served] : [choice];
  const unique = allowed.filter((m, i) => allowed.findIndex((x) => x.provider === m.provider && x.id === m.id) === i);
  const reasons =
    resolved.value.rule === 3 ? [...resolved.reasons, 'the tier routing is the harness’s own: any model it serves'] : resolved.reasons;
  return { rule: resolved.value.rule, models: unique, reasons };
}

/** The most permissive effective contract the spec allows for a session built from `inputs`. */
export function predictContract(inputs: ContractInputs): ContractPrediction {
  const { spec, policy, parent } = inputs;
  const origin = parent ? 'parent' : 'policy';
  const ceiling = parent ? parentCeiling(parent) : policyCeiling(policy);
  const request = narrowingRequest(spec);
  const s = record(spec);

  // Tools: the §3.4 table over what the ceiling grants of what the harness has for this profile.
  const servers = mcpServersOf(spec);
  const universe = toolUniverse(policy, servers);
  const parentTools = parent ? new Set(parent.tools) : undefined;
  const granted = parentTools
    ? universe.tools.filter((t) => parentTools.has(t))
    : grantedTools({ available: universe.tools, grant: policy.tools.grant });
  const table = toolTable(s['tools'] as ToolsRequest | undefined, granted);

  const permissions = {} as Record<PermissionKey, Reasoned<Decision>>;
  for (const k of PERMISSION_KEYS) permissions[k] = effectiveDecision(request.permissions, ceiling.permissions, k);

  const ceilingRules = (parent ? parent.rules : (policy.permissions.rules ?? [])).map((r) => filledRule(r as WrittenRule));
  const written = record(s['permissions'])['rules'];
  const profileRules = (Array.isArray(written) ? (written as WrittenRule[]) : []).map(filledRule);
  const sides: RuleSides = {
    ceilingRules,
    ceilingPermissions: ceiling.permissions,
    profileRules,
    profileRequest: request.permissions as RequestedPermissions,
  };

  const hosts = intersectHosts(request.hosts, ceiling.hosts);
  const mode = effectiveMemoryMode(request.memoryMode, ceiling.memory.mode);
  const stores: ContractPrediction['memory']['stores'] = [];
  const droppedStores: ContractPrediction['memory']['dropped'] = [];
  for (const st of storesOf(spec)) {
    const unavailable = storeUnavailable(st, policy);
    const bound = storeModeBound(st, mode.value, parent?.memory);
    const ceilingBound = storeModeBound({ name: st.name, mode: ceiling.memory.mode }, ceiling.memory.mode, parent?.memory);
    if (unavailable !== undefined) droppedStores.push({ name: st.name, reason: unavailable });
    else if (bound === undefined || ceilingBound === undefined)
      droppedStores.push({ name: st.name, reason: 'the parent session has no such store' });
    else stores.push({ name: st.name, kind: st.kind, mode: bound, ceiling: ceilingBound });
  }

  const budgets = {} as Record<BudgetKey, Reasoned<Budget>>;
  for (const k of BUDGET_KEYS) {
    const value = minBudget(request.budgets[k], ceiling.budgets[k]);
    budgets[k] = {
      value,
      reasons: request.budgets[k] !== undefined && value !== request.budgets[k] ? [`${k} limited by the ceiling`] : [],
    };
  }

  const subagents = record(record(s['runtime'])['subagents']);
  const allow = Array.isArray(subagents['allow']) ? subagents['allow'].filter((n): n is string => typeof n === 'string') : [];
  const mcp_servers = universe.kept.map(
    (server): PredictedServer => ({
      name: server.name,
      transport: server.transport,
      launch: launchAllowed(policy.mcp.auto_launch),
      recommended: recommendedLaunch(inputs.trust, policy.mcp.auto_launch),
      tools: table.value.filter((t) => t.startsWith(`mcp/${server.name}/`)),
    }),
  );

  return {
    origin,
    ceiling,
    request,
    tools: { ...table, granted, universe: universe.tools, declaredServers: servers.map((x) => x.name) },
    permissions,
    rules: { sides, value: effectiveRules(sides, universe.tools) },
    filesystem: {
      read_roots: roots(request.read_roots, ceiling.filesystem.read_roots),
      write_roots: roots(request.write_roots, ceiling.filesystem.write_roots),
      deny_paths: [...new Set([...ceiling.filesystem.deny_paths, ...request.deny_paths])],
    },
    hosts: { value: hosts.value, reasons: hosts.adjustments.map((a) => `${a.requested}: ${a.reason}`) },
    memory: {
      mode,
      scopes: effectiveScopes(request.scopes, ceiling.memory.scopes),
      stores,
      dropped: droppedStores,
    },
    budgets,
    model: predictedModel(spec, policy.models),
    mcp_servers,
    mcp_dropped: servers
      .filter((x) => !universe.kept.includes(x))
      .map((x) => ({ name: x.name, reason: `environment variable(s) ${unsetReferences(x, policy.env).join(', ')} not set` })),
    skills: skillsOf(spec).map((k) => {
      const status = skillStatus(k, policy.skills);
      const reason =
        status === 'present'
          ? 'installed'
          : policy.skills.some((i) => i.name === k.name)
            ? 'installed with other content than the pin'
            : 'not installed';
      return { name: k.name, status, reason };
    }),
    subagents: {
      allow,
      max_depth: delegationLimit('max_depth', subagents['max_depth'], ceiling.subagents.max_depth),
      max_concurrent: delegationLimit('max_concurrent', subagents['max_concurrent'], ceiling.subagents.max_concurrent),
    },
    writeback: { value: writebackOf(spec), reasons: [] },
  };
}

/**
 * The narrowing rule (SPEC §7.2, L1-I3): every capability of the effective contract is the more
 * restrictive of what the profile requests and what the ceiling allows. Permissions use
 * deny < ask < allow, memory uses off < read_only < read_write, budgets take the smaller bound,
 * lists take the part of the request inside the ceiling. A field the profile leaves out requests
 * nothing narrower, so it takes the ceiling's value. Every narrowing or drop of something the
 * profile asked for becomes an Adjustment (L1-I9). Each decision is a rule (./rules.ts); this
 * module walks the profile and records. The filesystem roots a profile asks for are checked,
 * contained and narrowed here in one step (the grantRoots rule), so a root that leaves the
 * workspace refuses the profile at this point.
 */
import type { AdapterIssueT, AdjustmentT, EffectiveContractT, HarnessPolicyT } from '../../protocol/messages.js';
import {
  BUDGET_KEYS,
  budgetPointer,
  type Decision,
  effectiveDecision,
  effectiveMemoryMode,
  exceeds,
  globMatch,
  memoryExceeds,
  minDecision,
  modelRequestOf,
  PERMISSION_CATEGORIES,
  writebackOf,
  type MemoryMode,
  type RequestedPermissions,
} from '../../spec/semantics/index.js';
import type { Ceiling, PolicyRuleT } from './ceiling.js';
import { Rejection } from './issues.js';
import { isObject, type JsonObject } from './json.js';
import type { ResolvedProfile } from './resolve.js';
import type { Origin, Rules } from './rules.js';
import { effectiveTools } from './tools.js';

export interface NarrowOutcome {
  effective: EffectiveContractT;
  adjustments: AdjustmentT[];
  warnings: AdapterIssueT[];
}

export function narrow(resolved: ResolvedProfile, ceiling: Ceiling, policy: HarnessPolicyT, rules: Rules): NarrowOutcome {
  const spec = resolved.profile['spec'] as JsonObject;
  const origin = ceiling.origin;
  const adjustments: AdjustmentT[] = [...resolved.adjustments];
  const fileMeta = isObject(resolved.fileDoc['metadata']) ? resolved.fileDoc['metadata'] : {};
  const trust = { assigned: resolved.trust, claimed: fileMeta['trust'] };
  const tools = effectiveTools(spec, resolved.keptServers, trust, ceiling, policy, rules);
  adjustments.push(...tools.adjustments);
  const universe = [...new Set([...policy.tools.available, ...tools.tools])];

  const stated = (isObject(spec['permissions']) ? spec['permissions'] : {}) as RequestedPermissions;
  const permissions = narrowPermissions(stated, ceiling, rules, adjustments);
  const policyRules = narrowRules(spec, ceiling, universe, adjustments);
  const roots = rules.grantRoots(
    resolved.roots,
    { read_roots: ceiling.read_roots, write_roots: ceiling.write_roots },
    { workspace: resolved.workspace, allowAbsolute: resolved.allowAbsolute, origin, profilePath: resolved.path },
    rules,
  );
  if ('errors' in roots) throw new Rejection(roots.errors);
  adjustments.push(...roots.adjustments);
  const filesystem = {
    read_roots: roots.read_roots,
    write_roots: roots.write_roots,
    deny_paths: [...new Set([...ceiling.deny_paths, ...resolved.denyPaths])],
  };
  const p = isObject(spec['permissions']) ? spec['permissions'] : {};
  const listed = p['allow_hosts'];
  const hosts = rules.intersectHosts(Array.isArray(listed) ? (listed as string[]) : undefined, ceiling.hosts, {
    origin,
    network: p['network'],
  });
  adjustments.push(...hosts.adjustments);
  const memory = narrowMemory(spec, resolved, ceiling, rules, adjustments);
  const budgets = narrowBudgets(spec, ceiling, rules, adjustments);
  const request = modelRequestOf(spec);
  const choice = rules.modelChoice(request, policy.models);
  const substitution = rules.modelAdjustment(request, choice);
  if (substitution) adjustments.push(substitution);
  const subagents = narrowSubagents(spec, ceiling, adjustments);
  const writeback = writebackOf(spec);

  const effective: EffectiveContractT = {
    tools: tools.tools,
    permissions,
    rules: policyRules,
    filesystem,
    hosts: hosts.value,
    memory,
    budgets,
    model: { ...choice, rule: rules.reportedModelRule(choice) },
    mcp_servers: tools.mcp_servers,
    skills: resolved.skills,
    subagents,
    writeback,
  };
  const ownSpec = isObject(resolved.fileDoc['spec']) ? resolved.fileDoc['spec'] : {};
  return {
    effective: resolved.usesExtends ? rules.extendedContract(effective, { merged: stated, ownSpec }) : effective,
    adjustments,
    warnings: [...resolved.warnings, ...tools.warnings],
  };
}

/**
 * Each key is the minimum of what the profile asks and the ceiling allows. The adjustments record
 * where the narrowing rule gave less than the profile stated; the session gets the permission rule's
 * decision.
 */
function narrowPermissions(
  stated: RequestedPermissions,
  ceiling: Ceiling,
  rules: Rules,
  adjustments: AdjustmentT[],
): EffectiveContractT['permissions'] {
  const origin: Origin = ceiling.origin;
  const p = rules.requestedPermissions(stated, { origin });
  const narrowed = (k: keyof RequestedPermissions): Decision => effectiveDecision(p, ceiling.permissions, k).value;
  const decide = (k: keyof RequestedPermissions): Decision => rules.permissionDecision(p, ceiling.permissions, k, { origin, stated });
  const out = { default: decide('default') } as EffectiveContractT['permissions'];
  const requestedDefault = stated.default;
  if (requestedDefault && exceeds(requestedDefault, narrowed('default'))) {
    adjustments.push({
      pointer: '/spec/permissions/default',
      action: 'narrowed',
      reason: 'harness policy grants less',
      requested: requestedDefault,
      effective: narrowed('default'),
    });
  }
  for (const f of PERMISSION_CATEGORIES) {
    const explicit = stated[f];
    const limit = ceiling.permissions[f];
    out[f] = decide(f);
    if (explicit && exceeds(explicit, narrowed(f))) {
      adjustments.push({
        pointer: `/spec/permissions/${f}`,
        action: 'narrowed',
        reason: `${origin === 'parent' ? 'parent session' : 'harness policy'} allows at most ${limit}`,
        requested: explicit,
        effective: narrowed(f),
      });
    }
  }
  return out;
}

/** What the ceiling would decide for a tool when no rule matches: its permission field, else default. */
function ceilingDecisionForTool(tool: string, ceiling: Ceiling): Decision {
  const d = ceiling.permissions;
  if (tool === 'shell') return d.shell;
  if (tool === 'edit' || tool === 'write') return d.edit;
  if (tool.startsWith('web/') || tool === 'fetch') return d.network;
  return d.default;
}

/**
 * Ceiling rules come first (first match wins), then the profile's rules, each capped at the least
 * the ceiling would decide for any tool the rule's pattern covers, so no profile rule can say more
 * than the ceiling would have for the calls it matches.
 */
function narrowRules(spec: JsonObject, ceiling: Ceiling, universe: string[], adjustments: AdjustmentT[]): PolicyRuleT[] {
  const p = isObject(spec['permissions']) ? spec['permissions'] : {};
  const rules = Array.isArray(p['rules']) ? (p['rules'] as JsonObject[]) : [];
  const out: PolicyRuleT[] = ceiling.rules.map((r) => ({ ...r }));
  rules.forEach((r, i) => {
    const tool = (r['tool'] as string | undefined) ?? '*';
    const requested = r['decision'] as Decision;
    const covered = universe.filter((n) => globMatch(tool, n));
    const limits = (covered.length > 0 ? covered : [tool]).map((n) => ceilingDecisionForTool(n, ceiling));
    const decision = minDecision(requested, ...limits);
    if (exceeds(requested, decision)) {
      adjustments.push({
        pointer: `/spec/permissions/rules/${i}/decision`,
        action: 'narrowed',
        reason: 'rule capped at what the ceiling decides for the tools it matches',
        requested,
        effective: decision,
      });
    }
    out.push({ tool, action: (r['action'] as string | undefined) ?? '*', target: (r['target'] as string | undefined) ?? '*', decision });
  });
  return out;
}

function narrowMemory(
  spec: JsonObject,
  resolved: ResolvedProfile,
  ceiling: Ceiling,
  rules: Rules,
  adjustments: AdjustmentT[],
): EffectiveContractT['memory'] {
  const origin = ceiling.origin;
  const m = isObject(spec['memory']) ? spec['memory'] : {};
  const requestedMode = m['mode'] as MemoryMode | undefined;
  const mode = effectiveMemoryMode(requestedMode, ceiling.memory.mode).value;
  if (requestedMode && memoryExceeds(requestedMode, mode)) {
    adjustments.push({
      pointer: '/spec/memory/mode',
      action: 'narrowed',
      reason: `memory mode limited to ${mode}`,
      requested: requestedMode,
      effective: mode,
    });
  }
  const requestedScopes = Array.isArray(m['scopes']) ? (m['scopes'] as string[]) : undefined;
  const scopes = rules.memoryScopes(requestedScopes, ceiling.memory.scopes, { origin });
  requestedScopes?.forEach((s, i) => {
    if (!scopes.includes(s))
      adjustments.push({ pointer: `/spec/memory/scopes/${i}`, action: 'dropped', reason: 'scope not permitted', requested: s });
  });
  const stores: EffectiveContractT['memory']['stores'] = [];
  const requestedStores = Array.isArray(m['stores']) ? (m['stores'] as JsonObject[]) : [];
  for (const s of resolved.stores) {
    const index = requestedStores.findIndex((r) => r['name'] === s.name);
    if (ceiling.memory.stores && !ceiling.memory.stores.includes(s.name)) {
      adjustments.push({
        pointer: `/spec/memory/stores/${index}`,
        action: 'dropped',
        reason: 'the parent session has no such store',
        requested: s.name,
      });
      continue;
    }
    const storeMode = rules.storeMode(s.mode, { sectionMode: mode, ceilingMode: ceiling.memory.mode });
    if (memoryExceeds(s.mode, storeMode)) {
      adjustments.push({
        pointer: `/spec/memory/stores/${index}/mode`,
        action: 'narrowed',
        reason: `store mode limited to ${storeMode}`,
        requested: s.mode,
        effective: storeMode,
      });
    }
    stores.push({ name: s.name, kind: s.kind, mode: storeMode });
  }
  return { mode: rules.memoryMode(requestedMode, ceiling.memory.mode, { origin }), scopes, stores };
}

function narrowBudgets(spec: JsonObject, ceiling: Ceiling, rules: Rules, adjustments: AdjustmentT[]): EffectiveContractT['budgets'] {
  const origin = ceiling.origin;
  const asked = rules.requestedBudgets(spec, { origin });
  const out = {} as EffectiveContractT['budgets'];
  for (const key of BUDGET_KEYS) {
    const requested = asked[key];
    const value = rules.budget(requested, ceiling.budgets[key], { key, origin });
    out[key] = value;
    if (requested !== undefined && value !== null && value < requested) {
      adjustments.push({
        pointer: budgetPointer(key),
        action: 'narrowed',
        reason: 'budget limited by the ceiling',
        requested,
        effective: value,
      });
    }
  }
  return out;
}

function narrowSubagents(spec: JsonObject, ceiling: Ceiling, adjustments: AdjustmentT[]): EffectiveContractT['subagents'] {
  const runtime = isObject(spec['runtime']) ? spec['runtime'] : {};
  const s = isObject(runtime['subagents']) ? runtime['subagents'] : {};
  const allow = Array.isArray(s['allow']) ? [...(s['allow'] as string[])] : [];
  const out = { allow, max_depth: ceiling.subagents.max_depth, max_concurrent: ceiling.subagents.max_concurrent };
  for (const key of ['max_depth', 'max_concurrent'] as const) {
    const requested = s[key] as number | undefined;
    if (requested === undefined) continue;
    out[key] = Math.min(requested, ceiling.subagents[key]);
    if (out[key] < requested) {
      adjustments.push({
        pointer: `/spec/runtime/subagents/${key}`,
        action: 'narrowed',
        reason: 'delegation limited by the ceiling',
        requested,
        effective: out[key],
      });
    }
  }
  return out;
}

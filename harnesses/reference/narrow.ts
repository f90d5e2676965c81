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
  effectiveRules,
  exceeds,
  filledRule,
  memoryExceeds,
  minMemoryMode,
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
  const policyRules = narrowRules(spec, ceiling, rules.requestedPermissions(stated, { origin }), universe, adjustments);
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
  const parameters = rules.modelParameters(modelParametersOf(spec), { model: choice, profilePath: resolved.path });
  if ('errors' in parameters) throw new Rejection(parameters.errors);
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
    warnings: [...resolved.warnings, ...tools.warnings, ...parameters.warnings],
  };
}

/** `spec.model.parameters` as the profile writes them (none when absent). */
function modelParametersOf(spec: JsonObject): JsonObject {
  const model = isObject(spec['model']) ? spec['model'] : {};
  return isObject(model['parameters']) ? model['parameters'] : {};
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

/**
 * The effective rules are the spec model's (spec/semantics/permission-rules.ts effectiveRules): the
 * ceiling's rules first, then the profile's, each capped so that no call is decided above what both
 * the ceiling and the profile would decide for it. A profile rule capped below its decision is
 * recorded.
 */
function narrowRules(
  spec: JsonObject,
  ceiling: Ceiling,
  request: RequestedPermissions,
  universe: string[],
  adjustments: AdjustmentT[],
): PolicyRuleT[] {
  const p = isObject(spec['permissions']) ? spec['permissions'] : {};
  const written = Array.isArray(p['rules']) ? (p['rules'] as JsonObject[]) : [];
  const profileRules = written.map((r) =>
    filledRule({
      tool: r['tool'] as string | undefined,
      action: r['action'] as string | undefined,
      target: r['target'] as string | undefined,
      decision: r['decision'] as Decision,
    }),
  );
  const out = effectiveRules(
    { ceilingRules: ceiling.rules, ceilingPermissions: ceiling.permissions, profileRules, profileRequest: request },
    universe,
  );
  const own = out.slice(ceiling.rules.length);
  own.forEach((r, i) => {
    const requested = profileRules[i]!.decision;
    if (exceeds(requested, r.decision)) {
      adjustments.push({
        pointer: `/spec/permissions/rules/${i}/decision`,
        action: 'narrowed',
        reason: 'rule capped at what the ceiling decides for the calls it matches',
        requested,
        effective: r.decision,
      });
    }
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
    const inParent = ceiling.memory.stores?.find((x) => x.name === s.name);
    if (ceiling.memory.stores && !inParent) {
      adjustments.push({
        pointer: `/spec/memory/stores/${index}`,
        action: 'dropped',
        reason: 'the parent session has no such store',
        requested: s.name,
      });
      continue;
    }
    // Under a parent the store is also capped by the parent's mode for it (SPEC §3.8, spec/semantics/stores.ts).
    const own = rules.storeMode(s.mode, { sectionMode: mode, ceilingMode: ceiling.memory.mode });
    const storeMode = inParent ? minMemoryMode(own, inParent.mode) : own;
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
  return {
    mode: rules.memoryMode(requestedMode, ceiling.memory.mode, { origin, path: resolved.path, encoding: resolved.encoding }),
    scopes,
    stores,
  };
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

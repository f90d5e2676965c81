/**
 * The narrowing rule (SPEC §7.2, L1-I3): every capability of the effective contract is the more
 * restrictive of what the profile requests and what the ceiling allows. Permissions use
 * deny < ask < allow, memory uses off < read_only < read_write, budgets take the smaller bound,
 * lists take the part of the request inside the ceiling. A field the profile leaves out requests
 * nothing narrower, so it takes the ceiling's value. Every narrowing or drop of something the
 * profile asked for becomes an Adjustment (L1-I9).
 */
import type { AdapterIssueT, AdjustmentT, EffectiveContractT, HarnessPolicyT } from '../../protocol/messages.js';
import {
  BUDGET_KEYS,
  budgetPointer,
  budgetSection,
  type Decision,
  effectiveDecision,
  effectiveMemoryMode,
  exceeds,
  globMatch,
  hostCovered,
  memoryExceeds,
  minBudget,
  minDecision,
  PERMISSION_CATEGORIES,
  profileBudgets,
  requestedHosts,
  rootWithin,
  scopesBeyond,
  storeModeCap,
  writebackOf,
  type MemoryMode,
  type RequestedPermissions,
} from '../../spec/semantics/index.js';
import type { Ceiling, PolicyRuleT } from './ceiling.js';
import { isObject, type JsonObject } from './document.js';
import { resolveModel } from './model.js';
import type { Quirks } from './quirks.js';
import type { ResolvedProfile } from './resolve.js';
import { effectiveTools } from './tools.js';

export interface NarrowOutcome {
  effective: EffectiveContractT;
  adjustments: AdjustmentT[];
  warnings: AdapterIssueT[];
}

export function narrow(resolved: ResolvedProfile, ceiling: Ceiling, policy: HarnessPolicyT, quirks: Quirks): NarrowOutcome {
  const spec = resolved.profile['spec'] as JsonObject;
  const adjustments: AdjustmentT[] = [...resolved.adjustments];
  const tools = effectiveTools(spec, resolved.keptServers, resolved.trust, ceiling, policy, quirks);
  adjustments.push(...tools.adjustments);
  const universe = [...new Set([...policy.tools.available, ...tools.tools])];

  const permissions = narrowPermissions(resolved, ceiling, quirks, adjustments);
  const rules = narrowRules(spec, ceiling, universe, adjustments);
  // The L1-I3 mutants below take the profile's request as it is where the ceiling is the harness policy.
  const unnarrowed = (q: Parameters<Quirks['has']>[0]): boolean => quirks.has(q) && ceiling.origin === 'policy';
  // fs-roots-taken-as-written is one mutant over three stages (validation, containment, narrowing):
  // a harness that never processes the roots it copies into the session.
  const rootsAsRequested = unnarrowed('roots-not-intersected') || unnarrowed('fs-roots-taken-as-written');
  const filesystem = {
    read_roots:
      rootsAsRequested && resolved.filesystem.read_roots
        ? [...resolved.filesystem.read_roots]
        : narrowRoots(resolved.filesystem.read_roots, ceiling.read_roots, '/spec/permissions/filesystem/read_roots', adjustments),
    write_roots:
      rootsAsRequested && resolved.filesystem.write_roots
        ? [...resolved.filesystem.write_roots]
        : narrowRoots(resolved.filesystem.write_roots, ceiling.write_roots, '/spec/permissions/filesystem/write_roots', adjustments),
    deny_paths: [...new Set([...ceiling.deny_paths, ...resolved.filesystem.deny_paths])],
  };
  const requestedHosts =
    isObject(spec['permissions']) && Array.isArray(spec['permissions']['allow_hosts'])
      ? (spec['permissions']['allow_hosts'] as string[])
      : [];
  const hosts =
    unnarrowed('hosts-not-intersected') && requestedHosts.length > 0
      ? [...requestedHosts]
      : narrowHosts(spec, ceiling, adjustments, unnarrowed('profile-hosts-need-network-allow'));
  const memory = narrowMemory(spec, resolved, ceiling, quirks, adjustments);
  const budgets = narrowBudgets(spec, ceiling, adjustments, unnarrowed('budgets-profile-wins'), quirks, ceiling.origin);
  if (resolved.usesExtends && quirks.has('child-override-after-narrowing')) layChildBudgetsOver(resolved, budgets);
  const { model, adjustments: modelAdjustments } = resolveModel(spec, policy, quirks);
  adjustments.push(...modelAdjustments);
  const subagents = narrowSubagents(spec, ceiling, adjustments);
  const writeback = writebackOf(spec);

  const effective: EffectiveContractT = {
    tools: tools.tools,
    permissions,
    rules,
    filesystem,
    hosts,
    memory,
    budgets,
    model,
    mcp_servers: tools.mcp_servers,
    skills: resolved.skills,
    subagents,
    writeback,
  };
  return { effective, adjustments, warnings: [...resolved.warnings, ...tools.warnings] };
}

function narrowPermissions(
  resolved: ResolvedProfile,
  ceiling: Ceiling,
  quirks: Quirks,
  adjustments: AdjustmentT[],
): EffectiveContractT['permissions'] {
  const spec = resolved.profile['spec'] as JsonObject;
  const stated = (isObject(spec['permissions']) ? spec['permissions'] : {}) as RequestedPermissions;
  const p = requestedPermissions(stated, ceiling, quirks);
  const requestedDefault = stated.default;
  const out = { default: effectiveDecision(p, ceiling.permissions, 'default').value } as EffectiveContractT['permissions'];
  if (requestedDefault && exceeds(requestedDefault, out.default)) {
    adjustments.push({
      pointer: '/spec/permissions/default',
      action: 'narrowed',
      reason: 'harness policy grants less',
      requested: requestedDefault,
      effective: out.default,
    });
  }
  for (const f of PERMISSION_CATEGORIES) {
    const explicit = stated[f];
    const limit = ceiling.permissions[f];
    out[f] = effectiveDecision(p, ceiling.permissions, f).value;
    if (explicit && exceeds(explicit, out[f])) {
      adjustments.push({
        pointer: `/spec/permissions/${f}`,
        action: 'narrowed',
        reason: `${ceiling.origin === 'parent' ? 'parent session' : 'harness policy'} allows at most ${limit}`,
        requested: explicit,
        effective: out[f],
      });
    }
    // Mutants: L1-I3 lets the profile's explicit value stand; L3-E2 leaves inherited values un-narrowed.
    if (explicit && quirks.has('permission-profile-wins') && ceiling.origin === 'policy') out[f] = explicit;
    if (explicit && resolved.usesExtends && quirks.has('inherited-permissions-not-narrowed') && resolved.ownPermissions?.[f] === undefined)
      out[f] = explicit;
    // L3-E2 mutants: the child's own layer laid over the narrowed merge; a null-deleted restriction read as "unrestricted".
    const own = resolved.ownPermissions?.[f];
    if (resolved.usesExtends && quirks.has('child-override-after-narrowing') && typeof own === 'string') out[f] = own as Decision;
    if (resolved.usesExtends && quirks.has('null-delete-unrestricted') && own === null) out[f] = 'allow';
  }
  return out;
}

/**
 * What the profile asks for each key. Two L1-I3 mutants read it wrongly where the ceiling is the
 * policy: one takes the profile's decisions only when it states a `default`; the other fills the
 * categories a profile with a `default` leaves unset with the harness's own default, `ask`.
 */
function requestedPermissions(stated: RequestedPermissions, ceiling: Ceiling, quirks: Quirks): RequestedPermissions {
  if (ceiling.origin !== 'policy') return stated;
  if (stated.default === undefined) return quirks.has('lone-permission-ignored') ? {} : stated;
  if (!quirks.has('unset-categories-filled-with-ask')) return stated;
  const filled: RequestedPermissions = { ...stated };
  for (const f of PERMISSION_CATEGORIES) filled[f] = stated[f] ?? 'ask';
  return filled;
}

/** The L3-E2 mutant: budgets the child file sets itself replace the narrowed merged values. */
function layChildBudgetsOver(resolved: ResolvedProfile, budgets: EffectiveContractT['budgets']): void {
  const spec = isObject(resolved.fileDoc['spec']) ? resolved.fileDoc['spec'] : {};
  const own = profileBudgets(spec);
  for (const key of BUDGET_KEYS) {
    const value = own[key];
    if (budgetSection(key) === 'runtime' && value !== undefined) budgets[key] = value;
  }
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

/** The parts of the requested roots that lie inside a ceiling root. */
function narrowRoots(requested: string[] | undefined, limit: string[], pointer: string, adjustments: AdjustmentT[]): string[] {
  if (requested === undefined) return [...limit];
  const out: string[] = [];
  requested.forEach((r, i) => {
    if (limit.some((q) => rootWithin(r, q))) {
      out.push(r);
      return;
    }
    const inner = limit.filter((q) => rootWithin(q, r));
    if (inner.length > 0) {
      out.push(...inner);
      adjustments.push({
        pointer: `${pointer}/${i}`,
        action: 'narrowed',
        reason: 'only the parts inside the permitted roots',
        requested: r,
        effective: inner,
      });
    } else {
      adjustments.push({ pointer: `${pointer}/${i}`, action: 'dropped', reason: 'outside every permitted root', requested: r });
    }
  });
  return [...new Set(out)];
}

function narrowHosts(spec: JsonObject, ceiling: Ceiling, adjustments: AdjustmentT[], onlyUnderNetworkAllow = false): string[] {
  const p = isObject(spec['permissions']) ? spec['permissions'] : {};
  // The L1-I3 mutant narrows the profile's allow_hosts only when the profile also says network:
  // allow; otherwise the session gets the ceiling's hosts (its adjustments still list the hosts dropped).
  const ignored = onlyUnderNetworkAllow && p['network'] !== 'allow';
  const listed = p['allow_hosts'];
  const requested = requestedHosts(Array.isArray(listed) ? (listed as string[]) : undefined);
  if (requested === undefined) return [...ceiling.hosts];
  const out: string[] = [];
  requested.forEach((h, i) => {
    if (ceiling.hosts.some((q) => hostCovered(h, q))) {
      out.push(h);
      return;
    }
    const inner = ceiling.hosts.filter((q) => hostCovered(q, h));
    if (inner.length > 0) {
      out.push(...inner);
      adjustments.push({
        pointer: `/spec/permissions/allow_hosts/${i}`,
        action: 'narrowed',
        reason: 'only the hosts the ceiling allows',
        requested: h,
        effective: inner,
      });
    } else {
      adjustments.push({ pointer: `/spec/permissions/allow_hosts/${i}`, action: 'dropped', reason: 'host not allowed', requested: h });
    }
  });
  return ignored ? [...ceiling.hosts] : [...new Set(out)];
}

function narrowMemory(
  spec: JsonObject,
  resolved: ResolvedProfile,
  ceiling: Ceiling,
  quirks: Quirks,
  adjustments: AdjustmentT[],
): EffectiveContractT['memory'] {
  const m = isObject(spec['memory']) ? spec['memory'] : {};
  const requestedMode = m['mode'] as MemoryMode | undefined;
  const mode = effectiveMemoryMode(requestedMode, ceiling.memory.mode).value;
  // The L1-I3 mutant reports the policy's memory mode, whatever lower mode the profile asked for.
  const reportedMode = quirks.has('profile-memory-mode-ignored') && ceiling.origin === 'policy' ? ceiling.memory.mode : mode;
  if (requestedMode && memoryExceeds(requestedMode, mode)) {
    adjustments.push({
      pointer: '/spec/memory/mode',
      action: 'narrowed',
      reason: `memory mode limited to ${mode}`,
      requested: requestedMode,
      effective: mode,
    });
  }
  let scopes: string[];
  if (Array.isArray(m['scopes'])) {
    scopes = [];
    (m['scopes'] as string[]).forEach((s, i) => {
      const permitted = scopesBeyond([s], ceiling.memory.scopes).length === 0;
      if (permitted || (quirks.has('memory-scopes-not-narrowed') && ceiling.origin === 'policy')) scopes.push(s);
      else adjustments.push({ pointer: `/spec/memory/scopes/${i}`, action: 'dropped', reason: 'scope not permitted', requested: s });
    });
  } else scopes = [...ceiling.memory.scopes];
  // The L3-Y1 mutant ignores the profile's scope request: the session gets every scope the ceiling permits.
  if (quirks.has('memory-scope-request-ignored')) scopes = [...ceiling.memory.scopes];
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
    // The L3-Y1 mutant caps a store at the ceiling's mode instead of the effective memory mode.
    const cap = quirks.has('store-mode-above-memory-mode') ? ceiling.memory.mode : mode;
    const storeMode = quirks.has('store-mode-uncapped') ? s.mode : storeModeCap(s.mode, cap);
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
  return { mode: reportedMode, scopes, stores };
}

function narrowBudgets(
  spec: JsonObject,
  ceiling: Ceiling,
  adjustments: AdjustmentT[],
  profileWins: boolean,
  quirks: Quirks,
  origin: Ceiling['origin'],
): EffectiveContractT['budgets'] {
  const asked = profileBudgets(spec);
  const out = {} as EffectiveContractT['budgets'];
  const policyMutant = (q: Parameters<Quirks['has']>[0]): boolean => quirks.has(q) && origin === 'policy';
  // The L1-I3 mutant takes wall clock and context window from the harness alone.
  if (policyMutant('profile-timeout-and-context-window-ignored')) {
    delete asked.timeout_seconds;
    delete asked.max_context_tokens;
  }
  // The L1-I3 mutant reads a limit of 0 as "no limit" (`limit || undefined`), on both sides.
  const zeroUnbounded = policyMutant('zero-budget-unlimited');
  const side = (v: number | null | undefined): number | null | undefined => (zeroUnbounded && v === 0 ? undefined : v);
  for (const key of BUDGET_KEYS) {
    const requested = asked[key];
    let value = profileWins && requested !== undefined ? requested : minBudget(side(requested), side(ceiling.budgets[key]));
    // The L1-I3 mutant keeps integer budgets in 32-bit signed fields where a negative value is the
    // "no limit" sentinel, so 2^31 wraps to unlimited.
    if (policyMutant('budgets-int32') && value !== null && key !== 'max_cost_usd') value = (value | 0) < 0 ? null : value | 0;
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

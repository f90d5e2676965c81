/**
 * The one judge of an effective contract (issue 20 part 1): a harness's whole answer against the
 * prediction of ./contract.ts, every dimension at once.
 *
 * Reading (INTERPRETATIONS.md#the-whole-contract): "A profile MAY reduce what the harness would
 * otherwise grant. It MUST NOT increase it" (SPEC §7.2), and conformance.md L1-I3 asks that the
 * effective value be "never more permissive than local policy alone". So the prediction is a
 * bound: an answer more permissive than it anywhere is `wider` and fails, naming the dimension and
 * the value; an answer less permissive is `narrower`, allowed and noted (decisions included: the
 * minimum of §3.5 is the most a session may get, and `ask` where it gives `allow` is a stricter
 * harness, not a wider one). Where a sentence fixes a value exactly, anything else `differs` and
 * fails: the §3.4 tool table (L1-I2), the §3.3 rule and its model (L1-I12), a transport (L3-M1), a
 * skill's status (L3-K1), the writeback mode (L2-A6).
 *
 * Each finding names the requirement(s) whose sentence it violates: a widening against the ceiling
 * is the narrowing requirement of the session's origin (L1-I3 under the policy, L3-B1 under a
 * parent, or the one the caller names, L3-E2 for a composed profile); a tool the ceiling grants
 * but the table excludes is L1-I2's; an MCP tool its server does not offer is L3-M1's; a memory mode,
 * scope or store mode above the profile's own request is L3-Y1's too ("MUST enforce
 * `spec.memory.mode` and `scopes`").
 */
import type { EffectiveContractT } from '../../protocol/messages.js';
import { BUDGET_KEYS, budgetAtMost } from './budget.js';
import type { ContractPrediction } from './contract.js';
import { exceeds, PERMISSION_KEYS } from './decision.js';
import { hostsAllowed } from './host.js';
import { DEFAULT_MEMORY_MODE, memoryExceeds } from './memory.js';
import { mcpToolParts } from './mcp.js';
import { type Probes, probesFor } from './narrowing.js';
import { normalizeRoot, pathAllowed } from './path.js';
import { callDecision, mostForCall, permissionCategory, ruleMatches, ruleProbes } from './permission-rules.js';
import { pointerOf } from './pointer.js';

/** How an answer departs from the prediction at one place. */
type Deviation = 'wider' | 'narrower' | 'differs';

export interface ContractFinding {
  /** Where, as a pointer label into the effective contract (`/permissions/shell`, `/tools/git~1diff`). */
  pointer: string;
  deviation: Deviation;
  expected: unknown;
  observed: unknown;
  /** The requirement IDs whose sentence the deviation violates; empty for an allowed narrowing. */
  requirements: string[];
}

export interface JudgeOptions {
  /** Paths and hosts at which roots and hosts are compared by meaning, besides those derived from both sides. */
  probes?: Probes | undefined;
  /** The workspace, to read absolute roots an adapter reports as workspace-relative ones. */
  workspace?: string | undefined;
  /** The requirement a widening against the ceiling violates, when not the origin's (L3-E2 for a composed profile). */
  narrowing?: string | undefined;
}

/** Is `f` a finding that fails the answer (wider, or other than a fixed value)? */
export function failsContract(f: ContractFinding): boolean {
  return f.deviation !== 'narrower';
}

/** Every place `effective` departs from `prediction`, wider, narrower or different. */
export function contractFindings(
  effective: EffectiveContractT,
  prediction: ContractPrediction,
  opts: JudgeOptions = {},
): ContractFinding[] {
  const N = opts.narrowing ?? (prediction.origin === 'parent' ? 'L3-B1' : 'L1-I3');
  const out: ContractFinding[] = [];
  const wider = (pointer: string, expected: unknown, observed: unknown, requirements: string[] = [N]): void => {
    out.push({ pointer, deviation: 'wider', expected, observed, requirements: [...new Set(requirements)] });
  };
  const narrower = (pointer: string, expected: unknown, observed: unknown): void => {
    out.push({ pointer, deviation: 'narrower', expected, observed, requirements: [] });
  };
  const differs = (pointer: string, expected: unknown, observed: unknown, requirement: string): void => {
    out.push({ pointer, deviation: 'differs', expected, observed, requirements: [requirement] });
  };

  judgeTools(effective, prediction, { wider, narrower, differs });
  for (const k of PERMISSION_KEYS) {
    const most = prediction.permissions[k].value;
    const got = effective.permissions[k];
    if (exceeds(got, most)) wider(`/permissions/${k}`, { atMost: most }, got);
    else if (exceeds(most, got)) narrower(`/permissions/${k}`, { atMost: most }, got);
  }
  judgeRules(effective, prediction, wider);
  judgeReach(effective, prediction, opts, { wider, narrower });
  judgeMemory(effective, prediction, N, { wider, narrower });
  for (const k of BUDGET_KEYS) {
    const most = prediction.budgets[k].value;
    const got = effective.budgets[k];
    if (!budgetAtMost(got, most)) wider(`/budgets/${k}`, { atMost: most }, got);
    else if (got !== most) narrower(`/budgets/${k}`, { atMost: most }, got);
  }
  judgeModel(effective, prediction, differs);
  judgeServers(effective, prediction, N, { wider, narrower, differs });
  judgeSkills(effective, prediction, { wider, differs });
  const allow = new Set(prediction.subagents.allow);
  for (const n of effective.subagents.allow) if (!allow.has(n)) wider(pointerOf(['subagents', 'allow', n]), { within: [...allow] }, n);
  for (const k of ['max_depth', 'max_concurrent'] as const) {
    const most = prediction.subagents[k].value;
    if (effective.subagents[k] > most) wider(`/subagents/${k}`, { atMost: most }, effective.subagents[k]);
    else if (effective.subagents[k] < most) narrower(`/subagents/${k}`, { atMost: most }, effective.subagents[k]);
  }
  if (effective.writeback !== prediction.writeback.value) differs('/writeback', prediction.writeback.value, effective.writeback, 'L2-A6');
  return out;
}

type Wider = (pointer: string, expected: unknown, observed: unknown, requirements?: string[]) => void;
type Narrower = (pointer: string, expected: unknown, observed: unknown) => void;
type Differs = (pointer: string, expected: unknown, observed: unknown, requirement: string) => void;

/** Tools: within the grant (the narrowing requirement), offered by their server (L3-M1), exactly the table (L1-I2). */
function judgeTools(effective: EffectiveContractT, p: ContractPrediction, r: { wider: Wider; narrower: Narrower; differs: Differs }): void {
  const granted = new Set(p.tools.granted);
  const universe = new Set(p.tools.universe);
  const table = new Set(p.tools.value);
  const declared = new Set(p.tools.declaredServers);
  for (const t of new Set(effective.tools)) {
    const at = pointerOf(['tools', t]);
    const server = mcpToolParts(t)?.server;
    if (server !== undefined && declared.has(server) && !universe.has(t))
      r.wider(at, { within: 'the tools its MCP server offers' }, t, ['L3-M1']);
    else if (!granted.has(t)) r.wider(at, { within: p.tools.granted }, t);
    else if (!table.has(t)) r.wider(at, { within: p.tools.value }, t, ['L1-I2']);
  }
  // The table fixes the set (L1-I2), except the tools of a declared server, whose own allow/deny
  // the spec reads only for the server's own tool names: a harness may read more into them.
  const got = new Set(effective.tools);
  for (const t of p.tools.value) {
    if (got.has(t)) continue;
    const server = mcpToolParts(t)?.server;
    if (server !== undefined && declared.has(server)) r.narrower(pointerOf(['tools', t]), { present: true }, { present: false });
    else r.differs(pointerOf(['tools', t]), { present: true }, { present: false }, 'L1-I2');
  }
}

/**
 * Rules: at every probe call, the effective rules and decisions give no more than the ceiling and
 * the profile both do. A call no effective rule matches, decided by a category already wider than
 * the prediction, is that category's finding (/permissions), not reported twice.
 */
function judgeRules(effective: EffectiveContractT, p: ContractPrediction, wider: Wider): void {
  const { sides } = p.rules;
  const probes = ruleProbes([...effective.rules, ...sides.ceilingRules, ...sides.profileRules], p.tools.universe);
  for (const call of probes) {
    const got = callDecision(effective.rules, effective.permissions, call);
    const most = mostForCall(sides, call);
    if (!exceeds(got, most)) continue;
    const category = permissionCategory(call.tool);
    if (!effective.rules.some((r) => ruleMatches(r, call)) && exceeds(got, p.permissions[category].value)) continue;
    wider(pointerOf(['rules', `${call.tool} ${call.action} ${call.target}`]), { call, atMost: most }, got);
  }
}

/** Roots and hosts by meaning, over probe paths and hosts; roots outside the workspace are always wider. */
function judgeReach(
  effective: EffectiveContractT,
  p: ContractPrediction,
  opts: JudgeOptions,
  r: { wider: Wider; narrower: Narrower },
): void {
  const { workspace } = opts;
  const { request, ceiling } = p;
  const derived = probesFor(
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
  const probes = {
    paths: [...new Set([...derived.paths, ...(opts.probes?.paths ?? [])])],
    hosts: [...new Set([...derived.hosts, ...(opts.probes?.hosts ?? [])])],
  };
  for (const key of ['read_roots', 'write_roots'] as const) {
    // A root that names no place inside the workspace reaches outside it (security.md T6).
    const outside = effective.filesystem[key].filter((root) => normalizeRoot(root, workspace) === undefined);
    if (outside.length > 0) r.wider(`/filesystem/${key}`, { within: 'the workspace' }, outside);
    for (const path of probes.paths) {
      const most =
        pathAllowed(ceiling.filesystem[key], ceiling.filesystem.deny_paths, path, workspace) &&
        pathAllowed(request[key] ?? ['.'], request.deny_paths, path, workspace);
      const got = pathAllowed(effective.filesystem[key], effective.filesystem.deny_paths, path, workspace);
      if (got && !most) r.wider(`/filesystem/${key}`, { path, allowed: false }, { path, allowed: true });
      else if (most && !got) r.narrower(`/filesystem/${key}`, { path, allowed: true }, { path, allowed: false });
    }
  }
  for (const host of probes.hosts) {
    const most = hostsAllowed(ceiling.hosts, host) && (request.hosts === undefined || hostsAllowed(request.hosts, host));
    const got = hostsAllowed(effective.hosts, host);
    if (got && !most) r.wider('/hosts', { host, allowed: false }, { host, allowed: true });
    else if (most && !got) r.narrower('/hosts', { host, allowed: true }, { host, allowed: false });
  }
}

/** Memory: mode and scopes within the intersection, stores the harness has and the ceiling allows, each within its bound. */
function judgeMemory(effective: EffectiveContractT, p: ContractPrediction, N: string, r: { wider: Wider; narrower: Narrower }): void {
  const { memory, request } = p;
  const own = request.memoryMode ?? DEFAULT_MEMORY_MODE;
  const mode = effective.memory.mode;
  if (memoryExceeds(mode, memory.mode.value))
    r.wider('/memory/mode', { atMost: memory.mode.value }, mode, memoryExceeds(mode, own) ? [N, 'L3-Y1'] : [N]);
  else if (memoryExceeds(memory.mode.value, mode)) r.narrower('/memory/mode', { atMost: memory.mode.value }, mode);
  const allowed = new Set(memory.scopes.value);
  const requested = request.scopes === undefined ? undefined : new Set(request.scopes);
  for (const s of effective.memory.scopes) {
    if (!allowed.has(s))
      r.wider(pointerOf(['memory', 'scopes', s]), { within: [...allowed] }, s, requested && !requested.has(s) ? [N, 'L3-Y1'] : [N]);
  }
  for (const s of memory.scopes.value) if (!effective.memory.scopes.includes(s)) r.narrower(pointerOf(['memory', 'scopes', s]), s, null);
  for (const s of effective.memory.stores) {
    const at = pointerOf(['memory', 'stores', s.name]);
    const predicted = memory.stores.find((x) => x.name === s.name && x.kind === s.kind);
    if (!predicted) r.wider(at, { within: memory.stores.map((x) => `${x.name} (${x.kind})`) }, `${s.name} (${s.kind})`);
    else if (memoryExceeds(s.mode, predicted.mode)) {
      // Above the effective section mode is L3-Y1's ("`mode` is the ceiling for the whole section");
      // above what the ceiling alone allows the store, the narrowing requirement's too.
      const ids = [
        ...(memoryExceeds(s.mode, predicted.ceiling) ? [N] : []),
        ...(memoryExceeds(s.mode, memory.mode.value) || !memoryExceeds(s.mode, predicted.ceiling) ? ['L3-Y1'] : []),
      ];
      r.wider(at, { atMost: predicted.mode }, s.mode, ids);
    } else if (memoryExceeds(predicted.mode, s.mode)) r.narrower(at, { atMost: predicted.mode }, s.mode);
  }
  for (const s of memory.stores)
    if (!effective.memory.stores.some((x) => x.name === s.name)) r.narrower(pointerOf(['memory', 'stores', s.name]), s, null);
}

/** The model: SPEC §3.3's rule, and a model it allows (L1-I12). */
function judgeModel(effective: EffectiveContractT, p: ContractPrediction, differs: Differs): void {
  const { rule, models } = p.model;
  if (effective.model.rule !== rule) differs('/model/rule', rule, effective.model.rule, 'L1-I12');
  if (!models.some((m) => m.provider === effective.model.provider && m.id === effective.model.id))
    differs('/model', { oneOf: models }, { provider: effective.model.provider, id: effective.model.id }, 'L1-I12');
}

/** MCP servers: only kept servers, with their transport, a launch the policy allows, and the tools they offer. */
function judgeServers(
  effective: EffectiveContractT,
  p: ContractPrediction,
  N: string,
  r: { wider: Wider; narrower: Narrower; differs: Differs },
): void {
  for (const s of effective.mcp_servers) {
    const at = pointerOf(['mcp_servers', s.name]);
    const predicted = p.mcp_servers.find((x) => x.name === s.name);
    if (!predicted) {
      r.wider(at, { within: p.mcp_servers.map((x) => x.name) }, s.name, ['L3-M1']);
      continue;
    }
    if (s.transport !== predicted.transport) r.differs(`${at}/transport`, predicted.transport, s.transport, 'L3-M1');
    if (!predicted.launch.includes(s.launch)) r.wider(`${at}/launch`, { oneOf: predicted.launch }, s.launch, [N]);
    const offered = new Set(predicted.tools);
    for (const t of s.tools) if (!offered.has(t)) r.wider(`${at}/tools`, { within: predicted.tools }, t, ['L3-M1']);
  }
  for (const s of p.mcp_servers)
    if (!effective.mcp_servers.some((x) => x.name === s.name)) r.narrower(pointerOf(['mcp_servers', s.name]), s, null);
}

/** Skills: each the status installation and pin give it (L3-K1); none the profile did not ask for. */
function judgeSkills(effective: EffectiveContractT, p: ContractPrediction, r: { wider: Wider; differs: Differs }): void {
  for (const k of effective.skills) {
    const at = pointerOf(['skills', k.name]);
    const predicted = p.skills.find((x) => x.name === k.name);
    if (!predicted) r.wider(at, { within: p.skills.map((x) => x.name) }, k.name, ['L3-K1']);
    else if (k.status === 'present' && predicted.status === 'missing') r.wider(at, 'missing', 'present', ['L3-K1']);
    else if (k.status !== predicted.status) r.differs(at, predicted.status, k.status, 'L3-K1');
  }
  for (const k of p.skills)
    if (!effective.skills.some((x) => x.name === k.name)) r.differs(pointerOf(['skills', k.name]), k.status, null, 'L3-K1');
}

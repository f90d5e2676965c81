/**
 * The effective tool set (SPEC §3.4). The universe is what the harness has: its own tools plus the
 * catalog tools of the MCP servers this profile declares (filtered by each server's tools.allow and
 * tools.deny). The ceiling then says which of those are granted in this context, and the profile's
 * policy selects from the granted ones by the spec model's table (spec/semantics/tools.ts), through
 * the selectTools rule.
 */
import type { AdapterIssueT, AdjustmentT, EffectiveContractT, HarnessPolicyT } from '../../protocol/messages.js';
import type { Ceiling } from './ceiling.js';
import { globMatch } from '../../spec/semantics/index.js';
import { adapterIssue } from './issues.js';
import { isObject, type JsonObject } from './json.js';
import type { Trust } from './roots.js';
import type { Rules } from './rules.js';

export interface ToolOutcome {
  tools: string[];
  mcp_servers: EffectiveContractT['mcp_servers'];
  adjustments: AdjustmentT[];
  warnings: AdapterIssueT[];
}

export function effectiveTools(
  spec: JsonObject,
  keptServers: number[],
  trust: { assigned: Trust; claimed: unknown },
  ceiling: Ceiling,
  policy: HarnessPolicyT,
  rules: Rules,
): ToolOutcome {
  const t = isObject(spec['tools']) ? spec['tools'] : {};
  const servers = Array.isArray(t['mcp_servers']) ? (t['mcp_servers'] as JsonObject[]) : [];
  const adjustments: AdjustmentT[] = [];
  const warnings: AdapterIssueT[] = [];

  const declared = new Map<string, JsonObject>();
  servers.forEach((s, i) => {
    declared.set(String(s['name']), { ...s, __kept: keptServers.includes(i) });
  });
  const universe = new Set(policy.tools.available);
  for (const i of keptServers) {
    const s = servers[i]!;
    for (const tool of policy.mcp.catalog[String(s['name'])] ?? []) universe.add(`mcp/${String(s['name'])}/${tool}`);
  }
  // A declared server decides which of its own tools exist for this session; a dropped one has none.
  for (const name of [...universe]) {
    const m = /^mcp\/([^/]+)\/(.+)$/.exec(name);
    const s = m ? declared.get(m[1]!) : undefined;
    if (m && s && !serverOffers(s, m[2]!, name, rules)) universe.delete(name);
  }
  const granted = [...universe].filter((n) => ceiling.grants(n));

  const policyKind = rules.toolPolicy(t['policy']);
  const allow = Array.isArray(t['allow']) ? (t['allow'] as string[]) : [];
  const deny = Array.isArray(t['deny']) ? (t['deny'] as string[]) : [];
  const selected = rules.selectTools(
    { policy: policyKind, allow, deny, stated: isObject(spec['tools']) },
    { granted, universe: [...universe] },
    { origin: ceiling.origin },
  );
  if (selected.ignored.length > 0) {
    warnings.push(adapterIssue('other', '/spec/tools', 'tools.policy is inherit: allow and deny are ignored'));
    if (selected.ignored.includes('allow'))
      adjustments.push({ pointer: '/spec/tools/allow', action: 'dropped', reason: 'ignored under tools.policy inherit', requested: allow });
    if (selected.ignored.includes('deny'))
      adjustments.push({ pointer: '/spec/tools/deny', action: 'dropped', reason: 'ignored under tools.policy inherit', requested: deny });
  }
  // Under an allowlist, every listed entry that names no granted tool is recorded.
  if (policyKind !== 'inherit' && policyKind !== 'denylist') {
    allow.forEach((entry, i) => {
      if (granted.some((n) => globMatch(entry, n))) return;
      const inUniverse = [...universe].some((n) => globMatch(entry, n));
      adjustments.push({
        pointer: `/spec/tools/allow/${i}`,
        action: 'dropped',
        reason: inUniverse
          ? `"${entry}" is not granted ${ceiling.origin === 'parent' ? 'to the parent session' : 'by harness policy'}`
          : `"${entry}" is not a tool this harness has`,
        requested: entry,
      });
    });
  }
  const tools = [...new Set(selected.value)].sort();

  const mcp_servers: EffectiveContractT['mcp_servers'] = keptServers.map((i) => {
    const s = servers[i]!;
    const name = String(s['name']);
    return {
      name,
      transport: rules.mcpTransport(s['transport']),
      launch: rules.mcpLaunch(trust.assigned, policy.mcp.auto_launch, { claimed: trust.claimed }),
      tools: tools.filter((n) => n.startsWith(`mcp/${name}/`)),
    };
  });
  return { tools, mcp_servers, adjustments, warnings };
}

/** Per-server tools.allow / tools.deny, matched against the bare tool name or the full mcp/ name. */
function serverOffers(server: JsonObject, tool: string, full: string, rules: Rules): boolean {
  if (server['__kept'] !== true) return false;
  const f = isObject(server['tools']) ? server['tools'] : {};
  const deny = Array.isArray(f['deny']) ? (f['deny'] as string[]) : [];
  return rules.serverOffersTool({ ...(Array.isArray(f['allow']) ? { allow: f['allow'] as string[] } : {}), deny }, tool, full);
}

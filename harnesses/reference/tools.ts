/**
 * The effective tool set (SPEC §3.4). The universe is what the harness has: its own tools plus the
 * catalog tools of the MCP servers this profile declares (filtered by each server's tools.allow and
 * tools.deny). The ceiling then says which of those are granted in this context, and the profile's
 * policy selects from the granted ones by the spec model's table (spec/semantics/tools.ts). The
 * L1-I2 and L1-I3 quirks change what goes into that table, never the table itself.
 */
import type { AdapterIssueT, AdjustmentT, EffectiveContractT, HarnessPolicyT } from '../../protocol/messages.js';
import type { Ceiling } from './ceiling.js';
import { isObject, type JsonObject } from './document.js';
import {
  DEFAULT_TOOL_POLICY,
  globMatch,
  isGlob,
  matchesAny,
  type ToolPolicy,
  type ToolsRequest,
  toolTable,
} from '../../spec/semantics/index.js';
import { adapterIssue } from './issues.js';
import type { Quirks } from './quirks.js';
import type { Trust } from './roots.js';

export interface ToolOutcome {
  tools: string[];
  mcp_servers: EffectiveContractT['mcp_servers'];
  adjustments: AdjustmentT[];
  warnings: AdapterIssueT[];
}

export function effectiveTools(
  spec: JsonObject,
  keptServers: number[],
  trust: Trust,
  ceiling: Ceiling,
  policy: HarnessPolicyT,
  quirks: Quirks,
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
    if (m && s && !serverOffers(s, m[2]!, name, quirks)) universe.delete(name);
  }
  const granted = [...universe].filter((n) => ceiling.grants(n));
  // The L1-I3 mutant intersects with the grant only under allowlist: denylist and inherit start from every tool the harness has.
  const base = quirks.has('ungranted-tools-outside-allowlist') && ceiling.origin === 'policy' ? [...universe] : granted;

  const policyKind = (t['policy'] as ToolPolicy | undefined) ?? DEFAULT_TOOL_POLICY;
  const allow = Array.isArray(t['allow']) ? (t['allow'] as string[]) : [];
  const deny = Array.isArray(t['deny']) ? (t['deny'] as string[]) : [];
  let selected: string[];
  if (policyKind === 'inherit' && quirks.has('inherit-applies-lists')) {
    // The L1-I2 mutant treats inherit like an allowlist when lists are present.
    selected = toolTable(allow.length === 0 ? { policy: 'denylist', deny } : { policy: 'allowlist', allow, deny }, base).value;
  } else if (policyKind === 'inherit') {
    // The L1-I2 mutant subtracts the deny list under inherit too (inherit read as "denylist").
    selected = toolTable(
      quirks.has('inherit-applies-deny') ? { policy: 'denylist', deny } : { policy: 'inherit', allow, deny },
      base,
    ).value;
    if (allow.length > 0 || deny.length > 0) {
      warnings.push(adapterIssue('other', '/spec/tools', 'tools.policy is inherit: allow and deny are ignored'));
      if (allow.length > 0)
        adjustments.push({
          pointer: '/spec/tools/allow',
          action: 'dropped',
          reason: 'ignored under tools.policy inherit',
          requested: allow,
        });
      if (deny.length > 0)
        adjustments.push({ pointer: '/spec/tools/deny', action: 'dropped', reason: 'ignored under tools.policy inherit', requested: deny });
    }
  } else if (policyKind === 'denylist') {
    selected = toolTable({ policy: quirks.has('denylist-ignored') ? 'inherit' : 'denylist', deny }, base).value;
  } else if (allow.length === 0 && isObject(spec['tools']) && quirks.has('allowlist-without-allow-grants-all')) {
    // The L1-I2 mutant reads an allowlist that lists nothing as "no restriction": granted minus deny.
    selected = toolTable({ policy: 'denylist', deny }, granted).value;
  } else {
    // The L1-I2 mutant forgets the deny list under allowlist (denylist still subtracts it).
    const request: ToolsRequest = { policy: 'allowlist', allow, deny: quirks.has('allowlist-deny-ignored') ? [] : deny };
    selected = toolTable(request, granted).value;
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
      // The L1-I3 mutant adds what the profile listed even though policy did not grant it.
      if (quirks.has('union-tools') && ceiling.origin === 'policy' && !isGlob(entry) && !matchesAny(deny, entry)) selected.push(entry);
    });
  }
  const tools = [...new Set(selected)].sort();

  const mcp_servers: EffectiveContractT['mcp_servers'] = keptServers.map((i) => {
    const s = servers[i]!;
    const name = String(s['name']);
    const confirm = (!quirks.has('mcp-auto-launch-untrusted') && (trust === 'project' || trust === 'imported')) || !policy.mcp.auto_launch;
    return {
      name,
      transport: s['transport'] === 'http' && !quirks.has('mcp-http-as-stdio') ? 'http' : 'stdio',
      launch: confirm ? 'confirm' : 'auto',
      tools: tools.filter((n) => n.startsWith(`mcp/${name}/`)),
    };
  });
  return { tools, mcp_servers, adjustments, warnings };
}

/** Per-server tools.allow / tools.deny, matched against the bare tool name or the full mcp/ name. */
function serverOffers(server: JsonObject, tool: string, full: string, quirks: Quirks): boolean {
  if (server['__kept'] !== true) return false;
  const f = isObject(server['tools']) ? server['tools'] : {};
  const allow = Array.isArray(f['allow']) ? (f['allow'] as string[]) : undefined;
  const deny = Array.isArray(f['deny']) ? (f['deny'] as string[]) : [];
  const hit = (globs: string[]): boolean => matchesAny(globs, tool) || matchesAny(globs, full);
  if (allow && !hit(allow)) return false;
  if (!quirks.has('mcp-server-tool-deny-ignored') && hit(deny)) return false;
  return true;
}

/**
 * MCP servers a profile declares (SPEC §3.4 `mcp_servers`, §5.2 step 6, §7.3; conformance.md
 * L3-M1, L3-M2).
 *
 * Reading (INTERPRETATIONS.md#mcp-servers): a declared server is kept when every `${VAR}` its `env`
 * and `headers` reference is set in the harness environment (§5.2 step 6: otherwise "the server is
 * dropped with a warning"; the schema has no per-server `required`). A kept server offers the tools
 * it advertises (the protocol's `mcp.catalog`), as `mcp/<server>/<tool>` (§3.4's convention),
 * filtered by its own `tools.allow` (absent = every tool) and `tools.deny`. Per-server entries are
 * the server's own tool names; the spec fixes nothing for a full `mcp/<server>/<tool>` name there,
 * so the most permissive reading takes such an entry as selecting the tool in `allow` and as naming
 * nothing in `deny` (a harness that also honours it in `deny` is stricter). A dropped server offers
 * nothing: none of its tools is in the session, even one the harness lists in `available`.
 *
 * Launching: with the policy's `auto_launch` false the harness confirms every launch, so `auto` is
 * beyond the policy; with it true, `auto` and `confirm` are both allowed (§7.3 "SHOULD NOT
 * auto-launch servers from a `project` or `imported` profile without confirmation" is a SHOULD,
 * judged by L3-M2 alone).
 */
import type { HarnessPolicyT } from '../../protocol/messages.js';
import { matchesAny } from './glob.js';

export type Transport = 'stdio' | 'http';
export type Launch = 'auto' | 'confirm';
export type Trust = 'managed' | 'user' | 'project' | 'imported';

/** A declared server as the rules read it. */
export interface McpServerRequest {
  index: number;
  name: string;
  transport: Transport;
  /** The variables its `env` and `headers` reference. */
  references: string[];
  allow?: readonly string[] | undefined;
  deny: readonly string[];
}

const record = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const strings = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined);

const REFERENCE = /\$\{([A-Z][A-Z0-9_]*)\}/;

/** The variables a server's `env` and `headers` values reference. */
function serverReferences(server: unknown): string[] {
  const s = record(server);
  return [...Object.values(record(s['env'])), ...Object.values(record(s['headers']))]
    .map((v) => REFERENCE.exec(String(v))?.[1])
    .filter((v): v is string => v !== undefined);
}

/** `spec.tools.mcp_servers` of a profile's `spec`. */
export function mcpServersOf(spec: unknown): McpServerRequest[] {
  const servers = record(record(spec)['tools'])['mcp_servers'];
  if (!Array.isArray(servers)) return [];
  return servers.map((raw, index) => {
    const s = record(raw);
    const filters = record(s['tools']);
    return {
      index,
      name: String(s['name']),
      transport: s['transport'] === 'http' ? 'http' : 'stdio',
      references: serverReferences(s),
      allow: strings(filters['allow']),
      deny: strings(filters['deny']) ?? [],
    };
  });
}

/** The variables a server references that the harness environment does not set. */
export function unsetReferences(server: McpServerRequest, env: Readonly<Record<string, string>>): string[] {
  return server.references.filter((v) => !Object.hasOwn(env, v));
}

/** Does a server offer its tool `tool` (bare name) under its own allow/deny, at the most permissive reading? */
export function serverOffers(server: Pick<McpServerRequest, 'name' | 'allow' | 'deny'>, tool: string): boolean {
  const full = `mcp/${server.name}/${tool}`;
  const allowed = server.allow === undefined || matchesAny(server.allow, tool) || matchesAny(server.allow, full);
  return allowed && !matchesAny(server.deny, tool);
}

/** The server a `mcp/<server>/<tool>` name belongs to, and the bare tool. */
export function mcpToolParts(name: string): { server: string; tool: string } | undefined {
  const m = /^mcp\/([^/]+)\/(.+)$/.exec(name);
  return m ? { server: m[1]!, tool: m[2]! } : undefined;
}

/**
 * The tools the harness has for this profile: its `available` tools and the advertised tools of
 * every kept declared server, less every tool of a declared server that the server does not offer
 * (or that was dropped).
 */
export function toolUniverse(
  policy: Pick<HarnessPolicyT, 'tools' | 'mcp' | 'env'>,
  servers: readonly McpServerRequest[],
): { tools: string[]; kept: McpServerRequest[] } {
  const kept = servers.filter((s) => unsetReferences(s, policy.env).length === 0);
  const universe = new Set(policy.tools.available);
  for (const s of kept) for (const t of policy.mcp.catalog[s.name] ?? []) universe.add(`mcp/${s.name}/${t}`);
  const declared = new Map(servers.map((s) => [s.name, s]));
  const keptNames = new Set(kept.map((s) => s.name));
  const tools = [...universe].filter((name) => {
    const parts = mcpToolParts(name);
    const server = parts ? declared.get(parts.server) : undefined;
    return !parts || !server || (keptNames.has(server.name) && serverOffers(server, parts.tool));
  });
  return { tools: tools.sort(), kept };
}

/** The launch modes a kept server may report. */
export function launchAllowed(autoLaunch: boolean): readonly Launch[] {
  return autoLaunch ? ['confirm', 'auto'] : ['confirm'];
}

/** The launch §7.3 recommends for a profile of this trust (SHOULD; L3-M2). */
export function recommendedLaunch(trust: Trust, autoLaunch: boolean): Launch {
  return trust === 'project' || trust === 'imported' || !autoLaunch ? 'confirm' : 'auto';
}

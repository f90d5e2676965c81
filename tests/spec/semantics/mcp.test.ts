import { describe, expect, it } from 'vitest';
import type { HarnessPolicyT } from '../../../protocol/messages.js';
import {
  launchAllowed,
  mcpServersOf,
  recommendedLaunch,
  serverOffers,
  toolUniverse,
  unsetReferences,
} from '../../../spec/semantics/index.js';

const POLICY: Pick<HarnessPolicyT, 'tools' | 'mcp' | 'env'> = {
  tools: { available: ['read', 'mcp/other/x', 'mcp/files/stale'], grant: ['**'] },
  mcp: { catalog: { files: ['read_file', 'delete'], tickets: ['search'] }, auto_launch: true },
  env: { FILES_TOKEN: 'x' },
};

const spec = (servers: unknown[]) => ({ tools: { mcp_servers: servers } });

describe('MCP servers (SPEC §3.4, §5.2 step 6, §7.3; INTERPRETATIONS.md, MCP servers)', () => {
  it('reads transport, references and per-server filters', () => {
    const [s] = mcpServersOf(
      spec([{ name: 'files', transport: 'stdio', env: { FILES_TOKEN: '${FILES_TOKEN}' }, tools: { deny: ['delete'] } }]),
    );
    expect(s).toEqual({ index: 0, name: 'files', transport: 'stdio', references: ['FILES_TOKEN'], allow: undefined, deny: ['delete'] });
    expect(unsetReferences(s!, {})).toEqual(['FILES_TOKEN']);
  });

  it.each([
    [{ deny: ['delete'] }, 'delete', false, 'mcp.servers/per-server-names: the own name denies'],
    [{ deny: ['mcp/files/delete'] }, 'delete', true, 'mcp.servers/per-server-names: a full name in deny names nothing (most permissive)'],
    [{ allow: ['mcp/files/delete'] }, 'delete', true, 'a full name in allow selects the tool (most permissive)'],
    [{ allow: ['read_file'] }, 'delete', false, 'an allow list selects only what it lists'],
    [{ allow: ['read_file'], deny: ['read_file'] }, 'read_file', false, 'mcp.servers/per-server-deny-over-allow'],
  ] as Array<[{ allow?: string[]; deny?: string[] }, string, boolean, string]>)('serverOffers %j %s → %s (%s)', (f, tool, want) => {
    expect(serverOffers({ name: 'files', allow: f.allow, deny: f.deny ?? [] }, tool)).toBe(want);
  });

  it('the universe: available tools (a declared server’s too), catalog tools of kept servers, none of a dropped or filtered server', () => {
    const servers = mcpServersOf(
      spec([
        { name: 'files', transport: 'stdio', env: { FILES_TOKEN: '${FILES_TOKEN}' }, tools: { deny: ['delete'] } },
        { name: 'tickets', transport: 'http', headers: { A: 'Bearer ${T_TOKEN}' } },
      ]),
    );
    const u = toolUniverse(POLICY, servers);
    expect(u.kept.map((s) => s.name)).toEqual(['files']);
    expect(u.tools).toEqual(['mcp/files/read_file', 'mcp/files/stale', 'mcp/other/x', 'read']);
  });

  it.each([
    [true, 'managed', ['confirm', 'auto'], 'auto'],
    [true, 'project', ['confirm', 'auto'], 'confirm'],
    [true, 'imported', ['confirm', 'auto'], 'confirm'],
    [false, 'user', ['confirm'], 'confirm'],
  ] as const)('mcp.servers/launch-by-trust: auto_launch %s, %s → allowed %j, recommended %s', (auto, trust, allowed, recommended) => {
    expect(launchAllowed(auto)).toEqual(allowed);
    expect(recommendedLaunch(trust, auto)).toBe(recommended);
  });
});

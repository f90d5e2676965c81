import { describe, expect, it } from 'vitest';
import { grantedTools, type ToolsRequest, toolTable } from '../../../spec/semantics/index.js';

const GRANTED = ['edit', 'git/commit', 'git/diff', 'git/log', 'read', 'search', 'shell', 'web/fetch', 'write'];

describe('the SPEC §3.4 tool table (INTERPRETATIONS.md, tools)', () => {
  it.each([
    [
      { policy: 'allowlist', allow: ['read', 'search', 'git/*'], deny: ['git/commit'] },
      ['git/diff', 'git/log', 'read', 'search'],
      'allow ∩ granted minus deny',
    ],
    [{ allow: ['read', 'edit'] }, ['edit', 'read'], 'allowlist is the default'],
    [{ policy: 'allowlist' }, [], 'an allowlist with no allow list grants nothing'],
    [undefined, [], 'no tools section: an allowlist with nothing listed'],
    [{ policy: 'allowlist', allow: ['read', 'shell'], deny: ['shell'] }, ['read'], 'deny wins over allow'],
    [{ policy: 'allowlist', allow: ['teleport'] }, [], 'a tool the harness lacks is not granted'],
    [{ policy: 'denylist', deny: ['shell', 'web/*'] }, GRANTED.filter((t) => t !== 'shell' && t !== 'web/fetch'), 'granted minus deny'],
    [{ policy: 'denylist', allow: ['read'] }, GRANTED, 'denylist ignores allow'],
    [{ policy: 'inherit', allow: ['read'], deny: ['shell'] }, GRANTED, 'inherit: granted unchanged'],
  ] as Array<[ToolsRequest | undefined, string[], string]>)('toolTable(%j) (%s)', (req, want) => {
    expect(toolTable(req, GRANTED).value).toEqual([...want].sort());
  });

  it('inherit reports the ignored lists (SPEC §3.4 "SHOULD warn")', () => {
    expect(toolTable({ policy: 'inherit', allow: ['read'], deny: ['shell'] }, GRANTED).reasons).toHaveLength(2);
    expect(toolTable({ policy: 'inherit' }, GRANTED).reasons).toEqual([]);
  });

  it.each([
    [{ available: GRANTED, grant: ['*'] }, ['edit', 'read', 'search', 'shell', 'write'], 'grant * is top-level tools only (glob dialect)'],
    [{ available: GRANTED, grant: ['*', '*/*'] }, GRANTED, 'grant * and */* is everything'],
    [{ available: GRANTED, grant: [] }, [], 'no grant, no tools'],
    [{ available: ['mcp/github/issues', 'read'], grant: ['mcp/github/*'] }, ['mcp/github/issues'], 'a whole MCP server'],
  ])('grantedTools(%j) (%s)', (tools, want) => expect(grantedTools(tools)).toEqual([...want].sort()));
});

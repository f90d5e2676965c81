import type { HarnessPolicyT } from '../../protocol/messages.js';

/** Tools a typical harness has. MCP tools appear only when the case adds a catalog. */
export const STANDARD_TOOLS = ['read', 'search', 'edit', 'write', 'shell', 'git/diff', 'git/log', 'git/commit', 'web/fetch'];

/**
 * A generous harness policy: every standard tool granted, every permission `allow`, the whole
 * workspace readable and writable, a few hosts, every memory feature. Cases narrow it with `patch`
 * so that a profile's request, not the policy, is what limits the session unless the case says so.
 */
export function permissivePolicy(patch: Partial<HarnessPolicyT> = {}): HarnessPolicyT {
  const base: HarnessPolicyT = {
    tools: { available: [...STANDARD_TOOLS], grant: ['*', '*/*'] },
    permissions: { default: 'allow', shell: 'allow', edit: 'allow', network: 'allow', rules: [] },
    filesystem: { read_roots: ['.'], write_roots: ['.'], allow_absolute: false },
    network: { allow_hosts: ['api.example.com', 'docs.example.org', '*.example.net'] },
    memory: {
      mode: 'read_write',
      scopes: ['project:acme', 'user:global', 'team:platform'],
      store_kinds: ['oap-state', 'vector'],
      stores: [],
    },
    budgets: {},
    models: {
      available: [
        { provider: 'anthropic', id: 'claude-sonnet-5' },
        { provider: 'openai', id: 'gpt-6' },
      ],
      tiers: {
        minimal: { provider: 'local', id: 'tiny-1' },
        standard: { provider: 'openai', id: 'gpt-6' },
        advanced: { provider: 'anthropic', id: 'claude-sonnet-5' },
        frontier: { provider: 'anthropic', id: 'claude-sonnet-5' },
      },
      default: { provider: 'local', id: 'default-model' },
    },
    skills: [],
    hooks: [],
    subagents: { max_depth: 8, max_concurrent: 64 },
    mcp: { catalog: {}, auto_launch: true },
    env: {},
  };
  return { ...base, ...patch };
}

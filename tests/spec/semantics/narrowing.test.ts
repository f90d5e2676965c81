import { describe, expect, it } from 'vitest';
import type { HarnessPolicyT } from '../../../protocol/messages.js';
import { narrowingRequest, policyCeiling, probesFor } from '../../../spec/semantics/index.js';

const POLICY: HarnessPolicyT = {
  tools: { available: ['read', 'edit', 'shell', 'git/diff'], grant: ['*'] },
  permissions: { default: 'ask', shell: 'deny' },
  filesystem: { read_roots: ['src', 'docs'], write_roots: ['src/gen'] },
  network: { allow_hosts: ['api.example.com', '*.example.net'] },
  memory: { mode: 'read_only', scopes: ['project:acme'], store_kinds: [], stores: [] },
  budgets: { max_turns: 20 },
  models: { available: [], default: { provider: 'p', id: 'm' } },
  skills: [],
  hooks: [],
  subagents: { max_depth: 2, max_concurrent: 4 },
  mcp: { catalog: {}, auto_launch: false },
  env: {},
};

const CEILING = policyCeiling(POLICY);

describe('policyCeiling (protocol policy format; INTERPRETATIONS.md, narrowing)', () => {
  it('reads every dimension from the policy', () => {
    expect(CEILING.tools).toEqual(['edit', 'read', 'shell']);
    expect(CEILING.permissions).toEqual({ default: 'ask', shell: 'deny', edit: 'ask', network: 'ask' });
    expect(CEILING.budgets.max_turns).toBe(20);
    expect(CEILING.budgets.max_tool_calls).toBeNull();
  });
});

describe('narrowingRequest (what a profile asks of the narrowed dimensions)', () => {
  it('reads decisions, roots, hosts, memory and budgets; an empty allow_hosts asks for the harness default', () => {
    const r = narrowingRequest({
      permissions: { shell: 'allow', filesystem: { read_roots: ['src'], deny_paths: ['src/x'] }, allow_hosts: [] },
      memory: { mode: 'off', scopes: ['project:acme'] },
      runtime: { max_turns: 0 },
    });
    expect(r.permissions).toEqual({ default: undefined, shell: 'allow', edit: undefined, network: undefined });
    expect([r.read_roots, r.write_roots, r.deny_paths, r.hosts]).toEqual([['src'], undefined, ['src/x'], undefined]);
    expect([r.memoryMode, r.scopes, r.budgets]).toEqual(['off', ['project:acme'], { max_turns: 0 }]);
  });
});

describe('probesFor (the places roots and hosts are compared by meaning)', () => {
  it('probes cover each root, below it and beside it, and each host pattern', () => {
    const p = probesFor(['src/app', '.'], ['*.example.net', 'a.com']);
    expect(p.paths).toEqual(expect.arrayContaining(['src/app', 'src/app/probe.txt', 'src/probe-sibling.txt', 'probe-dir/probe.txt']));
    expect(p.hosts).toEqual(['probe.example.net', 'example.net', 'a.com']);
  });
});

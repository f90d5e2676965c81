import { describe, expect, it } from 'vitest';
import type { HarnessPolicyT } from '../../../protocol/messages.js';
import {
  type ContractBounds,
  narrowingDifferences,
  narrowingRequest,
  policyCeiling,
  probesFor,
  widenings,
} from '../../../spec/semantics/index.js';

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

function within(patch: Partial<ContractBounds> = {}): ContractBounds {
  return { ...CEILING, ...patch };
}

describe('policyCeiling (protocol policy format; INTERPRETATIONS.md, narrowing)', () => {
  it('reads every dimension from the policy', () => {
    expect(CEILING.tools).toEqual(['edit', 'read', 'shell']);
    expect(CEILING.permissions).toEqual({ default: 'ask', shell: 'deny', edit: 'ask', network: 'ask' });
    expect(CEILING.budgets.max_turns).toBe(20);
    expect(CEILING.budgets.max_tool_calls).toBeNull();
  });
});

describe('widenings (SPEC §7.2: never more permissive than the ceiling)', () => {
  it.each([
    [{}, [], 'the ceiling itself'],
    [{ tools: ['read', 'git/diff'] }, ['/tools/git~1diff'], 'an ungranted tool'],
    [{ permissions: { default: 'ask', shell: 'ask', edit: 'ask', network: 'ask' } }, ['/permissions/shell'], 'a looser decision'],
    [
      { filesystem: { read_roots: ['src/../lib'], write_roots: [], deny_paths: [] } },
      ['/filesystem/read_roots/src~1..~1lib'],
      'a root outside',
    ],
    [{ filesystem: { read_roots: ['./src/app'], write_roots: ['src/gen/x'], deny_paths: [] } }, [], 'roots inside, any spelling'],
    [{ hosts: ['a.example.net', '*.b.example.net'] }, [], 'hosts covered by the wildcard'],
    [{ hosts: ['example.net'] }, ['/hosts/example.net'], 'the apex is not covered'],
    [{ memory: { mode: 'read_write', scopes: [] } }, ['/memory/mode'], 'a higher memory mode'],
    [{ memory: { mode: 'read_only', scopes: ['project:acme', 'org:all'] } }, ['/memory/scopes/org:all'], 'an extra scope'],
    [
      { memory: { mode: 'off', scopes: [], stores: [{ name: 'kb', mode: 'read_write' }] } },
      ['/memory/stores/kb'],
      'a store above the ceiling mode',
    ],
    [{ budgets: { ...CEILING.budgets, max_turns: null } }, ['/budgets/max_turns'], 'unbounded over a limit'],
    [{ budgets: { ...CEILING.budgets, max_tool_calls: 0 } }, [], '0 is within an unbounded ceiling'],
    [{ subagents: { max_depth: 3, max_concurrent: 4 } }, ['/subagents/max_depth'], 'deeper delegation'],
  ] as Array<[Partial<ContractBounds>, string[], string]>)('%j → %j (%s)', (patch, want) => {
    expect(widenings(within(patch), CEILING)).toEqual(want);
  });

  it('a ceiling deny path must stay denied where the effective roots reach it', () => {
    const parent = within({ filesystem: { read_roots: ['src'], write_roots: [], deny_paths: ['src/secrets'] } });
    expect(widenings(within({ filesystem: { read_roots: ['src'], write_roots: [], deny_paths: [] } }), parent)).toEqual([
      '/filesystem/deny_paths/src~1secrets',
    ]);
    expect(widenings(within({ filesystem: { read_roots: ['docs'], write_roots: [], deny_paths: [] } }), parent)).toEqual([
      '/filesystem/read_roots/docs',
    ]);
  });
});

describe('narrowingDifferences (SPEC §7.2 "always the more restrictive of profile and policy"; only widening fails but decisions are exact, §3.5)', () => {
  const request = narrowingRequest({
    permissions: {
      shell: 'allow',
      edit: 'allow',
      default: 'allow',
      filesystem: { read_roots: ['.', 'src/app'], deny_paths: ['src/app/secret'] },
      allow_hosts: ['api.example.com', 'cdn.example.net', 'evil.example.com'],
    },
    memory: { mode: 'read_write', scopes: ['project:acme', 'team:x'] },
    runtime: { max_turns: 50, max_tool_calls: 0 },
  });
  const exact: ContractBounds = {
    ...CEILING,
    tools: ['read'],
    permissions: { default: 'ask', shell: 'deny', edit: 'ask', network: 'ask' },
    filesystem: { read_roots: ['docs', 'src'], write_roots: ['src/gen'], deny_paths: ['src/app/secret'] },
    hosts: ['api.example.com', 'cdn.example.net'],
    memory: { mode: 'read_only', scopes: ['project:acme'] },
    budgets: { ...CEILING.budgets, max_turns: 20, max_tool_calls: 0 },
  };

  it('the exact intersection has no differences', () => expect(narrowingDifferences(exact, request, CEILING)).toEqual([]));

  it.each([
    [{ permissions: { ...exact.permissions, edit: 'deny' } }, ['/permissions/edit'], 'a decision stricter than the minimum: §3.5 names it'],
    [{ permissions: { ...exact.permissions, edit: 'allow' } }, ['/permissions/edit'], 'a decision above the minimum'],
    [{ hosts: ['api.example.com'] }, [], 'a requested host the policy allows was dropped: stricter is allowed'],
    [{ hosts: [] }, [], 'no host at all: stricter is allowed'],
    [{ hosts: ['api.example.com', '*.example.net'] }, ['/hosts'], 'hosts the profile did not ask for'],
    [{ filesystem: { ...exact.filesystem, deny_paths: [] } }, ['/filesystem/read_roots'], 'the profile deny path was lost'],
    [
      { filesystem: { read_roots: ['src/app'], write_roots: [], deny_paths: ['src/app/secret'] } },
      [],
      'less filesystem than the intersection',
    ],
    [{ filesystem: { ...exact.filesystem, read_roots: ['.'] } }, ['/filesystem/read_roots'], 'a root the policy does not give'],
    [{ memory: { mode: 'read_only', scopes: [] } }, [], 'a permitted scope was dropped: stricter is allowed'],
    [{ memory: { mode: 'read_only', scopes: ['project:acme', 'team:x'] } }, ['/memory/scopes'], 'a scope the policy does not permit'],
    [{ memory: { mode: 'off', scopes: ['project:acme'] } }, [], 'memory off below read_only'],
    [{ memory: { mode: 'read_write', scopes: ['project:acme'] } }, ['/memory/mode'], 'a memory mode above the smaller'],
    [{ budgets: { ...exact.budgets, max_turns: 5 } }, [], 'a smaller budget than both'],
    [{ budgets: { ...exact.budgets, max_turns: 21 } }, ['/budgets/max_turns'], 'a budget above the smaller'],
    [{ budgets: { ...exact.budgets, max_tool_calls: null } }, ['/budgets/max_tool_calls'], '0 asked is a limit of zero'],
    [{ tools: ['read', 'git/diff'] }, ['/tools'], 'an ungranted tool'],
    [
      { filesystem: { ...exact.filesystem, write_roots: ['src/gen', '../elsewhere'] } },
      ['/filesystem/write_roots'],
      'a root outside the workspace',
    ],
  ] as Array<[Partial<ContractBounds>, string[], string]>)('%j → %j (%s)', (patch, want) => {
    const got = [...new Set(narrowingDifferences({ ...exact, ...patch }, request, CEILING).map((d) => d.pointer))];
    expect(got).toEqual(want);
  });

  it('probes cover each root, below it and beside it, and each host pattern', () => {
    const p = probesFor(['src/app', '.'], ['*.example.net', 'a.com']);
    expect(p.paths).toEqual(expect.arrayContaining(['src/app', 'src/app/probe.txt', 'src/probe-sibling.txt', 'probe-dir/probe.txt']));
    expect(p.hosts).toEqual(['probe.example.net', 'example.net', 'a.com']);
  });
});

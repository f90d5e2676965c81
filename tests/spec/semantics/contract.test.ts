/**
 * The prediction of the whole effective contract and its one judge (spec/semantics/contract.ts,
 * contract-judge.ts; INTERPRETATIONS.md, the whole contract). Each row is an edge of one dimension,
 * named by the boundary catalogue class it is drawn from (spec/semantics/*.catalogue.ts) where one
 * fits: the answer the prediction allows passes, a wider answer fails naming the dimension and the
 * requirement it violates, and a narrower one is only noted, unless a sentence fixes the value.
 */
import { describe, expect, it } from 'vitest';
import type { EffectiveContractT, HarnessPolicyT } from '../../../protocol/messages.js';
import { CATALOGUE } from '../../../spec/semantics/catalogue.js';
import { mostPermissive } from '../../support/most-permissive.js';
import { type ContractInputs, contractFindings, predictContract, type Trust } from '../../../spec/semantics/index.js';

const D = (n: string): string => `sha256:${n.repeat(64)}`;

const POLICY: HarnessPolicyT = {
  tools: { available: ['read', 'search', 'edit', 'write', 'shell', 'git/diff', 'git/commit', 'web/fetch'], grant: ['*', '*/*', 'mcp/*/*'] },
  permissions: { default: 'allow', shell: 'ask', edit: 'allow', network: 'allow', rules: [] },
  filesystem: { read_roots: ['src', 'docs'], write_roots: ['src/gen'] },
  network: { allow_hosts: ['api.example.com', '*.example.net'] },
  memory: {
    mode: 'read_write',
    scopes: ['project:acme', 'user:global'],
    store_kinds: ['oap-state', 'vector'],
    stores: [
      { name: 'kb', kind: 'vector', reachable: true },
      { name: 'far', kind: 'vector', reachable: false },
    ],
  },
  budgets: { max_turns: 20, max_tool_calls: 100 },
  models: {
    available: [
      { provider: 'anthropic', id: 'claude-sonnet-5' },
      { provider: 'openai', id: 'gpt-6' },
    ],
    tiers: { minimal: { provider: 'local', id: 'tiny-1' } },
    default: { provider: 'local', id: 'default-model' },
  },
  skills: [
    { name: 'lint', digest: D('1') },
    { name: 'fmt', digest: D('3') },
  ],
  hooks: [],
  subagents: { max_depth: 2, max_concurrent: 4 },
  mcp: { catalog: { files: ['read_file', 'write_file', 'delete'], tickets: ['search'] }, auto_launch: true },
  env: { FILES_TOKEN: 'x' },
};

const policy = (patch: Partial<HarnessPolicyT> = {}): HarnessPolicyT => ({ ...POLICY, ...patch });

interface Row {
  /** The catalogue class the row is drawn from, or a description of an edge no class names. */
  from: string;
  spec: Record<string, unknown>;
  policy?: HarnessPolicyT;
  parent?: (p: EffectiveContractT) => EffectiveContractT;
  trust?: Trust;
  /** The answer judged: the most permissive one with this change. */
  answer: (e: EffectiveContractT) => EffectiveContractT;
  /** The findings, as `<deviation> <pointer> [<requirements>]`; the most permissive answer itself has none. */
  want: string[];
}

function findingsOf(row: Row): { exact: string[]; changed: string[] } {
  const inputs: ContractInputs = { spec: row.spec, policy: row.policy ?? POLICY, trust: row.trust ?? 'project' };
  if (row.parent) {
    const parentAnswer = mostPermissive(predictContract({ spec: {}, policy: inputs.policy, trust: 'project' }));
    inputs.parent = row.parent(parentAnswer);
  }
  const p = predictContract(inputs);
  const show = (e: EffectiveContractT): string[] =>
    contractFindings(e, p).map((f) => `${f.deviation} ${f.pointer}${f.requirements.length ? ` [${f.requirements.join(' ')}]` : ''}`);
  return { exact: show(mostPermissive(p)), changed: [...new Set(show(row.answer(structuredClone(mostPermissive(p)))))] };
}

const with_ =
  <K extends keyof EffectiveContractT>(key: K, f: (v: EffectiveContractT[K]) => EffectiveContractT[K]) =>
  (e: EffectiveContractT) => ({
    ...e,
    [key]: f(e[key]),
  });

const ROWS: Record<string, Row[]> = {
  permissions: [
    {
      from: 'permissions.shell/profile-default-only',
      spec: { permissions: { default: 'deny' } },
      answer: with_('permissions', (p) => ({ ...p, shell: 'ask' })),
      want: ['wider /permissions/shell [L1-I3]'],
    },
    {
      from: 'permissions.shell/profile-above-policy',
      spec: { permissions: { shell: 'allow' } },
      answer: with_('permissions', (p) => ({ ...p, shell: 'deny' })),
      want: ['narrower /permissions/shell'],
    },
    {
      from: 'permissions.edit/profile-below-policy (ask where the minimum is allow: a stricter harness)',
      spec: { permissions: { edit: 'allow' } },
      answer: with_('permissions', (p) => ({ ...p, edit: 'ask' })),
      want: ['narrower /permissions/edit'],
    },
    {
      from: 'permissions.network/category-above-own-default',
      spec: { permissions: { default: 'deny', network: 'allow' } },
      answer: with_('permissions', (p) => ({ ...p, default: 'ask' })),
      want: ['wider /permissions/default [L1-I3]'],
    },
    {
      from: 'permissions.shell/parent-effective-below-policy',
      spec: { permissions: { shell: 'allow' } },
      parent: (e) => ({ ...e, permissions: { ...e.permissions, shell: 'deny' } }),
      answer: with_('permissions', (p) => ({ ...p, shell: 'ask' })),
      want: ['wider /permissions/shell [L3-B1]'],
    },
    {
      from: 'permissions.default/parent-default-caps-child',
      spec: { permissions: { default: 'allow' } },
      parent: (e) => ({ ...e, permissions: { ...e.permissions, default: 'ask' } }),
      answer: with_('permissions', (p) => ({ ...p, default: 'allow' })),
      want: ['wider /permissions/default [L3-B1]'],
    },
  ],
  rules: [
    {
      from: 'permissions.rules/profile-allow-shell-rule',
      spec: { permissions: { rules: [{ tool: 'shell', decision: 'allow' }] } },
      policy: policy({ permissions: { default: 'allow', shell: 'deny', rules: [] } }),
      answer: with_('rules', () => [{ tool: 'shell', action: '*', target: '*', decision: 'allow' }]),
      want: ['wider /rules/shell probe-action probe-target [L1-I3]'],
    },
    {
      from: 'permissions.rules/policy-rules-first',
      spec: { permissions: { rules: [{ tool: 'shell', decision: 'allow' }] } },
      policy: policy({ permissions: { default: 'allow', shell: 'allow', rules: [{ tool: 'shell', decision: 'ask' }] } }),
      answer: with_('rules', (r) => [...r].reverse().map((x) => ({ ...x, decision: 'allow' as const }))),
      want: ['wider /rules/shell probe-action probe-target [L1-I3]'],
    },
    {
      from: 'a profile deny rule for a call a policy rule allows: the profile still narrows it',
      spec: { permissions: { rules: [{ tool: 'shell', action: 'rm', decision: 'deny' }] } },
      policy: policy({ permissions: { default: 'allow', shell: 'allow', rules: [{ tool: 'shell', decision: 'allow' }] } }),
      answer: with_('rules', () => [
        { tool: 'shell', action: '*', target: '*', decision: 'allow' },
        { tool: 'shell', action: 'rm', target: '*', decision: 'deny' },
      ]),
      want: ['wider /rules/shell rm probe-target [L1-I3]'],
    },
    {
      from: 'permissions.rules/parent-rules',
      spec: { permissions: { rules: [{ tool: 'shell', decision: 'allow' }] } },
      policy: policy({ permissions: { default: 'allow', shell: 'allow', rules: [] } }),
      parent: (e) => ({ ...e, rules: [{ tool: 'shell', action: '*', target: '*', decision: 'ask' }] }),
      answer: with_('rules', () => [{ tool: 'shell', action: '*', target: '*', decision: 'allow' }]),
      want: ['wider /rules/shell probe-action probe-target [L3-B1]'],
    },
    {
      from: 'permissions.rules/empty-list',
      spec: { permissions: { rules: [] } },
      answer: with_('rules', () => [{ tool: 'read', action: '*', target: '*', decision: 'deny' }]),
      want: [],
    },
  ],
  tools: [
    {
      from: 'tools.allow/names-an-ungranted-tool',
      spec: { tools: { allow: ['read', 'teleport'] } },
      policy: policy({ tools: { available: ['read', 'teleport'], grant: ['read'] } }),
      answer: with_('tools', (t) => [...t, 'teleport']),
      want: ['wider /tools/teleport [L1-I3]'],
    },
    {
      from: 'tools.policy/denylist-ignores-allow',
      spec: { tools: { policy: 'denylist', allow: ['read'], deny: ['shell'] } },
      answer: with_('tools', (t) => [...t, 'shell']),
      want: ['wider /tools/shell [L1-I2]'],
    },
    {
      from: 'tools.policy/allowlist-without-allow',
      spec: { tools: { policy: 'allowlist' } },
      answer: with_('tools', () => ['read']),
      want: ['wider /tools/read [L1-I2]'],
    },
    {
      from: 'tools.policy/inherit-with-lists (a tool the table gives is missing: §3.4 fixes the set)',
      spec: { tools: { policy: 'inherit', deny: ['shell'] } },
      answer: with_('tools', (t) => t.filter((x) => x !== 'shell')),
      want: ['differs /tools/shell [L1-I2]'],
    },
    {
      from: 'tools.allow/parent-effective-tools',
      spec: { tools: { allow: ['read', 'edit', 'shell'] } },
      parent: (e) => ({ ...e, tools: ['read'] }),
      answer: with_('tools', () => ['edit', 'read', 'shell']),
      want: ['wider /tools/edit [L3-B1]', 'wider /tools/shell [L3-B1]'],
    },
  ],
  mcp: [
    {
      from: 'mcp.servers/per-server-names (own name denies; a full name in deny names nothing)',
      spec: {
        tools: {
          allow: ['mcp/files/*'],
          mcp_servers: [
            { name: 'files', transport: 'stdio', command: 'f', env: { FILES_TOKEN: '${FILES_TOKEN}' }, tools: { deny: ['delete'] } },
          ],
        },
      },
      answer: with_('tools', (t) => [...t, 'mcp/files/delete']),
      want: ['wider /tools/mcp~1files~1delete [L3-M1]'],
    },
    {
      from: 'mcp.servers/per-server-names (a stricter harness also denying by the full name)',
      spec: {
        tools: {
          allow: ['mcp/files/*'],
          mcp_servers: [
            {
              name: 'files',
              transport: 'stdio',
              command: 'f',
              env: { FILES_TOKEN: '${FILES_TOKEN}' },
              tools: { deny: ['mcp/files/delete'] },
            },
          ],
        },
      },
      answer: (e) => ({
        ...e,
        tools: e.tools.filter((t) => t !== 'mcp/files/delete'),
        mcp_servers: e.mcp_servers.map((s) => ({ ...s, tools: s.tools.filter((t) => t !== 'mcp/files/delete') })),
      }),
      want: ['narrower /tools/mcp~1files~1delete'],
    },
    {
      from: 'mcp.secrets/variable-unset (the server is dropped; keeping it is wider)',
      spec: {
        tools: { allow: ['mcp/*/*'], mcp_servers: [{ name: 'tickets', transport: 'http', url: 'u', headers: { A: 'Bearer ${T_TOKEN}' } }] },
      },
      answer: (e) => ({
        ...e,
        tools: [...e.tools, 'mcp/tickets/search'],
        mcp_servers: [{ name: 'tickets', transport: 'http', launch: 'confirm', tools: ['mcp/tickets/search'] }],
      }),
      want: ['wider /tools/mcp~1tickets~1search [L3-M1]', 'wider /mcp_servers/tickets [L3-M1]'],
    },
    {
      from: 'mcp.servers/transports (an http server reported stdio)',
      spec: { tools: { mcp_servers: [{ name: 'tickets', transport: 'http', url: 'u' }] } },
      answer: with_('mcp_servers', (s) => s.map((x) => ({ ...x, transport: 'stdio' as const }))),
      want: ['differs /mcp_servers/tickets/transport [L3-M1]'],
    },
    {
      from: 'mcp.servers/launch-by-trust (auto_launch false: every launch confirmed)',
      spec: { tools: { mcp_servers: [{ name: 'tickets', transport: 'http', url: 'u' }] } },
      policy: policy({ mcp: { ...POLICY.mcp, auto_launch: false } }),
      trust: 'managed',
      answer: with_('mcp_servers', (s) => s.map((x) => ({ ...x, launch: 'auto' as const }))),
      want: ['wider /mcp_servers/tickets/launch [L1-I3]'],
    },
    {
      from: 'mcp.servers/launch-by-trust (a project profile auto-launched: the SHOULD is L3-M2 alone)',
      spec: { tools: { mcp_servers: [{ name: 'tickets', transport: 'http', url: 'u' }] } },
      trust: 'project',
      answer: with_('mcp_servers', (s) => s.map((x) => ({ ...x, launch: 'auto' as const }))),
      want: [],
    },
  ],
  filesystem: [
    {
      from: 'filesystem.read_roots/absent-is-whole-workspace-request',
      spec: {},
      answer: with_('filesystem', (f) => ({ ...f, read_roots: ['.'] })),
      want: ['wider /filesystem/read_roots [L1-I3]'],
    },
    {
      from: 'filesystem.read_roots/segment-prefix',
      spec: { permissions: { filesystem: { read_roots: ['src'] } } },
      answer: with_('filesystem', (f) => ({ ...f, read_roots: ['src', 'srcx'] })),
      want: ['wider /filesystem/read_roots [L1-I3]'],
    },
    {
      from: 'filesystem.read_roots/dotdot-inside (a narrower root is noted)',
      spec: { permissions: { filesystem: { read_roots: ['src/../docs', 'src'] } } },
      answer: with_('filesystem', (f) => ({ ...f, read_roots: ['docs'] })),
      want: ['narrower /filesystem/read_roots'],
    },
    {
      from: 'filesystem.write_roots/absolute (outside the workspace)',
      spec: {},
      answer: with_('filesystem', (f) => ({ ...f, write_roots: [...f.write_roots, '/etc'] })),
      want: ['wider /filesystem/write_roots [L1-I3]'],
    },
    {
      from: 'filesystem.deny_paths/deny-wins-over-root',
      spec: { permissions: { filesystem: { read_roots: ['src'], deny_paths: ['src/secret'] } } },
      answer: with_('filesystem', (f) => ({ ...f, deny_paths: [] })),
      want: ['wider /filesystem/read_roots [L1-I3]'],
    },
    {
      from: 'filesystem.read_roots/parent-roots-cap-child',
      spec: {},
      parent: (e) => ({ ...e, filesystem: { ...e.filesystem, read_roots: ['src/app'] } }),
      answer: with_('filesystem', (f) => ({ ...f, read_roots: ['src'] })),
      want: ['wider /filesystem/read_roots [L3-B1]'],
    },
  ],
  hosts: [
    {
      from: 'network.hosts/star-dot-excludes-apex',
      spec: {},
      answer: with_('hosts', (h) => [...h, 'example.net']),
      want: ['wider /hosts [L1-I3]'],
    },
    {
      from: 'network.hosts/alone-narrows',
      spec: { permissions: { allow_hosts: ['a.example.net'] } },
      answer: with_('hosts', () => ['*.example.net']),
      want: ['wider /hosts [L1-I3]'],
    },
    {
      from: 'network.hosts/letter-case (another spelling of the same host is the same answer)',
      spec: { permissions: { allow_hosts: ['api.example.com'] } },
      answer: with_('hosts', () => ['API.example.com.']),
      want: [],
    },
  ],
  memory: [
    {
      from: 'memory.mode/profile-below-policy',
      spec: { memory: { mode: 'off' } },
      answer: with_('memory', (m) => ({ ...m, mode: 'read_write' })),
      want: ['wider /memory/mode [L1-I3 L3-Y1]'],
    },
    {
      from: 'memory.mode/profile-above-policy',
      spec: { memory: { mode: 'read_write' } },
      policy: policy({ memory: { ...POLICY.memory, mode: 'read_only' } }),
      answer: with_('memory', (m) => ({ ...m, mode: 'read_write' })),
      want: ['wider /memory/mode [L1-I3]'],
    },
    {
      from: 'memory.mode/absent-is-read-only',
      spec: {},
      answer: with_('memory', (m) => ({ ...m, mode: 'off' })),
      want: ['narrower /memory/mode'],
    },
    {
      from: 'memory.scopes/empty',
      spec: { memory: { scopes: [] } },
      answer: with_('memory', (m) => ({ ...m, scopes: ['project:acme'] })),
      want: ['wider /memory/scopes/project:acme [L1-I3 L3-Y1]'],
    },
    {
      from: 'memory.scopes/letter-case (requested, but not the policy’s string)',
      spec: { memory: { scopes: ['Project:Acme'] } },
      answer: with_('memory', (m) => ({ ...m, scopes: ['Project:Acme'] })),
      want: ['wider /memory/scopes/Project:Acme [L1-I3]'],
    },
    {
      from: 'memory.scopes/parent-scopes-cap-child',
      spec: { memory: { scopes: ['project:acme', 'user:global'] } },
      parent: (e) => ({ ...e, memory: { ...e.memory, scopes: ['project:acme'] } }),
      answer: with_('memory', (m) => ({ ...m, scopes: ['project:acme', 'user:global'] })),
      want: ['wider /memory/scopes/user:global [L3-B1]'],
    },
    {
      from: 'memory.stores/store-mode-above-section',
      spec: { memory: { mode: 'read_only', stores: [{ name: 'kb', kind: 'vector', mode: 'read_write' }] } },
      answer: with_('memory', (m) => ({ ...m, stores: [{ name: 'kb', kind: 'vector', mode: 'read_write' }] })),
      want: ['wider /memory/stores/kb [L3-Y1]'],
    },
    {
      from: 'memory.stores/store-mode-absent (a store above the policy mode)',
      spec: { memory: { mode: 'read_write', stores: [{ name: 'kb', kind: 'vector', mode: 'read_write' }] } },
      policy: policy({ memory: { ...POLICY.memory, mode: 'read_only' } }),
      answer: with_('memory', (m) => ({ ...m, stores: [{ name: 'kb', kind: 'vector', mode: 'read_write' }] })),
      want: ['wider /memory/stores/kb [L1-I3 L3-Y1]'],
    },
    {
      from: 'memory.stores/optional-unreachable',
      spec: { memory: { stores: [{ name: 'far', kind: 'vector' }] } },
      answer: with_('memory', (m) => ({ ...m, stores: [{ name: 'far', kind: 'vector', mode: 'read_only' }] })),
      want: ['wider /memory/stores/far [L1-I3]'],
    },
    {
      from: 'memory.stores/parent-store-mode',
      spec: { memory: { mode: 'read_write', stores: [{ name: 'kb', kind: 'vector', mode: 'read_write' }] } },
      parent: (e) => ({ ...e, memory: { ...e.memory, mode: 'read_write', stores: [{ name: 'kb', kind: 'vector', mode: 'read_only' }] } }),
      answer: with_('memory', (m) => ({ ...m, stores: [{ name: 'kb', kind: 'vector', mode: 'read_write' }] })),
      want: ['wider /memory/stores/kb [L3-B1]'],
    },
  ],
  budgets: [
    {
      from: 'budgets.max_tool_calls/zero-profile',
      spec: { runtime: { max_tool_calls: 0 } },
      answer: with_('budgets', (b) => ({ ...b, max_tool_calls: null })),
      want: ['wider /budgets/max_tool_calls [L1-I3]'],
    },
    {
      from: 'budgets.max_turns/profile-above-policy',
      spec: { runtime: { max_turns: 50 } },
      answer: with_('budgets', (b) => ({ ...b, max_turns: 50 })),
      want: ['wider /budgets/max_turns [L1-I3]'],
    },
    {
      from: 'budgets.max_context_tokens/profile-only (a smaller limit is noted)',
      spec: { context: { budget: { max_context_tokens: 8000 } } },
      answer: with_('budgets', (b) => ({ ...b, max_context_tokens: 4000 })),
      want: ['narrower /budgets/max_context_tokens'],
    },
    {
      from: 'budgets.max_turns/parent-budget-caps-child',
      spec: { runtime: { max_turns: 10 } },
      parent: (e) => ({ ...e, budgets: { ...e.budgets, max_turns: 5 } }),
      answer: with_('budgets', (b) => ({ ...b, max_turns: 10 })),
      want: ['wider /budgets/max_turns [L3-B1]'],
    },
  ],
  model: [
    {
      from: 'model.resolution/exact-before-tier',
      spec: { model: { provider: 'openai', id: 'gpt-6', tier: 'minimal' } },
      answer: with_('model', () => ({ provider: 'local', id: 'tiny-1', rule: 3 as const })),
      want: ['differs /model/rule [L1-I12]', 'differs /model [L1-I12]'],
    },
    {
      from: 'a routed tier: the routing is the harness’s own, so any model it serves',
      spec: { model: { tier: 'minimal' } },
      answer: with_('model', () => ({ provider: 'openai', id: 'gpt-6', rule: 3 as const })),
      want: [],
    },
    {
      from: 'model.resolution/tier-unrouted',
      spec: { model: { tier: 'frontier' } },
      answer: with_('model', (m) => ({ ...m, rule: 1 as const })),
      want: ['differs /model/rule [L1-I12]'],
    },
  ],
  skills: [
    {
      from: 'skills/pin-mismatch (optional: missing, never present)',
      spec: { tools: { skills: [{ name: 'lint', digest: D('2') }] } },
      answer: with_('skills', () => [{ name: 'lint', status: 'present' as const }]),
      want: ['wider /skills/lint [L3-K1]'],
    },
    {
      from: 'an installed skill reported missing',
      spec: { tools: { skills: [{ name: 'fmt' }] } },
      answer: with_('skills', () => [{ name: 'fmt', status: 'missing' as const }]),
      want: ['differs /skills/fmt [L3-K1]'],
    },
    {
      from: 'skills/source-never-fetched (a missing skill reported present)',
      spec: { tools: { skills: [{ name: 'release', source: './skills/release' }] } },
      answer: with_('skills', () => [{ name: 'release', status: 'present' as const }]),
      want: ['wider /skills/release [L3-K1]'],
    },
  ],
  subagents: [
    {
      from: 'subagents.allow/absent-or-empty',
      spec: {},
      answer: with_('subagents', (s) => ({ ...s, allow: ['helper'] })),
      want: ['wider /subagents/allow/helper [L1-I3]'],
    },
    {
      from: 'subagents.limits/smaller-side-wins',
      spec: { runtime: { subagents: { max_depth: 4 } } },
      answer: with_('subagents', (s) => ({ ...s, max_depth: 4 })),
      want: ['wider /subagents/max_depth [L1-I3]'],
    },
    {
      from: 'subagents.limits/top-level-limit-binds-tree',
      spec: { runtime: { subagents: { max_depth: 8 } } },
      parent: (e) => ({ ...e, subagents: { ...e.subagents, max_depth: 1 } }),
      answer: with_('subagents', (s) => ({ ...s, max_depth: 2 })),
      want: ['wider /subagents/max_depth [L3-B1]'],
    },
  ],
  writeback: [
    {
      from: 'writeback.mode/absent-is-propose',
      spec: {},
      answer: with_('writeback', () => 'auto' as const),
      want: ['differs /writeback [L2-A6]'],
    },
  ],
  whole: [
    {
      from: 'contract.whole/role-only-profile',
      spec: { role: { instructions: 'x' } },
      answer: (e) => e,
      want: [],
    },
    {
      from: 'contract.whole/policy-grants-nothing',
      spec: { permissions: { default: 'allow' }, tools: { policy: 'inherit' } },
      policy: policy({
        permissions: { default: 'deny', rules: [] },
        tools: { available: [], grant: [] },
        filesystem: { read_roots: [], write_roots: [] },
        network: { allow_hosts: [] },
      }),
      answer: (e) => ({ ...e, tools: ['read'], permissions: { ...e.permissions, shell: 'ask' }, hosts: ['api.example.com'] }),
      want: ['wider /tools/read [L1-I3]', 'wider /permissions/shell [L1-I3]', 'wider /hosts [L1-I3]'],
    },
  ],
};

const CLASS_IDS = new Set(CATALOGUE.flatMap((d) => d.classes.map((c) => c.id)));

describe.each(Object.keys(ROWS))('the whole contract: %s', (dimension) => {
  it.each(ROWS[dimension]!.map((r) => [r.from, r] as const))('%s', (_from, row) => {
    const { exact, changed } = findingsOf(row);
    expect(exact).toEqual([]);
    expect(changed).toEqual(row.want);
  });
});

describe('the rows are drawn from the catalogue', () => {
  it('a row that names a catalogue class names one that exists', () => {
    const dimensions = new Set(CATALOGUE.map((d) => d.id));
    const named = Object.values(ROWS)
      .flat()
      .map((r) => /^([a-z_.]+)\/([a-z0-9.-]+)/.exec(r.from))
      .filter((m): m is RegExpExecArray => m !== null && dimensions.has(m[1]!))
      .map((m) => `${m[1]}/${m[2]}`);
    expect(named.length).toBeGreaterThan(40);
    expect(named.filter((id) => !CLASS_IDS.has(id))).toEqual([]);
  });
});

describe('the prediction (SPEC §3.3, §3.4, §3.7, §3.8)', () => {
  it('gives the reasons of the rule functions it is built from', () => {
    const p = predictContract({ spec: { permissions: { shell: 'allow' }, runtime: { max_turns: 50 } }, policy: POLICY, trust: 'project' });
    expect(p.permissions.shell).toEqual({ value: 'ask', reasons: ['shell: requested allow, the ceiling allows at most ask'] });
    expect(p.budgets.max_turns).toEqual({ value: 20, reasons: ['max_turns limited by the ceiling'] });
  });

  it('says what is allowed where the spec leaves the harness a choice', () => {
    const p = predictContract({
      spec: { model: { tier: 'minimal' }, tools: { mcp_servers: [{ name: 'tickets', transport: 'http', url: 'u' }] } },
      policy: POLICY,
      trust: 'project',
    });
    expect(p.model.rule).toBe(3);
    expect(p.model.models).toEqual([{ provider: 'local', id: 'tiny-1' }, ...POLICY.models.available]);
    expect(p.mcp_servers).toEqual([{ name: 'tickets', transport: 'http', launch: ['confirm', 'auto'], recommended: 'confirm', tools: [] }]);
  });

  it('says why a requested store, server or skill is not in the session', () => {
    const p = predictContract({
      spec: {
        memory: { stores: [{ name: 'far', kind: 'vector' }] },
        tools: {
          mcp_servers: [{ name: 'tickets', transport: 'http', url: 'u', headers: { A: 'Bearer ${T_TOKEN}' } }],
          skills: [{ name: 'lint', digest: D('2') }, { name: 'release' }],
        },
      },
      policy: POLICY,
      trust: 'project',
    });
    expect(p.memory.dropped).toEqual([{ name: 'far', reason: 'store "far" (vector) cannot be reached' }]);
    expect(p.mcp_dropped).toEqual([{ name: 'tickets', reason: 'environment variable(s) T_TOKEN not set' }]);
    expect(p.skills).toEqual([
      { name: 'lint', status: 'missing', reason: 'installed with other content than the pin' },
      { name: 'release', status: 'missing', reason: 'not installed' },
    ]);
  });
});

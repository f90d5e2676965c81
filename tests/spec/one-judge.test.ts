/**
 * One judge: the L1-I3 cases' expectation (suites/level-1/narrowing.ts `narrowingJudgement`) and
 * the fuzz narrowing property's verdict (fuzz/properties/narrowing.ts `narrowingVerdict`)
 * must give the same answer for the same (profile, policy, effective contract), on every input.
 *
 * fast-check draws profile requests and harness policies from the fuzzer's own generators
 * (permissions, tools, roots, hosts, memory, budgets), builds the effective contract the narrowing
 * rule gives (constructed here from the spec model's primitives, not by either judge), and then
 * either keeps it or changes one L1-I3 dimension: looser, stricter, or merely spelled differently.
 * Both judges must accept the exact contract and agree on every variant.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EffectiveContractT, HarnessPolicyT } from '../../protocol/messages.js';
import {
  DECISIONS,
  expectedValues,
  grantedTools,
  intersectHosts,
  intersectRoots,
  narrowingRequest,
  normalizeRoot,
  PERMISSION_KEYS,
  policyCeiling,
  rank,
  toolTable,
  type ToolsRequest,
} from '../../spec/semantics/index.js';
import { policyArb, specRequestArb } from '../../fuzz/gen/narrowing.js';
import { narrowingVerdict } from '../../fuzz/properties/narrowing.js';
import { narrowingJudgement } from '../../suites/level-1/narrowing.js';
import { minimalProfile } from '../../suites/support/index.js';

const WORKSPACE = '/ws';

/** The narrowing rule's effective contract for `spec` under `policy`, spelled the way the reference spells it. */
function exactEffective(spec: Record<string, unknown>, policy: HarnessPolicyT): EffectiveContractT {
  const request = narrowingRequest(spec);
  const ceiling = policyCeiling(policy);
  const want = expectedValues(request, ceiling);
  // The effective roots are spelled in normal form, as the reference reports them.
  const normalRoots = (roots: readonly string[]): string[] =>
    roots.map((r) => normalizeRoot(r)).filter((r): r is string => r !== undefined);
  const roots = (asked: readonly string[] | undefined, limit: readonly string[]): string[] =>
    intersectRoots(asked && normalRoots(asked), [...new Set(normalRoots(limit))]).value;
  const hosts = intersectHosts(request.hosts, ceiling.hosts).value;
  const subs = ((spec['runtime'] as { subagents?: { allow?: string[]; max_depth?: number; max_concurrent?: number } } | undefined)
    ?.subagents ?? {}) as { allow?: string[]; max_depth?: number; max_concurrent?: number };
  return {
    tools: toolTable(spec['tools'] as ToolsRequest | undefined, grantedTools(policy.tools)).value,
    permissions: want.permissions,
    rules: [],
    filesystem: {
      read_roots: roots(request.read_roots, ceiling.filesystem.read_roots),
      write_roots: roots(request.write_roots, ceiling.filesystem.write_roots),
      deny_paths: [...request.deny_paths],
    },
    hosts,
    memory: { mode: want.memoryMode, scopes: want.scopes, stores: [] },
    budgets: want.budgets,
    model: { provider: 'local', id: 'default-model', rule: 4 },
    mcp_servers: [],
    skills: [],
    subagents: {
      allow: subs.allow ?? [],
      max_depth: Math.min(subs.max_depth ?? ceiling.subagents.max_depth, ceiling.subagents.max_depth),
      max_concurrent: Math.min(subs.max_concurrent ?? ceiling.subagents.max_concurrent, ceiling.subagents.max_concurrent),
    },
    writeback: 'propose',
  };
}

type Change = (e: EffectiveContractT, key: number) => void;

/** One change to one L1-I3 dimension of an effective contract (`key` picks among the options). */
const CHANGES: Record<string, Change> = {
  'raise a decision': (e, k) => {
    const p = PERMISSION_KEYS[k % 4]!;
    e.permissions[p] = DECISIONS[Math.min(2, rank(e.permissions[p]) + 1)]!;
  },
  'lower a decision': (e, k) => {
    const p = PERMISSION_KEYS[k % 4]!;
    e.permissions[p] = DECISIONS[Math.max(0, rank(e.permissions[p]) - 1)]!;
  },
  'add an ungranted tool': (e) => {
    e.tools = [...e.tools, 'teleport'].sort();
  },
  'drop the tools': (e) => {
    e.tools = [];
  },
  'add a read root': (e, k) => {
    e.filesystem.read_roots = [...e.filesystem.read_roots, ['vendor', 'src', '.', 'docs/extra'][k % 4]!];
  },
  'drop the write roots': (e) => {
    e.filesystem.write_roots = [];
  },
  'respell the roots': (e) => {
    e.filesystem.read_roots = e.filesystem.read_roots.map((r) => (r === '.' ? './' : `./${r}/`));
  },
  'a root outside the workspace': (e) => {
    e.filesystem.write_roots = [...e.filesystem.write_roots, '../outside'];
  },
  'deny a path': (e) => {
    e.filesystem.deny_paths = [...e.filesystem.deny_paths, 'src'];
  },
  'add a host': (e, k) => {
    e.hosts = [...e.hosts, ['evil.example.org', 'x.example.net', '*.example.net', 'example.net', '*'][k % 5]!];
  },
  'drop the hosts': (e) => {
    e.hosts = [];
  },
  'respell the hosts': (e) => {
    e.hosts = e.hosts.map((h) => `${h.toUpperCase()}.`);
  },
  'raise the memory mode': (e) => {
    e.memory.mode = 'read_write';
  },
  'memory off': (e) => {
    e.memory.mode = 'off';
  },
  'add a scope': (e) => {
    e.memory.scopes = [...e.memory.scopes, 'org:secret'];
  },
  'drop the scopes': (e) => {
    e.memory.scopes = [];
  },
  'a read_write store': (e) => {
    e.memory.stores = [{ name: 'kb', kind: 'vector', mode: 'read_write' }];
  },
  'unbound a budget': (e) => {
    e.budgets.max_turns = null;
  },
  'a budget of zero': (e, k) => {
    e.budgets[(['max_turns', 'max_tool_calls', 'max_state_bytes'] as const)[k % 3]!] = 0;
  },
};

const inputArb = fc.record({
  spec: specRequestArb(['fz-helper', 'fz-other']),
  policy: policyArb(),
  change: fc.option(fc.constantFrom(...Object.keys(CHANGES)), { nil: undefined }),
  key: fc.nat(20),
});

function verdicts(spec: Record<string, unknown>, policy: HarnessPolicyT, eff: EffectiveContractT) {
  const l1 = narrowingJudgement(spec, policy, eff, { workspace: WORKSPACE });
  const fuzz = narrowingVerdict(minimalProfile('fz-main', spec), policy, eff, WORKSPACE);
  return { l1Holds: l1.length === 0, fuzzHolds: fuzz === undefined, l1, fuzz };
}

describe('one judge for the narrowing rule (L1-I3 cases and the fuzz narrowing property)', () => {
  it('both accept the contract the narrowing rule gives', () => {
    fc.assert(
      fc.property(inputArb, ({ spec, policy }) => {
        const v = verdicts(spec, policy, exactEffective(spec, policy));
        expect(v.l1).toEqual([]);
        expect(v.fuzz).toBeUndefined();
      }),
      { numRuns: 400, seed: 20261201 },
    );
  });

  it('they agree on every changed contract', () => {
    const seen: Record<string, { holds: number; violated: number }> = {};
    fc.assert(
      fc.property(inputArb, ({ spec, policy, change, key }) => {
        const eff = exactEffective(spec, policy);
        if (change) CHANGES[change]!(eff, key);
        const v = verdicts(spec, policy, eff);
        const label = change ?? 'none';
        seen[label] = seen[label] ?? { holds: 0, violated: 0 };
        const tally = seen[label];
        tally[v.l1Holds ? 'holds' : 'violated']++;
        expect({ change, fuzzHolds: v.fuzzHolds }).toEqual({ change, fuzzHolds: v.l1Holds });
      }),
      { numRuns: 3000, seed: 20261202 },
    );
    // Not vacuous: the looser changes are caught, and some changes are judged both ways.
    for (const c of ['raise a decision', 'add an ungranted tool', 'a root outside the workspace', 'add a scope', 'raise the memory mode']) {
      expect(seen[c]?.violated ?? 0, c).toBeGreaterThan(0);
    }
    expect(seen['respell the roots']?.holds ?? 0).toBeGreaterThan(0);
    expect(seen['respell the hosts']?.holds ?? 0).toBeGreaterThan(0);
  });
});

/**
 * One judge: the L1-I3 cases' expectation (suites/level-1/narrowing.ts `narrowingJudgement`) and
 * the fuzz narrowing property's verdict (fuzz/properties/narrowing.ts `narrowingVerdict`)
 * must give the same answer for the same (profile, policy, effective contract), on every input.
 *
 * fast-check draws profile requests and harness policies from the fuzzer's own generators
 * (permissions, tools, roots, hosts, memory, budgets), builds the most permissive effective
 * contract the spec allows (read off the spec model's prediction, value by value), and then
 * either keeps it or changes one L1-I3 dimension: looser, stricter, or merely spelled differently.
 * Both judges must accept the exact contract and agree on every variant.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EffectiveContractT, HarnessPolicyT } from '../../protocol/messages.js';
import { DECISIONS, failsContract, PERMISSION_KEYS, rank } from '../../spec/semantics/index.js';
import { policyArb, specRequestArb } from '../../fuzz/gen/narrowing.js';
import { narrowingVerdict } from '../../fuzz/properties/narrowing.js';
import { narrowingJudgement, narrowingPrediction } from '../../suites/level-1/narrowing.js';
import { minimalProfile } from '../../suites/support/index.js';
import { mostPermissive } from '../support/most-permissive.js';

const WORKSPACE = '/ws';

/** The most permissive contract the spec allows `spec` under `policy`, read off the prediction value by value. */
function exactEffective(spec: Record<string, unknown>, policy: HarnessPolicyT): EffectiveContractT {
  return mostPermissive(narrowingPrediction(spec, policy));
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
  // The L1-I3 cases fail on a departure that violates L1-I3 (suites/support/contract.ts expectContract).
  const l1 = narrowingJudgement(spec, policy, eff, { workspace: WORKSPACE }).filter(
    (f) => failsContract(f) && f.requirements.includes('L1-I3'),
  );
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
    // Stricter than the intersection is never a narrowing failure, decisions included.
    for (const c of ['lower a decision', 'drop the write roots', 'drop the hosts', 'memory off', 'drop the scopes', 'a budget of zero']) {
      expect(seen[c]?.violated ?? 0, c).toBe(0);
    }
    expect(seen['respell the roots']?.holds ?? 0).toBeGreaterThan(0);
    expect(seen['respell the hosts']?.holds ?? 0).toBeGreaterThan(0);
  });
});

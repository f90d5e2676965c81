/**
 * L3-Y1: an external memory store kind beyond oap-state (here `vector`), and enforcement of
 * spec.memory.mode (the ceiling for the whole section, SPEC 3.7) and scopes.
 *
 * Scope narrowing against POLICY is L1-I3's; what Y1 adds is that the profile's own request limits
 * the session. So the scope check requires effective ⊆ requested, and is not applicable when the
 * adapter already exceeds the policy (an L1-I3 failure).
 */
import type { HarnessPolicyT, InstantiatedT } from '../../adapters/protocol/messages.js';
import { expectEqual, expectTrue, fail } from '../framework/assert.js';
import type { CaseContext, CaseDef } from '../framework/types.js';
import { type MemoryMode, memoryAtMost, scopesBeyond } from '../../spec/semantics/index.js';
import { requireDiscovered } from './lib/preconditions.js';
import {
  instantiateName,
  minimalProfile,
  mustInstantiate,
  permissivePolicy,
  requireObservable,
  requireSession,
  writeProjectProfile,
} from '../support/index.js';

function memoryPolicy(mode: MemoryMode): HarnessPolicyT {
  const base = permissivePolicy();
  return permissivePolicy({
    memory: { ...base.memory, mode, store_kinds: ['oap-state', 'vector'], stores: [{ name: 'team-kb', kind: 'vector', reachable: true }] },
  });
}

async function writeMemoryProfile(ctx: CaseContext, name: string, memory: Record<string, unknown>): Promise<void> {
  writeProjectProfile(ctx, minimalProfile(name, { memory }));
  await requireDiscovered(ctx, [name]);
}

function store(s: InstantiatedT, name: string): InstantiatedT['effective']['memory']['stores'][number] {
  const found = s.effective.memory.stores.find((x) => x.name === name);
  if (!found) fail(`memory store ${name} is missing from the effective contract`, { name }, s.effective.memory.stores);
  return found;
}

const vectorStore: CaseDef = {
  id: 'L3-Y1/vector-store-supported',
  requirements: ['L3-Y1'],
  title: 'A reachable store of kind vector (beyond oap-state) is part of the session with the requested mode',
  fixtures: ['l3-y1-vector'],
  expectation: { store: { name: 'team-kb', kind: 'vector', mode: 'read_write' } },
  async run(ctx) {
    await writeMemoryProfile(ctx, 'y1-vector', {
      mode: 'read_write',
      stores: [{ name: 'team-kb', kind: 'vector', mode: 'read_write', required: true }],
    });
    const s = mustInstantiate(await instantiateName(ctx, 'y1-vector', memoryPolicy('read_write')), 'profile with a vector store');
    expectEqual(store(s, 'team-kb'), { name: 'team-kb', kind: 'vector', mode: 'read_write' }, 'effective vector store');
  },
};

const policyModeCeiling: CaseDef = {
  id: 'L3-Y1/policy-mode-ceiling',
  requirements: ['L3-Y1'],
  title: 'Profile memory read_write under a read_only harness gives read_only memory and no read_write store',
  fixtures: ['l3-y1-policy-mode'],
  expectation: { memory_mode: 'read_only', store_mode_at_most: 'read_only' },
  async run(ctx) {
    await writeMemoryProfile(ctx, 'y1-policy-mode', {
      mode: 'read_write',
      stores: [{ name: 'team-kb', kind: 'vector', mode: 'read_write' }],
    });
    const s = requireSession(
      await instantiateName(ctx, 'y1-policy-mode', memoryPolicy('read_only')),
      'read_write profile, read_only harness',
    );
    expectEqual(s.effective.memory.mode, 'read_only', 'effective memory mode');
    const kb = store(s, 'team-kb');
    expectTrue(memoryAtMost(kb.mode, 'read_only'), `store team-kb is ${kb.mode} under a read_only memory section`, {
      expected: 'read_only or off',
      observed: kb.mode,
    });
  },
};

const storeUnderSectionMode: CaseDef = {
  id: 'L3-Y1/store-mode-within-section-mode',
  requirements: ['L3-Y1'],
  title: "A store asking read_write inside a read_only memory section is capped at read_only (mode is the section's ceiling)",
  fixtures: ['l3-y1-section-mode'],
  expectation: { memory_mode: 'read_only', store_mode_at_most: 'read_only' },
  async run(ctx) {
    await writeMemoryProfile(ctx, 'y1-section-mode', {
      mode: 'read_only',
      stores: [{ name: 'team-kb', kind: 'vector', mode: 'read_write' }],
    });
    const s = requireSession(
      await instantiateName(ctx, 'y1-section-mode', memoryPolicy('read_write')),
      'read_only section with a read_write store',
    );
    expectEqual(s.effective.memory.mode, 'read_only', 'effective memory mode (the profile asked read_only)');
    const kb = store(s, 'team-kb');
    expectTrue(
      memoryAtMost(kb.mode, s.effective.memory.mode),
      `store team-kb is ${kb.mode}, above the memory mode ${s.effective.memory.mode}`,
      {
        expected: `≤ ${s.effective.memory.mode}`,
        observed: kb.mode,
      },
    );
  },
};

const scopesRequested: CaseDef = {
  id: 'L3-Y1/scopes-limited-to-request',
  requirements: ['L3-Y1'],
  title: "The session's memory scopes are only those the profile requested (and policy permits)",
  fixtures: ['l3-y1-scopes'],
  expectation: { scopes: ['project:acme'] },
  async run(ctx) {
    // Policy permits project:acme, user:global, team:platform; the profile asks for one of them and one unknown.
    await writeMemoryProfile(ctx, 'y1-scopes', { mode: 'read_only', scopes: ['project:acme', 'org:finance'] });
    const policy = memoryPolicy('read_write');
    const s = requireSession(await instantiateName(ctx, 'y1-scopes', policy), 'profile with memory scopes');
    const scopes = s.effective.memory.scopes;
    requireObservable(scopesBeyond(scopes, policy.memory.scopes).length === 0, 'effective scopes already exceed policy (an L1-I3 failure)');
    const extra = scopesBeyond(scopes, ['project:acme', 'org:finance']);
    if (extra.length > 0) fail(`session may touch scopes the profile did not request: ${extra.join(', ')}`, ['project:acme'], scopes);
    expectEqual([...scopes].sort(), ['project:acme'], 'effective memory scopes');
  },
};

export const memoryCases: CaseDef[] = [vectorStore, policyModeCeiling, storeUnderSectionMode, scopesRequested];

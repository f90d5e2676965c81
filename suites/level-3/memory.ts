/**
 * L3-Y1: an external memory store kind beyond oap-state, and enforcement of spec.memory.mode (the
 * ceiling for the whole section, SPEC 3.7) and scopes.
 *
 * "At least one external memory store kind beyond oap-state": any kind will do, not `vector` in
 * particular. The policy offers a reachable store of every kind the schema names (maggraph,
 * loro-local, loro-shared, vector, custom) and the profile asks for each, optionally; the harness
 * keeps the ones it implements. The mode cases then use the first kind the harness kept.
 *
 * Scope narrowing against POLICY is L1-I3's; what Y1 adds is that the profile's own request limits
 * the session. So the scope check requires effective ⊆ requested, and is not applicable when the
 * adapter already exceeds the policy (an L1-I3 failure).
 */
import type { HarnessPolicyT, InstantiatedT } from '../../protocol/messages.js';
import { expectEqual, expectTrue, fail } from '../kit/assert.js';
import type { CaseContext, CaseDef } from '../kit/types.js';
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

/** The store kinds beyond oap-state that the schema names ("e.g. oap-state, maggraph, loro-local, loro-shared, vector, custom"). */
const EXTERNAL_KINDS = ['vector', 'maggraph', 'loro-local', 'loro-shared', 'custom'] as const;

const storeName = (kind: string): string => `kb-${kind}`;

/** A policy whose harness has a reachable store of every external kind (the harness keeps those it implements). */
function memoryPolicy(mode: MemoryMode): HarnessPolicyT {
  const base = permissivePolicy();
  return permissivePolicy({
    memory: {
      ...base.memory,
      mode,
      store_kinds: ['oap-state', ...EXTERNAL_KINDS],
      stores: EXTERNAL_KINDS.map((kind) => ({ name: storeName(kind), kind, reachable: true })),
    },
  });
}

async function writeMemoryProfile(ctx: CaseContext, name: string, memory: Record<string, unknown>): Promise<void> {
  writeProjectProfile(ctx, minimalProfile(name, { memory }));
  await requireDiscovered(ctx, [name]);
}

type EffectiveStore = InstantiatedT['effective']['memory']['stores'][number];

function store(s: InstantiatedT, name: string): EffectiveStore {
  const found = s.effective.memory.stores.find((x) => x.name === name);
  if (!found) fail(`memory store ${name} is missing from the effective contract`, { name }, s.effective.memory.stores);
  return found;
}

/**
 * Ask for an optional read_write store of every external kind in a read_write section under a
 * read_write harness: the stores the session kept, in EXTERNAL_KINDS order.
 */
async function externalStores(
  ctx: CaseContext,
  name: string,
  session: typeof mustInstantiate = mustInstantiate,
): Promise<EffectiveStore[]> {
  await writeMemoryProfile(ctx, name, {
    mode: 'read_write',
    stores: EXTERNAL_KINDS.map((kind) => ({ name: storeName(kind), kind, mode: 'read_write', required: false })),
  });
  const s = session(await instantiateName(ctx, name, memoryPolicy('read_write')), 'profile offering every external store kind');
  ctx.note(
    'external-stores-kept',
    s.effective.memory.stores.map((x) => `${x.name} (${x.kind})`),
  );
  return EXTERNAL_KINDS.flatMap((kind) => s.effective.memory.stores.filter((x) => x.name === storeName(kind) && x.kind === kind));
}

/**
 * The first external kind the harness implements, for the mode cases; undefined when it implements
 * none (judged by Y1's own case). A precondition here: a refusal of the probe leaves the mode case
 * inconclusive, since the kind case judges it.
 */
async function supportedKind(ctx: CaseContext): Promise<string | undefined> {
  return (await externalStores(ctx, 'y1-kind-probe', requireSession))[0]?.kind;
}

const externalStoreKind: CaseDef = {
  id: 'L3-Y1/external-store-kind-supported',
  requirements: ['L3-Y1'],
  clauses: ['L3-Y1.external-store'],
  title:
    'At least one store kind beyond oap-state (any of maggraph, loro-local, loro-shared, vector, custom) is part of the session with its mode',
  fixtures: ['l3-y1-external-kinds'],
  expectation: { anyStoreOfKind: EXTERNAL_KINDS, mode: 'read_write' },
  async run(ctx) {
    const kept = await externalStores(ctx, 'y1-external');
    if (kept.length === 0)
      fail('no memory store kind beyond oap-state is supported: every offered store was dropped', { anyOf: EXTERNAL_KINDS }, []);
    const wrong = kept.filter((x) => x.mode !== 'read_write');
    expectEqual(wrong, [], 'external stores kept with a mode other than the requested read_write (policy and section allow it)');
  },
};

const policyModeCeiling: CaseDef = {
  id: 'L3-Y1/policy-mode-ceiling',
  requirements: ['L3-Y1'],
  clauses: ['L3-Y1.mode'],
  title: 'Profile memory read_write under a read_only harness gives at most read_only memory and no read_write store',
  fixtures: ['l3-y1-policy-mode'],
  expectation: { memory_mode_at_most: 'read_only', store_mode_at_most: 'read_only' },
  async run(ctx) {
    const kind = await supportedKind(ctx);
    await writeMemoryProfile(ctx, 'y1-policy-mode', {
      mode: 'read_write',
      ...(kind ? { stores: [{ name: storeName(kind), kind, mode: 'read_write' }] } : {}),
    });
    const s = requireSession(
      await instantiateName(ctx, 'y1-policy-mode', memoryPolicy('read_only')),
      'read_write profile, read_only harness',
    );
    expectTrue(memoryAtMost(s.effective.memory.mode, 'read_only'), `memory is ${s.effective.memory.mode} under a read_only harness`, {
      expected: 'read_only or off',
      observed: s.effective.memory.mode,
    });
    // Without an external kind only the section's mode can be observed (the kind is judged above).
    if (!kind) return ctx.note('store', 'no external store kind is supported; only the section mode was judged');
    const kb = store(s, storeName(kind));
    expectTrue(memoryAtMost(kb.mode, 'read_only'), `store ${kb.name} is ${kb.mode} under a read_only memory section`, {
      expected: 'read_only or off',
      observed: kb.mode,
    });
  },
};

const storeUnderSectionMode: CaseDef = {
  id: 'L3-Y1/store-mode-within-section-mode',
  requirements: ['L3-Y1'],
  clauses: ['L3-Y1.mode'],
  title: "A store asking read_write inside a read_only memory section is capped at read_only (mode is the section's ceiling)",
  fixtures: ['l3-y1-section-mode'],
  expectation: { memory_mode_at_most: 'read_only', store_mode_at_most: 'the section mode' },
  async run(ctx) {
    const kind = await supportedKind(ctx);
    await writeMemoryProfile(ctx, 'y1-section-mode', {
      mode: 'read_only',
      ...(kind ? { stores: [{ name: storeName(kind), kind, mode: 'read_write' }] } : {}),
    });
    const s = requireSession(
      await instantiateName(ctx, 'y1-section-mode', memoryPolicy('read_write')),
      'read_only section with a read_write store',
    );
    expectTrue(
      memoryAtMost(s.effective.memory.mode, 'read_only'),
      `memory is ${s.effective.memory.mode} although the profile asked read_only`,
      { expected: 'read_only or off', observed: s.effective.memory.mode },
    );
    if (!kind) return ctx.note('store', 'no external store kind is supported; only the section mode was judged');
    const kb = store(s, storeName(kind));
    expectTrue(
      memoryAtMost(kb.mode, s.effective.memory.mode),
      `store ${kb.name} is ${kb.mode}, above the memory mode ${s.effective.memory.mode}`,
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
  clauses: ['L3-Y1.scopes'],
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

export const memoryCases: CaseDef[] = [externalStoreKind, policyModeCeiling, storeUnderSectionMode, scopesRequested];

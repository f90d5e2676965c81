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
 * the session (mode, store modes, scopes). The mode and scope cases judge the session's whole answer
 * against the spec model's prediction (spec/semantics/contract.ts): a mode, store mode or scope above
 * the profile's own request fails L3-Y1; one above the policy alone is L1-I3's and leaves the case
 * inconclusive; a narrower answer is noted.
 */
import type { HarnessPolicyT, InstantiatedT } from '../../protocol/messages.js';
import { expectEqual, fail } from '../kit/assert.js';
import type { CaseContext, CaseDef } from '../kit/types.js';
import { contractFindings, type MemoryMode, predictContract } from '../../spec/semantics/index.js';
import { requireDiscovered } from './lib/preconditions.js';
import {
  expectContract,
  instantiateName,
  minimalProfile,
  mustInstantiate,
  permissivePolicy,
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

async function writeMemoryProfile(ctx: CaseContext, name: string, memory: Record<string, unknown>): Promise<Record<string, unknown>> {
  writeProjectProfile(ctx, minimalProfile(name, { memory }));
  await requireDiscovered(ctx, [name]);
  return { memory };
}

/** The L3-Y1 verdict on a session's whole answer, naming the memory section first. */
function expectMemory(ctx: CaseContext, spec: Record<string, unknown>, policy: HarnessPolicyT, s: InstantiatedT, what: string): void {
  const prediction = predictContract({ spec, policy, trust: 'project' });
  expectContract(ctx, contractFindings(s.effective, prediction), { requirements: ['L3-Y1'], dimensions: ['/memory'], what });
}

type EffectiveStore = InstantiatedT['effective']['memory']['stores'][number];

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
  expectation: { memory_mode_at_most: 'read_only', store_mode_at_most: 'read_only', whole_contract: 'within the prediction' },
  async run(ctx) {
    const kind = await supportedKind(ctx);
    const spec = await writeMemoryProfile(ctx, 'y1-policy-mode', {
      mode: 'read_write',
      ...(kind ? { stores: [{ name: storeName(kind), kind, mode: 'read_write' }] } : {}),
    });
    const policy = memoryPolicy('read_only');
    const s = requireSession(await instantiateName(ctx, 'y1-policy-mode', policy), 'read_write profile, read_only harness');
    // Without an external kind only the section's mode can be observed (the kind is judged above).
    if (!kind) ctx.note('store', 'no external store kind is supported; only the section mode was judged');
    expectMemory(ctx, spec, policy, s, 'memory under a read_only harness');
  },
};

const storeUnderSectionMode: CaseDef = {
  id: 'L3-Y1/store-mode-within-section-mode',
  requirements: ['L3-Y1'],
  clauses: ['L3-Y1.mode'],
  title: "A store asking read_write inside a read_only memory section is capped at read_only (mode is the section's ceiling)",
  fixtures: ['l3-y1-section-mode'],
  expectation: { memory_mode_at_most: 'read_only', store_mode_at_most: 'the section mode', whole_contract: 'within the prediction' },
  async run(ctx) {
    const kind = await supportedKind(ctx);
    const spec = await writeMemoryProfile(ctx, 'y1-section-mode', {
      mode: 'read_only',
      ...(kind ? { stores: [{ name: storeName(kind), kind, mode: 'read_write' }] } : {}),
    });
    const policy = memoryPolicy('read_write');
    const s = requireSession(await instantiateName(ctx, 'y1-section-mode', policy), 'read_only section with a read_write store');
    if (!kind) ctx.note('store', 'no external store kind is supported; only the section mode was judged');
    expectMemory(ctx, spec, policy, s, 'a read_write store in a read_only memory section');
  },
};

const scopesRequested: CaseDef = {
  id: 'L3-Y1/scopes-limited-to-request',
  requirements: ['L3-Y1'],
  clauses: ['L3-Y1.scopes'],
  title: "The session's memory scopes are only those the profile requested (and policy permits)",
  fixtures: ['l3-y1-scopes'],
  expectation: { scopes: { within: ['project:acme'] }, whole_contract: 'within the prediction' },
  async run(ctx) {
    // Policy permits project:acme, user:global, team:platform; the profile asks for one of them and one unknown.
    const spec = await writeMemoryProfile(ctx, 'y1-scopes', { mode: 'read_only', scopes: ['project:acme', 'org:finance'] });
    const policy = memoryPolicy('read_write');
    const s = requireSession(await instantiateName(ctx, 'y1-scopes', policy), 'profile with memory scopes');
    expectMemory(ctx, spec, policy, s, 'memory scopes');
  },
};

export const memoryCases: CaseDef[] = [externalStoreKind, policyModeCeiling, storeUnderSectionMode, scopesRequested];

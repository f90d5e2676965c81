/**
 * For each mutant of harnesses/mutants/class-walk.ts (the catalogue classes that waited longest for
 * their case) one scenario at its class's edge: tests/reference/mutants.test.ts runs it against the
 * reference and the mutant and requires different answers.
 */
import type { Harness } from './support.js';
import { grandchildUnderDepthOne } from './boundary-scenarios.js';
import { minimalProfile, permissivePolicy } from './support.js';

type Scenario = (h: Harness) => Promise<unknown>;
type Doc = Record<string, unknown>;

const NOW = '2026-01-10T00:00:00Z';
const fact = (id: string) => ({ id, text: `fact ${id}` });

function delta(name: string, revision: number, extra: Doc = {}): Doc {
  return {
    oap: '1.0',
    kind: 'AgentStateDelta',
    target: { name, revision },
    session: { id: 'sess-test' },
    operations: [{ op: 'add', path: '/state/facts/-', value: fact('f1') }],
    ...extra,
  };
}

async function apply(h: Harness, path: string, d: Doc) {
  return h.rpc.call('apply_delta', { profile_path: path, delta: d, approval: { operations: true, approver: 'reviewer' }, now: NOW });
}

/** The risks apply_delta reports for `proposals` on a profile with `spec`. */
async function risks(h: Harness, spec: Doc, proposals: Doc[]): Promise<unknown> {
  const path = h.put(minimalProfile('a', { ...spec, lifecycle: { writeback: 'auto' } }));
  const out = await apply(h, path, delta('a', 1, { proposals: proposals.map((p) => ({ rationale: 'r', risk: 'low', ...p })) }));
  return out.proposals.map((p) => p.risk);
}

/** The status of a delegation from `parent` (allowed to delegate to `child`) under a harness `subagents` limit. */
async function delegateUnder(h: Harness, subagents: { max_depth: number; max_concurrent: number }): Promise<unknown> {
  h.put(minimalProfile('parent', { runtime: { subagents: { allow: ['child'] } } }));
  h.put(minimalProfile('child'));
  const p = await h.instantiateOk({ name: 'parent' }, permissivePolicy({ subagents }));
  return (await h.rpc.call('instantiate_subagent', { parent_session_id: p.session_id, profile: { name: 'child' } })).status;
}

export const CLASS_WALK_SCENARIOS: Record<string, Scenario> = {
  'risk-op-absent-unclassified': (h) => risks(h, { permissions: { shell: 'deny' } }, [{ path: '/spec/permissions/shell', value: 'allow' }]),
  'risk-subagent-limits-unguarded': (h) =>
    risks(h, { runtime: { subagents: { max_depth: 2 } } }, [{ path: '/spec/runtime/subagents/max_depth', op: 'replace', value: 8 }]),
  'risk-allow-pattern-not-a-tool': (h) =>
    risks(h, { tools: { allow: ['read'] } }, [{ path: '/spec/tools/allow/-', op: 'add', value: '*' }]),
  'risk-remove-never-widens': (h) => risks(h, { tools: { deny: ['shell'] } }, [{ path: '/spec/tools/deny/0', op: 'remove' }]),
  'current-revision-absent-as-0': async (h) => {
    const path = h.put(minimalProfile('a', { lifecycle: { writeback: 'auto' } }));
    await apply(h, path, delta('a', 1));
    return (h.read(path)['metadata'] as Doc)['revision'];
  },
  'history-cap-over-255-ignored': async (h) => {
    const doc = minimalProfile('a', { lifecycle: { writeback: 'auto', retention: { max_history: 500 } } });
    (doc['metadata'] as Doc)['revision'] = 51;
    doc['history'] = Array.from({ length: 51 }, (_, i) => ({ revision: i + 1, at: NOW, by: 'earlier', sections: ['state'] }));
    const path = h.put(doc);
    await apply(h, path, delta('a', 51));
    return (h.read(path)['history'] as unknown[]).length;
  },
  'trust-unset-when-file-silent': async (h) => {
    h.put(minimalProfile('a'));
    return (await h.instantiateOk({ name: 'a' })).session.trust;
  },
  'trust-of-first-root-defining-name': async (h) => {
    h.put(minimalProfile('twin'), { root: 'managed' });
    h.put(minimalProfile('twin'));
    return (await h.instantiateOk({ name: 'twin' })).session.trust;
  },
  'subagent-allow-inherited': async (h) => {
    h.put(minimalProfile('p0', { runtime: { subagents: { allow: ['p1', 'p2'] } } }));
    h.put(minimalProfile('p1', { runtime: { subagents: { allow: ['other'] } } }));
    h.put(minimalProfile('p2'));
    const p0 = await h.instantiateOk({ name: 'p0' });
    const p1 = await h.rpc.call('instantiate_subagent', { parent_session_id: p0.session_id, profile: { name: 'p1' } });
    if (p1.status !== 'instantiated') return p1.status;
    return (await h.rpc.call('instantiate_subagent', { parent_session_id: p1.session_id, profile: { name: 'p2' } })).status;
  },
  'subagent-depth-own-limit-only': grandchildUnderDepthOne,
  'subagent-depth-zero-unlimited': (h) => delegateUnder(h, { max_depth: 0, max_concurrent: 8 }),
  'subagent-concurrency-zero-unlimited': (h) => delegateUnder(h, { max_depth: 8, max_concurrent: 0 }),
  'subagent-store-mode-from-parent-section': async (h) => {
    const store = { name: 'kb', kind: 'vector' };
    h.put(
      minimalProfile('parent', {
        memory: { mode: 'read_write', stores: [{ ...store, mode: 'read_only' }] },
        runtime: { subagents: { allow: ['child'] } },
      }),
    );
    h.put(minimalProfile('child', { memory: { mode: 'read_write', stores: [{ ...store, mode: 'read_write' }] } }));
    const policy = permissivePolicy();
    policy.memory = { ...policy.memory, stores: [{ ...store, reachable: true }] };
    const p = await h.instantiateOk({ name: 'parent' }, policy);
    const c = await h.rpc.call('instantiate_subagent', { parent_session_id: p.session_id, profile: { name: 'child' } });
    return c.status === 'instantiated' ? c.effective.memory.stores : c.status;
  },
  'memory-mode-yaml11-off': async (h) => {
    // The suite's YAML writer leaves `off` unquoted, as YAML 1.2 allows.
    h.put(minimalProfile('a', { memory: { mode: 'off' } }));
    return (await h.instantiateOk({ name: 'a' })).effective.memory.mode;
  },
};

/**
 * For each mutant of issue 20 part 4 (harnesses/mutants/boundaries.ts) one scenario at the edge its
 * catalogue class names: tests/reference/mutants.test.ts runs it against the reference and the
 * mutant and requires different answers, so every mutant is shown to deviate observably, including
 * the ones whose cases have not come yet.
 */
import { stringify as yamlStringify } from 'yaml';
import type { Harness } from './support.js';
import { minimalProfile, permissivePolicy } from './support.js';

type Scenario = (h: Harness) => Promise<unknown>;

const NOW = '2026-01-10T00:00:00Z';
const auto = { lifecycle: { writeback: 'auto' } };
const fact = (id: string, extra: Record<string, unknown> = {}) => ({ id, text: `fact ${id}`, ...extra });
const profile = (name: string, spec: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
  minimalProfile(name, spec, extra);

function delta(name: string, ops: unknown[]): Record<string, unknown> {
  return { oap: '1.0', kind: 'AgentStateDelta', target: { name, revision: 1 }, session: { id: 'sess-test' }, operations: ops };
}

async function apply(h: Harness, path: string, d: Record<string, unknown>) {
  return h.rpc.call('apply_delta', { profile_path: path, delta: d, approval: { operations: true, approver: 'reviewer' }, now: NOW });
}

/** The facts of the profile file at `path`, by id. */
const factIds = (h: Harness, path: string): string[] =>
  ((h.read(path)['state'] as { facts?: Array<{ id: string }> }).facts ?? []).map((f) => f.id);

/** `validate` of a profile written in YAML. */
async function valid(h: Harness, doc: Record<string, unknown>): Promise<boolean> {
  return (await h.rpc.call('validate', { document: { content: yamlStringify(doc), encoding: 'yaml' } })).valid;
}

const mcpWith = (field: 'env' | 'headers', key: string, value: string) => {
  const server =
    field === 'env'
      ? { name: 'gh', transport: 'stdio', command: 'gh-mcp' }
      : { name: 'gh', transport: 'http', url: 'https://mcp.example.net' };
  return profile('a', { tools: { mcp_servers: [{ ...server, [field]: { [key]: value } }] } });
};

/** A parent allowed to delegate to `child`, with its own spec on top. */
async function delegate(h: Harness, parentSpec: Record<string, unknown>, child: Record<string, unknown>, childName = 'child') {
  h.put(profile('parent', parentSpec));
  h.put(profile(childName, child));
  const p = await h.instantiateOk({ name: 'parent' });
  return h.rpc.call('instantiate_subagent', { parent_session_id: p.session_id, profile: { name: childName } });
}

/** A grandchild delegated under `max_depth: 1`: its status (the reference refuses it). */
export async function grandchildUnderDepthOne(h: Harness): Promise<unknown> {
  h.put(profile('p0', { runtime: { subagents: { allow: ['p1'], max_depth: 1 } } }));
  h.put(profile('p1', { runtime: { subagents: { allow: ['p2'] } } }));
  h.put(profile('p2'));
  const p0 = await h.instantiateOk({ name: 'p0' });
  const p1 = await h.rpc.call('instantiate_subagent', { parent_session_id: p0.session_id, profile: { name: 'p1' } });
  if (p1.status !== 'instantiated') return p1.status;
  return (await h.rpc.call('instantiate_subagent', { parent_session_id: p1.session_id, profile: { name: 'p2' } })).status;
}

export const BOUNDARY_SCENARIOS: Record<string, Scenario> = {
  // presence
  'empty-roots-list-means-whole-workspace': async (h) => {
    h.put(profile('a', { permissions: { filesystem: { read_roots: [] } } }));
    return (await h.instantiateOk({ name: 'a' })).effective.filesystem.read_roots;
  },
  'empty-scopes-means-all': async (h) => {
    h.put(profile('a', { memory: { scopes: [] } }));
    return (await h.instantiateOk({ name: 'a' })).effective.memory.scopes;
  },
  'policy-category-unset-means-allow': async (h) => {
    h.put(profile('a'));
    const policy = permissivePolicy({ permissions: { default: 'ask', rules: [] } });
    return (await h.instantiateOk({ name: 'a' }, policy)).effective.permissions.shell;
  },
  'max-history-absent-unlimited': async (h) => {
    const history = Array.from({ length: 50 }, (_, i) => ({ revision: i + 1, at: NOW }));
    const path = h.put(profile('a', auto, { metadata: { name: 'a', description: 'x', revision: 50 }, history }));
    await apply(h, path, {
      ...delta('a', [{ op: 'add', path: '/state/facts/-', value: fact('f1') }]),
      target: { name: 'a', revision: 50 },
    });
    return (h.read(path)['history'] as unknown[]).length;
  },
  'model-half-exact-treated-as-exact': async (h) => {
    h.put(profile('a', { model: { provider: 'openai' } }));
    return (await h.instantiateOk({ name: 'a' })).effective.model;
  },
  'fact-ttl-from-last-used': async (h) => {
    const f = fact('f-old', { learned_at: '2025-01-01T00:00:00Z', last_used_at: '2026-01-09T00:00:00Z' });
    const path = h.put(profile('a', { lifecycle: { writeback: 'auto', retention: { fact_ttl_days: 30 } } }, { state: { facts: [f] } }));
    await apply(h, path, delta('a', [{ op: 'add', path: '/state/facts/-', value: fact('f2') }]));
    return factIds(h, path);
  },
  // numeric
  'cost-budget-whole-dollars': async (h) => {
    h.put(profile('a', { runtime: { max_cost_usd: 2.7 } }));
    return (await h.instantiateOk({ name: 'a' }, permissivePolicy({ budgets: { max_cost_usd: 2.5 } }))).effective.budgets.max_cost_usd;
  },
  'subagent-depth-off-by-one': grandchildUnderDepthOne,
  'subagent-concurrency-off-by-one': async (h) => {
    h.put(profile('parent', { runtime: { subagents: { allow: ['child'], max_concurrent: 1 } } }));
    h.put(profile('child'));
    const p = await h.instantiateOk({ name: 'parent' });
    await h.rpc.call('instantiate_subagent', { parent_session_id: p.session_id, profile: { name: 'child' } });
    return (await h.rpc.call('instantiate_subagent', { parent_session_id: p.session_id, profile: { name: 'child' } })).status;
  },
  'zero-state-budget-unlimited': async (h) => {
    h.put(profile('a', { context: { budget: { max_state_bytes: 0 } } }, { state: { facts: [fact('f1')] } }));
    return (await h.instantiateOk({ name: 'a' })).prompt.state.included;
  },
  'state-bytes-counted-in-utf16': async (h) => {
    const facts = [fact('f1', { text: '😀'.repeat(40) }), fact('f2', { text: '😀'.repeat(40) })];
    h.put(profile('a', { context: { budget: { max_state_bytes: 300 } } }, { state: { facts } }));
    return (await h.instantiateOk({ name: 'a' })).prompt.state.included;
  },
  'ttl-in-whole-days': async (h) => {
    // 30.5 days before NOW under a 30-day TTL.
    const f = fact('f-edge', { learned_at: '2025-12-10T12:00:00Z' });
    const path = h.put(profile('a', { lifecycle: { writeback: 'auto', retention: { fact_ttl_days: 30 } } }, { state: { facts: [f] } }));
    await apply(h, path, delta('a', [{ op: 'add', path: '/state/facts/-', value: fact('f2') }]));
    return factIds(h, path);
  },
  'temperature-maximum-exclusive': async (h) => valid(h, profile('a', { model: { parameters: { temperature: 2 } } })),
  'agent-name-max-63': async (h) => valid(h, profile('a'.repeat(64))),
  'pointer-index-leading-zero': async (h) => {
    const path = h.put(profile('a', auto, { state: { facts: [fact('f0'), fact('f1')] } }));
    return (await apply(h, path, delta('a', [{ op: 'replace', path: '/state/facts/01/text', value: 'new' }]))).outcome;
  },
  'pointer-negative-index-from-end': async (h) => {
    const path = h.put(profile('a', auto, { state: { facts: [fact('f0'), fact('f1')] } }));
    return (await apply(h, path, delta('a', [{ op: 'replace', path: '/state/facts/-1/text', value: 'new' }]))).outcome;
  },
  'retention-cap-keeps-one-extra': async (h) => {
    const path = h.put(profile('a', { lifecycle: { writeback: 'auto', retention: { max_facts: 1 } } }, { state: { facts: [fact('f1')] } }));
    await apply(h, path, delta('a', [{ op: 'add', path: '/state/facts/-', value: fact('f2') }]));
    return factIds(h, path).length;
  },
  // text
  'tool-names-case-insensitive': async (h) => {
    h.put(profile('a', { tools: { allow: ['Read'] } }));
    return (await h.instantiateOk({ name: 'a' })).effective.tools;
  },
  'scopes-case-insensitive': async (h) => {
    h.put(profile('a', { memory: { scopes: ['Project:Acme'] } }));
    return (await h.instantiateOk({ name: 'a' })).effective.memory.scopes;
  },
  'model-id-case-insensitive': async (h) => {
    h.put(profile('a', { model: { provider: 'OpenAI', id: 'GPT-6' } }));
    return (await h.instantiateOk({ name: 'a' })).effective.model;
  },
  'header-bearer-case-insensitive': async (h) => valid(h, mcpWith('headers', 'Authorization', 'bearer ${API_TOKEN}')),
  'date-time-lower-case-refused': async (h) =>
    valid(h, profile('a', {}, { metadata: { name: 'a', description: 'x', created_at: '2026-01-01t00:00:00z' } })),
  'max-length-in-utf16-units': async (h) => valid(h, profile('a', {}, { metadata: { name: 'a', description: '😀'.repeat(500) } })),
  'env-name-may-start-with-digit': async (h) => valid(h, mcpWith('env', '_TOKEN', '${_TOKEN}')),
  'delta-lengths-in-utf16-units': async (h) => {
    const path = h.put(profile('a', auto));
    return (await apply(h, path, { ...delta('a', []), summary: '😀'.repeat(4000) })).outcome;
  },
  'delta-outcome-without-timeout': async (h) => {
    const path = h.put(profile('a', auto));
    return (await apply(h, path, { ...delta('a', []), session: { id: 's', outcome: 'timeout' } })).outcome;
  },
  'delta-session-times-utc-only': async (h) => {
    const path = h.put(profile('a', auto));
    return (await apply(h, path, { ...delta('a', []), session: { id: 's', started_at: '2026-01-01T00:00:00+01:00' } })).outcome;
  },
  'delta-operations-capped-at-256': async (h) => {
    const path = h.put(profile('a', auto, { state: { summary: 's' } }));
    const ops = Array.from({ length: 300 }, (_, i) => ({ op: 'replace', path: '/state/summary', value: `s${i}` }));
    return (await apply(h, path, delta('a', ops))).outcome;
  },
  'delta-confidence-one-exclusive': async (h) => {
    const path = h.put(profile('a', auto));
    return (await apply(h, path, delta('a', [{ op: 'add', path: '/state/facts/-', value: fact('f1'), confidence: 1 }]))).outcome;
  },
  'delta-confidence-zero-refused': async (h) => {
    const path = h.put(profile('a', auto));
    return (await apply(h, path, delta('a', [{ op: 'add', path: '/state/facts/-', value: fact('f1'), confidence: 0 }]))).outcome;
  },
  'proposal-rationale-blank-refused': async (h) => {
    const path = h.put(profile('a', auto, { state: { summary: 's' } }));
    const d = {
      ...delta('a', [{ op: 'replace', path: '/state/summary', value: 't' }]),
      proposals: [{ path: '/spec/role/instructions', value: 'x', rationale: ' ' }],
    };
    return (await apply(h, path, d)).outcome;
  },
  // separators
  'host-wildcard-suffix-without-dot': async (h) => {
    h.put(profile('a', { permissions: { allow_hosts: ['evilexample.net'] } }));
    return (await h.instantiateOk({ name: 'a' })).effective.hosts;
  },
  'root-string-prefix': async (h) => {
    h.put(profile('a', { permissions: { filesystem: { read_roots: ['srcx'] } } }));
    const policy = permissivePolicy({ filesystem: { read_roots: ['src'], write_roots: ['src'], allow_absolute: false } });
    return (await h.instantiateOk({ name: 'a' }, policy)).effective.filesystem.read_roots;
  },
  'state-pointer-trailing-slash-stripped': async (h) => {
    const path = h.put(profile('a', auto, { state: { summary: 'old' } }));
    return (await apply(h, path, delta('a', [{ op: 'replace', path: '/state/summary/', value: 'new' }]))).outcome;
  },
  'subagent-allow-prefix-match': async (h) => (await delegate(h, { runtime: { subagents: { allow: ['help'] } } }, {}, 'helper')).status,
  'agent-name-trailing-separator': async (h) => valid(h, profile('a-')),
  'version-prefix-match': async (h) => valid(h, { ...profile('a'), oap: '1.01' }),
  'absolute-roots-outside-workspace-when-permitted': async (h) => {
    // By path: discovery passes over a file with an absolute root (the document layer flags it).
    const path = h.put(profile('a', { permissions: { filesystem: { read_roots: ['/etc'] } } }));
    const policy = permissivePolicy({ filesystem: { read_roots: ['.'], write_roots: ['.'], allow_absolute: true } });
    const r = await h.instantiate({ path }, policy);
    return r.status === 'instantiated' ? r.effective.filesystem.read_roots : r.status;
  },
  // wildcards
  'grant-star-crosses-segments': async (h) => {
    h.put(profile('a', { tools: { policy: 'inherit' } }));
    return (await h.instantiateOk({ name: 'a' }, permissivePolicy({ tools: { available: ['read', 'git/diff'], grant: ['*'] } }))).effective
      .tools;
  },
  'grant-braces-expanded': async (h) => {
    h.put(profile('a', { tools: { policy: 'inherit' } }));
    const policy = permissivePolicy({ tools: { available: ['read', 'shell'], grant: ['{read,shell}'] } });
    return (await h.instantiateOk({ name: 'a' }, policy)).effective.tools;
  },
  'policy-scopes-as-globs': async (h) => {
    h.put(profile('a', { memory: { scopes: ['project:secret'] } }));
    const base = permissivePolicy();
    return (await h.instantiateOk({ name: 'a' }, permissivePolicy({ memory: { ...base.memory, scopes: ['project:*'] } }))).effective.memory
      .scopes;
  },
  // escaping
  'pointer-read-as-uri-path': async (h) => {
    const path = h.put(profile('a', auto));
    await apply(h, path, delta('a', [{ op: 'replace', path: '/state/%2e%2e/spec/role/instructions', value: 'pwned' }]));
    return (h.read(path)['spec'] as Record<string, Record<string, unknown>>)['role']!['instructions'];
  },
  'id-token-unescaped-before-split': async (h) => {
    const path = h.put(profile('a', auto, { state: { facts: [fact('a/b')] } }));
    return (await apply(h, path, delta('a', [{ op: 'replace', path: '/state/facts/id:a~1b/text', value: 'new' }]))).outcome;
  },
  // duplicates
  'collision-within-one-encoding-only': async (h) => {
    h.put(profile('twin'), { file: 'twin.agent.yaml' });
    h.put(profile('twin'), { file: 'twin.agent.json', encoding: 'json' });
    return (await h.rpc.call('discover', { workspace: h.ws.dir, roots: h.ws.roots })).collisions.map((c) => c.scope);
  },
  'denylist-allow-overrides-deny': async (h) => {
    h.put(profile('a', { tools: { policy: 'denylist', allow: ['shell'], deny: ['shell'] } }));
    return (await h.instantiateOk({ name: 'a' })).effective.tools.includes('shell');
  },
  'extends-duplicate-base-rejected': async (h) => {
    h.put(profile('base'));
    h.put(profile('child', {}, { extends: [{ name: 'base' }, { name: 'base' }] }));
    return (await h.instantiate({ name: 'child' })).status;
  },
  // order
  'fallbacks-last-served-wins': async (h) => {
    h.put(
      profile('a', {
        model: {
          provider: 'x',
          id: 'none',
          fallbacks: [
            { provider: 'openai', id: 'gpt-6' },
            { provider: 'anthropic', id: 'claude-sonnet-5' },
          ],
        },
      }),
    );
    return (await h.instantiateOk({ name: 'a' })).effective.model;
  },
  'tier-before-fallbacks': async (h) => {
    h.put(profile('a', { model: { provider: 'x', id: 'none', tier: 'minimal', fallbacks: [{ provider: 'openai', id: 'gpt-6' }] } }));
    return (await h.instantiateOk({ name: 'a' })).effective.model;
  },
  'plugin-below-project': async (h) => {
    h.put(profile('twin'), { root: 'plugin' });
    h.put(profile('twin'));
    return (await h.rpc.call('discover', { workspace: h.ws.dir, roots: h.ws.roots })).profiles.map((p) => p.root);
  },
  'history-trim-keeps-oldest': async (h) => {
    const history = [{ revision: 1, at: NOW }];
    const path = h.put(profile('a', { lifecycle: { writeback: 'auto', retention: { max_history: 1 } } }, { history }));
    await apply(h, path, delta('a', [{ op: 'add', path: '/state/facts/-', value: fact('f1') }]));
    return h.read(path)['history'];
  },
  // links
  'subagent-deny-paths-not-inherited': async (h) => {
    const c = await delegate(
      h,
      { permissions: { filesystem: { deny_paths: ['secrets'] } }, runtime: { subagents: { allow: ['child'] } } },
      {},
    );
    return c.status === 'instantiated' ? c.effective.filesystem.deny_paths : c.status;
  },
  'id-pointer-prefix-match': async (h) => {
    const path = h.put(profile('a', auto, { state: { facts: [fact('f10'), fact('f1')] } }));
    await apply(h, path, delta('a', [{ op: 'replace', path: '/state/facts/id:f1/text', value: 'new' }]));
    return (h.read(path)['state'] as { facts: unknown[] }).facts;
  },
  'mcp-launch-trust-from-file': async (h) => {
    h.put(
      profile(
        'a',
        { tools: { mcp_servers: [{ name: 'gh', transport: 'stdio', command: 'gh-mcp' }] } },
        { metadata: { name: 'a', description: 'x', trust: 'managed' } },
      ),
    );
    return (await h.instantiateOk({ name: 'a' })).effective.mcp_servers.map((s) => s.launch);
  },
  // context.files paths (issue 20, the classes awaiting a case)
  'context-path-ascii-only': async (h) => {
    h.put(profile('a', { context: { files: [{ path: 'docs/caf\u00e9.md' }] } }));
    return (await h.instantiate({ name: 'a' })).status;
  },
  'context-path-any-dotdot-refused': async (h) => {
    h.put(profile('a', { context: { files: [{ path: 'docs/../notes.md' }] } }));
    return (await h.instantiate({ name: 'a' })).status;
  },
  'context-path-backslash-as-name': async (h) => {
    h.put(profile('a', { context: { files: [{ path: '..\\..\\x' }] } }));
    return (await h.instantiate({ name: 'a' })).status;
  },
  // the prompt's sections
  'lone-instructions-in-preamble': async (h) => {
    h.put(profile('a'));
    return (await h.instantiateOk({ name: 'a' })).prompt.sections.map((s) => s.kind);
  },
  'prompt-lines-deduplicated': async (h) => {
    h.put(profile('a', { role: { instructions: 'x', objectives: ['Be brief.'], constraints: ['Be brief.'] } }));
    return (await h.instantiateOk({ name: 'a' })).prompt.text;
  },
  'empty-state-placeholder': async (h) => {
    h.put(profile('a'));
    return (await h.instantiateOk({ name: 'a' })).prompt.sections.map((s) => s.kind);
  },
  'persona-before-instructions': async (h) => {
    h.put(profile('a', { role: { instructions: 'x', persona: { verbosity: 'terse' } } }));
    return (await h.instantiateOk({ name: 'a' })).prompt.sections.map((s) => s.kind);
  },
};

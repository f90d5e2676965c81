/**
 * L1-I3: the narrowing rule (SPEC §7.2, security.md T1). For every dimension the effective value
 * is the more restrictive of profile and policy: never more permissive than local policy alone,
 * and never more than the profile asked for.
 *
 * Every case gathers an observation and asks the spec model (spec/semantics/narrowing.ts) what
 * the rule gives; `narrowingJudgement` is that question, shared with the fuzzer's judge
 * (tests/spec/one-judge.test.ts holds them to the same answers). Tools are judged here only
 * against the harness grant (effective ⊆ granted); which subset the profile's policy selects is
 * L1-I2's question. Whether the narrowing was recorded is L1-I9's. Roots and hosts are judged by
 * meaning over probe paths and hosts, not by spelling.
 */
import type { HarnessPolicyT } from '../../adapters/protocol/messages.js';
import {
  type ContractBounds,
  type Decision,
  DECISIONS,
  type Difference,
  expectedValues,
  globMatch,
  narrowingDifferences,
  narrowingRequest,
  policyCeiling,
  type Probes,
} from '../../spec/semantics/index.js';
import { expectEqual, failWithDifferences } from '../framework/assert.js';
import { mulberry32 } from '../framework/random.js';
import type { CaseDef } from '../framework/types.js';
import { STANDARD_TOOLS, instantiateSubject, minimalProfile, permissivePolicy, writeProjectProfile } from '../support/index.js';

/**
 * Where `effective` departs from the narrowing rule for a profile `spec` under `policy`: the L1-I3
 * expectation of every case below, as one pure function over the observation.
 */
export function narrowingJudgement(
  spec: unknown,
  policy: HarnessPolicyT,
  effective: ContractBounds,
  opts: { probes?: Probes; workspace?: string } = {},
): Difference[] {
  return narrowingDifferences(effective, narrowingRequest(spec), policyCeiling(policy), opts);
}

/** Fail on the first difference in the dimensions named by `prefixes` (pointer labels). */
function expectNarrowed(differences: Difference[], prefixes: string[], what: string): void {
  const found = differences.filter((d) => prefixes.some((p) => d.pointer === p || d.pointer.startsWith(`${p}/`)));
  const first = found[0];
  if (first)
    failWithDifferences(`${what}: ${first.pointer} is not what the narrowing rule gives`, found, first.expected, {
      observed: first.observed,
      all: found,
    });
}

const base = permissivePolicy();

function withPermissions(permissions: HarnessPolicyT['permissions']): HarnessPolicyT {
  return permissivePolicy({ permissions });
}

const specOf = (doc: Record<string, unknown>): unknown => doc['spec'];

// ---------------------------------------------------------------- permissions

const shellUnderDeny: CaseDef = {
  id: 'L1-I3/shell-allow-under-policy-deny',
  requirements: ['L1-I3'],
  title: 'Behavioural test 1: a profile asking shell: allow under a policy of shell: deny gets deny',
  expectation: { permissions: { shell: 'deny' } },
  async run(ctx) {
    const doc = minimalProfile('wants-shell', {
      permissions: { shell: 'allow' },
      tools: { policy: 'allowlist', allow: ['read', 'shell'] },
    });
    const policy = withPermissions({ default: 'allow', shell: 'deny', edit: 'allow', network: 'allow', rules: [] });
    const session = await instantiateSubject(ctx, writeProjectProfile(ctx, doc), policy);
    expectNarrowed(narrowingJudgement(specOf(doc), policy, session.effective), ['/permissions/shell'], 'effective shell decision');
  },
};

interface PermissionCase {
  slug: string;
  title: string;
  profile: Partial<Record<'default' | 'shell' | 'edit' | 'network', Decision>>;
  policy: HarnessPolicyT['permissions'];
}

const PERMISSION_CASES: PermissionCase[] = [
  {
    slug: 'permissions-minimum-of-both',
    title: 'Each decision is the minimum on deny < ask < allow of profile and policy (ask caps allow; profile deny narrows)',
    profile: { default: 'allow', shell: 'allow', edit: 'deny', network: 'ask' },
    policy: { default: 'ask', shell: 'ask', edit: 'allow', network: 'allow', rules: [] },
  },
  {
    slug: 'permissions-policy-default-caps-unset-categories',
    title: 'A category the policy leaves unset is capped by the policy default',
    profile: { default: 'allow', shell: 'allow', edit: 'allow', network: 'allow' },
    policy: { default: 'deny', rules: [] },
  },
];

function permissionCase(c: PermissionCase): CaseDef {
  const doc = minimalProfile(`perm-${c.slug}`, { permissions: c.profile });
  const policy = withPermissions(c.policy);
  return {
    id: `L1-I3/${c.slug}`,
    requirements: ['L1-I3'],
    title: c.title,
    expectation: { permissions: expectedValues(narrowingRequest(specOf(doc)), policyCeiling(policy)).permissions },
    async run(ctx) {
      const session = await instantiateSubject(ctx, writeProjectProfile(ctx, doc), policy);
      expectNarrowed(narrowingJudgement(specOf(doc), policy, session.effective), ['/permissions'], 'effective permissions');
    },
  };
}

const profileRuleCannotAllow: CaseDef = {
  id: 'L1-I3/profile-rule-cannot-allow-denied-shell',
  requirements: ['L1-I3'],
  title: 'A profile rule allowing shell does not reopen a shell the policy denies',
  expectation: { permissions: { shell: 'deny' }, rulesMatchingShell: 'deny only' },
  async run(ctx) {
    const doc = minimalProfile('rule-escalation', {
      permissions: {
        shell: 'allow',
        rules: [{ tool: 'shell', action: '*', target: '*', decision: 'allow', reason: 'needs to run the test suite' }],
      },
      tools: { policy: 'allowlist', allow: ['read', 'shell'] },
    });
    const policy = withPermissions({ default: 'allow', shell: 'deny', edit: 'allow', network: 'allow', rules: [] });
    const session = await instantiateSubject(ctx, writeProjectProfile(ctx, doc), policy);
    expectNarrowed(narrowingJudgement(specOf(doc), policy, session.effective), ['/permissions/shell'], 'effective shell decision');
    // SPEC §3.5: rules "are themselves subject to the narrowing rule".
    const reopening = session.effective.rules.filter((r) => globMatch(r.tool, 'shell') && r.decision !== 'deny');
    expectEqual(reopening, [], 'effective rules that give shell more than the policy’s deny');
  },
};

// ---------------------------------------------------------------- tools vs grant

const GRANT = ['read', 'search', 'git/diff', 'git/log'];

function toolsWithinGrant(policyName: 'allowlist' | 'denylist' | 'inherit', tools: Record<string, unknown>): CaseDef {
  return {
    id: `L1-I3/tools-within-grant-${policyName}`,
    requirements: ['L1-I3'],
    title: `${policyName}: effective tools never include a tool the harness does not grant`,
    expectation: { toolsSubsetOf: GRANT },
    async run(ctx) {
      const doc = minimalProfile(`grant-${policyName}`, { tools: { policy: policyName, ...tools } });
      const policy = permissivePolicy({ tools: { available: [...STANDARD_TOOLS], grant: [...GRANT] } });
      const session = await instantiateSubject(ctx, writeProjectProfile(ctx, doc), policy);
      expectNarrowed(narrowingJudgement(specOf(doc), policy, session.effective), ['/tools'], 'effective tools outside the harness grant');
    },
  };
}

// ---------------------------------------------------------------- filesystem roots

const PROBE_PATHS = [
  'src/main.ts',
  'src/app/view.ts',
  'src/gen/out/model.ts',
  'src/gen/stub.ts',
  'docs/guide.md',
  'tests/unit/a.test.ts',
  'README.md',
  'secrets/token.txt',
  'src/secrets/key.pem',
  'vendor/lib.js',
];

const filesystemRoots: CaseDef = {
  id: 'L1-I3/filesystem-roots-intersected',
  requirements: ['L1-I3'],
  title: 'Readable and writable paths are exactly those both the profile and the policy allow; profile deny_paths stay denied',
  expectation: { probes: PROBE_PATHS, rule: 'allowed(effective) == allowed(profile) && allowed(policy)' },
  async run(ctx) {
    const profileFs = { read_roots: ['.', 'src/app', 'tests'], write_roots: ['src', 'vendor'], deny_paths: ['src/secrets'] };
    const policyFs = { read_roots: ['src', 'docs'], write_roots: ['src/gen'], allow_absolute: false };
    const doc = minimalProfile('roots-narrowed', { permissions: { filesystem: profileFs } });
    const policy = permissivePolicy({ filesystem: policyFs });
    const session = await instantiateSubject(ctx, writeProjectProfile(ctx, doc), policy);
    const probes = { paths: PROBE_PATHS, hosts: [] };
    expectNarrowed(narrowingJudgement(specOf(doc), policy, session.effective, { probes }), ['/filesystem'], 'filesystem roots');
  },
};

// ---------------------------------------------------------------- network hosts

const PROBE_HOSTS = [
  'api.example.com',
  'evil.example.com',
  'docs.example.org',
  'wiki.example.org',
  'cdn.example.net',
  'img.example.net',
  'example.net',
];

const networkHosts: CaseDef = {
  id: 'L1-I3/network-hosts-intersected',
  requirements: ['L1-I3'],
  title: 'Reachable hosts are exactly those both the profile and the policy allow (exact and *.domain patterns)',
  expectation: { probes: PROBE_HOSTS, rule: 'allowed(effective) == allowed(profile) && allowed(policy)' },
  async run(ctx) {
    const profileHosts = ['api.example.com', 'evil.example.com', '*.example.org', 'cdn.example.net'];
    const policyHosts = ['api.example.com', 'docs.example.org', '*.example.net'];
    const doc = minimalProfile('hosts-narrowed', { permissions: { network: 'allow', allow_hosts: profileHosts } });
    const policy = permissivePolicy({ network: { allow_hosts: policyHosts } });
    const session = await instantiateSubject(ctx, writeProjectProfile(ctx, doc), policy);
    const probes = { paths: [], hosts: PROBE_HOSTS };
    expectNarrowed(narrowingJudgement(specOf(doc), policy, session.effective, { probes }), ['/hosts'], 'network hosts');
  },
};

// ---------------------------------------------------------------- memory

const memoryNarrowed: CaseDef = {
  id: 'L1-I3/memory-mode-and-scopes-intersected',
  requirements: ['L1-I3'],
  title: 'Memory mode is the lower of profile and policy; scopes are the intersection',
  expectation: { memory: { mode: 'read_only', scopes: ['project:acme'] } },
  async run(ctx) {
    const doc = minimalProfile('memory-narrowed', { memory: { mode: 'read_write', scopes: ['project:acme', 'team:secret-ops'] } });
    const policy = permissivePolicy({
      memory: { ...base.memory, mode: 'read_only', scopes: ['project:acme', 'user:global'] },
    });
    const session = await instantiateSubject(ctx, writeProjectProfile(ctx, doc), policy);
    // Mode and scopes exactly; no store above the policy's mode.
    expectNarrowed(narrowingJudgement(specOf(doc), policy, session.effective), ['/memory'], 'effective memory');
  },
};

// ---------------------------------------------------------------- budgets

const budgetsNarrowed: CaseDef = {
  id: 'L1-I3/budgets-take-the-smaller-limit',
  requirements: ['L1-I3'],
  title: 'Turn, tool-call, time, cost and token budgets are the smaller of profile and policy',
  async run(ctx) {
    const runtime = { max_turns: 50, max_tool_calls: 10, max_cost_usd: 5 };
    const budget = { max_context_tokens: 200000, max_state_tokens: 4000 };
    const policyBudgets = {
      max_turns: 20,
      max_tool_calls: 100,
      timeout_seconds: 600,
      max_cost_usd: 2.5,
      max_context_tokens: 64000,
      max_state_tokens: 1000,
    };
    const doc = minimalProfile('budgets-narrowed', { runtime, context: { budget } });
    const policy = permissivePolicy({ budgets: policyBudgets });
    const session = await instantiateSubject(ctx, writeProjectProfile(ctx, doc), policy);
    expectNarrowed(narrowingJudgement(specOf(doc), policy, session.effective), ['/budgets'], 'effective budgets');
  },
};

// ---------------------------------------------------------------- seeded sweep

const permissionSweep: CaseDef = {
  id: 'L1-I3/seeded-permission-sweep',
  requirements: ['L1-I3'],
  title: 'For 12 seeded profile/policy permission pairs, every effective decision is min(profile request, policy decision)',
  expectation: { rule: 'effective[k] = min(profile[k] else profile default else none, policy[k] else policy default)' },
  async run(ctx) {
    const rand = mulberry32(ctx.seed);
    const pick = (): Decision => DECISIONS[Math.floor(rand() * 3)] as Decision;
    const maybe = (): Decision | undefined => (rand() < 0.3 ? undefined : pick());
    const keys = ['shell', 'edit', 'network'] as const;
    const trials: unknown[] = [];
    for (let i = 0; i < 12; i++) {
      const profile: Partial<Record<'default' | (typeof keys)[number], Decision>> = {};
      const pd = maybe();
      if (pd) profile.default = pd;
      for (const k of keys) {
        const v = maybe();
        if (v) profile[k] = v;
      }
      const policyPerms: HarnessPolicyT['permissions'] = { default: pick(), rules: [] };
      for (const k of keys) {
        const v = maybe();
        if (v) policyPerms[k] = v;
      }
      const doc = minimalProfile(`sweep-${i}`, { permissions: profile });
      const policy = withPermissions(policyPerms);
      const session = await instantiateSubject(ctx, writeProjectProfile(ctx, doc), policy);
      trials.push({ profile, policy: policyPerms, effective: session.effective.permissions });
      expectNarrowed(narrowingJudgement(specOf(doc), policy, session.effective), ['/permissions'], `trial ${i}`);
    }
    ctx.note('trials', trials.length);
  },
};

export const narrowingCases: CaseDef[] = [
  shellUnderDeny,
  ...PERMISSION_CASES.map(permissionCase),
  profileRuleCannotAllow,
  toolsWithinGrant('allowlist', { allow: ['read', 'shell', 'edit', 'git/diff', 'web/fetch'] }),
  toolsWithinGrant('denylist', { deny: ['search'] }),
  toolsWithinGrant('inherit', {}),
  filesystemRoots,
  networkHosts,
  memoryNarrowed,
  budgetsNarrowed,
  permissionSweep,
];

/**
 * L1-I3: the narrowing rule (SPEC §7.2, security.md T1). For every dimension the effective value
 * is the more restrictive of profile and policy: never more permissive than local policy alone,
 * and never more than the profile asked for.
 *
 * Every case gathers an observation and hands the session's whole effective contract to the spec
 * model's judge (spec/semantics/contract-judge.ts) against the prediction of the whole contract
 * (spec/semantics/contract.ts); `narrowingJudgement` is that question, shared with the fuzzer's
 * judge (tests/spec/one-judge.test.ts holds them to the same answers). A case is about one
 * dimension and names it first, but a widening anywhere in the answer fails it. Only widening
 * fails ("never more permissive than local policy alone"): a harness granting less than the
 * intersection passes, decisions included (`ask` where the minimum is `allow`), and the narrowing
 * is noted. A widening that is another requirement's (a tool the §3.4 table excludes but the
 * policy grants is L1-I2's) leaves the case inconclusive; another requirement's fixed value
 * reported otherwise (the model rule) is noted. Whether the narrowing was recorded is
 * L1-I9's. Roots and hosts are judged by meaning over probe paths and hosts, not by spelling.
 */
import { realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { HarnessPolicyT } from '../../protocol/messages.js';
import type { ClauseId } from '../../spec/requirements.js';
import type { EffectiveContractT } from '../../protocol/messages.js';
import {
  type ContractFinding,
  type ContractPrediction,
  contractFindings,
  type Decision,
  DECISIONS,
  type JudgeOptions,
  physicalRoot,
  predictContract,
} from '../../spec/semantics/index.js';
import { mulberry32 } from '../kit/random.js';
import type { CaseContext, CaseDef } from '../kit/types.js';
import {
  briefIssues,
  expectContract,
  instantiatePath,
  instantiateSubject,
  minimalProfile,
  permissivePolicy,
  STANDARD_TOOLS,
  writeProjectProfile,
} from '../support/index.js';

/** The whole contract the spec allows a top-level session of a project profile `spec` under `policy`. */
export function narrowingPrediction(spec: unknown, policy: HarnessPolicyT): ContractPrediction {
  return predictContract({ spec, policy, trust: 'project' });
}

/**
 * Where `effective` departs from the whole contract the spec allows for a profile `spec` under
 * `policy`: the L1-I3 expectation of every case below, as one pure function over the observation.
 */
export function narrowingJudgement(
  spec: unknown,
  policy: HarnessPolicyT,
  effective: EffectiveContractT,
  opts: JudgeOptions = {},
): ContractFinding[] {
  return contractFindings(effective, narrowingPrediction(spec, policy), opts);
}

/** The L1-I3 verdict on a whole answer, naming `dimensions` (pointer labels) first. */
function expectNarrowed(ctx: CaseContext, findings: ContractFinding[], dimensions: string[], what: string): void {
  expectContract(ctx, findings, { requirements: ['L1-I3'], dimensions, what });
}

/** The most permissive decisions, memory mode, scopes and budgets, for a case's expectation. */
function expectedBounds(spec: unknown, policy: HarnessPolicyT): Record<string, unknown> {
  const p = narrowingPrediction(spec, policy);
  return {
    permissions: mostPermissions(spec, policy),
    memoryMode: p.memory.mode.value,
    scopes: p.memory.scopes.value,
    budgets: Object.fromEntries(Object.entries(p.budgets).map(([k, v]) => [k, v.value])),
  };
}

/** The most permissive decisions, for a case's expectation. */
function mostPermissions(spec: unknown, policy: HarnessPolicyT): Record<string, Decision> {
  const p = narrowingPrediction(spec, policy).permissions;
  return Object.fromEntries(Object.entries(p).map(([k, v]) => [k, v.value]));
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
  clauses: ['L1-I3.permissions'],
  title: 'Behavioural test 1: a profile asking shell: allow under a policy of shell: deny gets deny',
  expectation: { permissions: { shell: 'deny' } },
  async run(ctx) {
    const doc = minimalProfile('wants-shell', {
      permissions: { shell: 'allow' },
      tools: { policy: 'allowlist', allow: ['read', 'shell'] },
    });
    const policy = withPermissions({ default: 'allow', shell: 'deny', edit: 'allow', network: 'allow', rules: [] });
    const session = await instantiateSubject(ctx, writeProjectProfile(ctx, doc), policy);
    expectNarrowed(ctx, narrowingJudgement(specOf(doc), policy, session.effective), ['/permissions/shell'], 'effective shell decision');
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
    clauses: ['L1-I3.permissions'],
    title: c.title,
    expectation: { permissions: { atMost: mostPermissions(specOf(doc), policy) } },
    async run(ctx) {
      const session = await instantiateSubject(ctx, writeProjectProfile(ctx, doc), policy);
      expectNarrowed(ctx, narrowingJudgement(specOf(doc), policy, session.effective), ['/permissions'], 'effective permissions');
    },
  };
}

const profileRuleCannotAllow: CaseDef = {
  id: 'L1-I3/profile-rule-cannot-allow-denied-shell',
  requirements: ['L1-I3'],
  clauses: ['L1-I3.permissions'],
  title: 'A profile rule allowing shell does not reopen a shell the policy denies',
  expectation: { permissions: { shell: { atMost: 'deny' } }, rules: 'no call to shell decided above deny' },
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
    // SPEC §3.5: rules "are themselves subject to the narrowing rule": judged call by call.
    expectNarrowed(
      ctx,
      narrowingJudgement(specOf(doc), policy, session.effective),
      ['/permissions/shell', '/rules'],
      'shell rules and decision',
    );
  },
};

// ---------------------------------------------------------------- tools vs grant

const GRANT = ['read', 'search', 'git/diff', 'git/log'];

function toolsWithinGrant(policyName: 'allowlist' | 'denylist' | 'inherit', tools: Record<string, unknown>): CaseDef {
  return {
    id: `L1-I3/tools-within-grant-${policyName}`,
    requirements: ['L1-I3'],
    clauses: ['L1-I3.tools'],
    title: `${policyName}: effective tools never include a tool the harness does not grant`,
    expectation: { toolsSubsetOf: GRANT },
    async run(ctx) {
      const doc = minimalProfile(`grant-${policyName}`, { tools: { policy: policyName, ...tools } });
      const policy = permissivePolicy({ tools: { available: [...STANDARD_TOOLS], grant: [...GRANT] } });
      const session = await instantiateSubject(ctx, writeProjectProfile(ctx, doc), policy);
      expectNarrowed(
        ctx,
        narrowingJudgement(specOf(doc), policy, session.effective),
        ['/tools'],
        'effective tools outside the harness grant',
      );
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
  clauses: ['L1-I3.filesystem-roots'],
  title: 'No path is readable or writable unless both the profile and the policy allow it; profile deny_paths stay denied',
  expectation: { probes: PROBE_PATHS, rule: 'allowed(effective) implies allowed(profile) && allowed(policy); stricter is allowed' },
  async run(ctx) {
    const profileFs = { read_roots: ['.', 'src/app', 'tests'], write_roots: ['src', 'vendor'], deny_paths: ['src/secrets'] };
    const policyFs = { read_roots: ['src', 'docs'], write_roots: ['src/gen'], allow_absolute: false };
    const doc = minimalProfile('roots-narrowed', { permissions: { filesystem: profileFs } });
    const policy = permissivePolicy({ filesystem: policyFs });
    const session = await instantiateSubject(ctx, writeProjectProfile(ctx, doc), policy);
    const probes = { paths: PROBE_PATHS, hosts: [] };
    expectNarrowed(ctx, narrowingJudgement(specOf(doc), policy, session.effective, { probes }), ['/filesystem'], 'filesystem roots');
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
  clauses: ['L1-I3.network-hosts'],
  title: 'No host is reachable unless both the profile and the policy allow it (exact and *.domain patterns)',
  expectation: { probes: PROBE_HOSTS, rule: 'allowed(effective) implies allowed(profile) && allowed(policy); stricter is allowed' },
  async run(ctx) {
    const profileHosts = ['api.example.com', 'evil.example.com', '*.example.org', 'cdn.example.net'];
    const policyHosts = ['api.example.com', 'docs.example.org', '*.example.net'];
    const doc = minimalProfile('hosts-narrowed', { permissions: { network: 'allow', allow_hosts: profileHosts } });
    const policy = permissivePolicy({ network: { allow_hosts: policyHosts } });
    const session = await instantiateSubject(ctx, writeProjectProfile(ctx, doc), policy);
    const probes = { paths: [], hosts: PROBE_HOSTS };
    expectNarrowed(ctx, narrowingJudgement(specOf(doc), policy, session.effective, { probes }), ['/hosts'], 'network hosts');
  },
};

// ---------------------------------------------------------------- memory

const memoryNarrowed: CaseDef = {
  id: 'L1-I3/memory-mode-and-scopes-intersected',
  requirements: ['L1-I3'],
  clauses: ['L1-I3.memory'],
  title: 'Memory mode is at most the lower of profile and policy; scopes stay within the intersection',
  expectation: { memory: { mode: { atMost: 'read_only' }, scopes: { within: ['project:acme'] } } },
  async run(ctx) {
    const doc = minimalProfile('memory-narrowed', { memory: { mode: 'read_write', scopes: ['project:acme', 'team:secret-ops'] } });
    const policy = permissivePolicy({
      memory: { ...base.memory, mode: 'read_only', scopes: ['project:acme', 'user:global'] },
    });
    const session = await instantiateSubject(ctx, writeProjectProfile(ctx, doc), policy);
    // Mode and scopes no wider than the intersection; no store above the policy's mode.
    expectNarrowed(ctx, narrowingJudgement(specOf(doc), policy, session.effective), ['/memory'], 'effective memory');
  },
};

// ---------------------------------------------------------------- budgets

const budgetsNarrowed: CaseDef = {
  id: 'L1-I3/budgets-take-the-smaller-limit',
  requirements: ['L1-I3'],
  clauses: ['L1-I3.budgets'],
  title: 'Turn, tool-call, time, cost and token budgets are at most the smaller of profile and policy',
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
    expectNarrowed(ctx, narrowingJudgement(specOf(doc), policy, session.effective), ['/budgets'], 'effective budgets');
  },
};

// ---------------------------------------------------------------- seeded sweep

const permissionSweep: CaseDef = {
  id: 'L1-I3/seeded-permission-sweep',
  requirements: ['L1-I3'],
  clauses: ['L1-I3.permissions'],
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
      expectNarrowed(ctx, narrowingJudgement(specOf(doc), policy, session.effective), ['/permissions'], `trial ${i}`);
    }
    ctx.note('trials', trials.length);
  },
};

// ---------------------------------------------------------------- issue 14: one category, one direction, one field

interface MinimalCase {
  slug: string;
  title: string;
  /** The profile's `spec` apart from its role: only the fields the check needs. */
  spec: Record<string, unknown>;
  policy: HarnessPolicyT;
  /** The dimensions judged (pointer labels of the spec model's differences). */
  judged: string[];
}

const allAllow = (patch: Partial<HarnessPolicyT['permissions']> = {}): HarnessPolicyT =>
  withPermissions({ default: 'allow', shell: 'allow', edit: 'allow', network: 'allow', rules: [], ...patch });

/** Budgets the harness policy sets in the budget cases (the rest unbounded). */
const POLICY_BUDGETS = { max_turns: 20, max_tool_calls: 100, timeout_seconds: 600, max_context_tokens: 64000, max_state_tokens: 1000 };

/** The L1-I3 clause each judged dimension observes. */
const JUDGED_CLAUSE: Record<string, ClauseId> = {
  '/permissions': 'L1-I3.permissions',
  '/hosts': 'L1-I3.network-hosts',
  '/memory/mode': 'L1-I3.memory',
  '/budgets': 'L1-I3.budgets',
};

function judgedClause(dimension: string): ClauseId {
  const clause = JUDGED_CLAUSE[dimension];
  if (!clause) throw new Error(`no L1-I3 clause for the dimension ${dimension}`);
  return clause;
}

const MINIMAL_CASES: MinimalCase[] = [
  ...(['shell', 'edit', 'network'] as const).map(
    (k): MinimalCase => ({
      slug: `profile-${k}-deny-alone`,
      title: `A profile whose permissions say only ${k}: deny gets ${k} deny under a policy that allows everything`,
      spec: { permissions: { [k]: 'deny' } },
      policy: allAllow(),
      judged: ['/permissions'],
    }),
  ),
  ...(['edit', 'network'] as const).map(
    (k): MinimalCase => ({
      slug: `policy-${k}-deny-caps-profile-allow`,
      title: `A profile asking ${k}: allow under a policy of ${k}: deny gets deny`,
      spec: { permissions: { [k]: 'allow' } },
      policy: allAllow({ [k]: 'deny' }),
      judged: ['/permissions'],
    }),
  ),
  {
    slug: 'profile-default-deny-caps-unset-categories',
    title: 'A profile whose permissions say only default: deny gets deny for shell, edit and network, which it leaves unset',
    spec: { permissions: { default: 'deny' } },
    policy: allAllow(),
    judged: ['/permissions'],
  },
  {
    slug: 'profile-hosts-alone-narrow-policy-hosts',
    title: 'A profile listing allow_hosts (and nothing else) reaches only those of its hosts the policy allows',
    spec: { permissions: { allow_hosts: ['api.example.com'] } },
    policy: permissivePolicy({ network: { allow_hosts: ['api.example.com', 'docs.example.org', '*.example.net'] } }),
    judged: ['/hosts'],
  },
  {
    slug: 'profile-memory-off-alone',
    title: 'A profile asking memory mode off gets off under a policy allowing read_write',
    spec: { memory: { mode: 'off' } },
    policy: permissivePolicy(),
    judged: ['/memory/mode'],
  },
  {
    slug: 'profile-memory-read-only-alone',
    title: 'A profile asking memory mode read_only gets read_only under a policy allowing read_write',
    spec: { memory: { mode: 'read_only' } },
    policy: permissivePolicy(),
    judged: ['/memory/mode'],
  },
  {
    slug: 'profile-timeout-alone-narrows-policy',
    title: 'A profile asking timeout_seconds 60 (and no other budget) gets 60 under a policy of 600',
    spec: { runtime: { timeout_seconds: 60 } },
    policy: permissivePolicy({ budgets: POLICY_BUDGETS }),
    judged: ['/budgets'],
  },
  {
    slug: 'profile-context-tokens-alone-narrow-policy',
    title: 'A profile asking max_context_tokens 8000 (and no other budget) gets 8000 under a policy of 64000',
    spec: { context: { budget: { max_context_tokens: 8000 } } },
    policy: permissivePolicy({ budgets: POLICY_BUDGETS }),
    judged: ['/budgets'],
  },
  // Zero and boundary limits: 0 is a limit of zero (INTERPRETATIONS.md#budgets), never "unlimited".
  {
    slug: 'budgets-profile-zero-is-a-limit',
    title: 'A profile asking 0 tool calls, 0 state tokens and 0 state bytes gets 0 of each (the policy allows more, or sets no bound)',
    spec: { runtime: { max_tool_calls: 0 }, context: { budget: { max_state_tokens: 0, max_state_bytes: 0 } } },
    policy: permissivePolicy({ budgets: POLICY_BUDGETS }),
    judged: ['/budgets'],
  },
  {
    slug: 'budgets-policy-zero-caps-every-budget',
    title: 'A policy of 0 for every budget gives 0 for every budget, whether the profile asks 1 (its schema minimum) or nothing',
    spec: { runtime: { max_turns: 1, timeout_seconds: 1 }, context: { budget: { max_context_tokens: 1, max_state_bytes: 1 } } },
    policy: permissivePolicy({
      budgets: {
        max_turns: 0,
        max_tool_calls: 0,
        timeout_seconds: 0,
        max_cost_usd: 0,
        max_context_tokens: 0,
        max_state_tokens: 0,
        max_state_bytes: 0,
      },
    }),
    judged: ['/budgets'],
  },
  {
    slug: 'budgets-at-one',
    title: 'A profile asking 1 of every integer budget gets 1 under a policy that allows more',
    spec: {
      runtime: { max_turns: 1, max_tool_calls: 1, timeout_seconds: 1 },
      context: { budget: { max_context_tokens: 1, max_state_tokens: 1, max_state_bytes: 1 } },
    },
    policy: permissivePolicy({ budgets: POLICY_BUDGETS }),
    judged: ['/budgets'],
  },
  {
    slug: 'budgets-at-their-maximum',
    title:
      'Budgets at their largest: max_state_bytes at its schema maximum 5000000, max_tool_calls 2^31 and max_context_tokens 2^53-1 (no schema maximum) never come back larger or unlimited',
    spec: {
      runtime: { max_tool_calls: 2 ** 31 },
      context: { budget: { max_context_tokens: Number.MAX_SAFE_INTEGER, max_state_bytes: 5_000_000 } },
    },
    policy: permissivePolicy({ budgets: { max_tool_calls: 2 ** 32 } }),
    judged: ['/budgets'],
  },
];

function minimalCase(c: MinimalCase): CaseDef {
  const doc = minimalProfile(`min-${c.slug}`, c.spec);
  return {
    id: `L1-I3/${c.slug}`,
    requirements: ['L1-I3'],
    clauses: c.judged.map(judgedClause),
    title: c.title,
    expectation: { atMost: expectedBounds(specOf(doc), c.policy), judged: c.judged },
    async run(ctx) {
      const session = await instantiateSubject(ctx, writeProjectProfile(ctx, doc), c.policy);
      const probes = c.judged.includes('/hosts') ? { probes: { paths: [], hosts: PROBE_HOSTS } } : {};
      expectNarrowed(ctx, narrowingJudgement(specOf(doc), c.policy, session.effective, probes), c.judged, c.title);
    },
  };
}

// ---------------------------------------------------------------- issue 14: filesystem roots that leave the workspace

/**
 * A profile root that leaves the workspace, by `..` or through a symlink the case lays out, is
 * never granted (SPEC 3.5 "Path traversal escaping the workspace MUST be rejected at resolve time";
 * security.md T6 "Resolve symlinks before the check"). Refusing the profile is the spec's way; a
 * session whose effective roots all stay inside the workspace, resolved on disk, is not more
 * permissive than the policy either, so only a root that physically reaches outside fails
 * (INTERPRETATIONS.md, L1-I3 filesystem traversal).
 */
interface TraversalCase {
  slug: string;
  title: string;
  filesystem: Partial<Record<'read_roots' | 'write_roots', string[]>>;
}

const TRAVERSALS: TraversalCase[] = [
  {
    slug: 'read-root-dotdot-never-reaches-outside',
    title: 'A read root docs/../../outside (.. climbing out past a real directory) is never granted',
    filesystem: { read_roots: ['docs/../../outside'] },
  },
  {
    slug: 'read-root-symlink-never-reaches-outside',
    title: 'A read root naming a symlink in the workspace that points outside it is never granted (symlinks resolved before the check)',
    filesystem: { read_roots: ['linked'] },
  },
  {
    slug: 'write-root-symlink-never-reaches-outside',
    title: 'A write root below a symlink that points outside the workspace is never granted',
    filesystem: { write_roots: ['linked/deeper'] },
  },
  {
    slug: 'read-root-dotdot-after-symlink-never-reaches-outside',
    title: 'A read root linked/.. (lexically the workspace; on disk the parent of the link target, outside it) is never granted',
    filesystem: { read_roots: ['linked/..'] },
  },
];

/** workspace/docs/guide.md inside; <case>/outside/sub/notes.md outside; workspace/linked -> outside/sub. */
function layOutTraversal(ctx: CaseContext): void {
  ctx.workspace.writeFile(join(ctx.workspace.dir, 'docs', 'guide.md'), '# Guide\n');
  ctx.workspace.writeFile(join(ctx.workspace.root, 'outside', 'sub', 'notes.md'), 'not for the agent\n');
  symlinkSync(join(ctx.workspace.root, 'outside', 'sub'), join(ctx.workspace.dir, 'linked'), 'dir');
}

function traversalCase(t: TraversalCase): CaseDef {
  return {
    id: `L1-I3/${t.slug}`,
    requirements: ['L1-I3'],
    clauses: ['L1-I3.filesystem-roots'],
    title: t.title,
    expectation: {
      profile: t.filesystem,
      outcome: 'rejected, or every effective root inside the workspace on disk and within the request',
    },
    async run(ctx) {
      layOutTraversal(ctx);
      const policy = permissivePolicy();
      // The control asks for a root inside the workspace in the same fields: roots must be supported at all.
      const fields = Object.keys(t.filesystem) as Array<'read_roots' | 'write_roots'>;
      const control = minimalProfile('roots-inside', { permissions: { filesystem: Object.fromEntries(fields.map((f) => [f, ['docs']])) } });
      await instantiateSubject(ctx, writeProjectProfile(ctx, control), policy, { role: 'control' });
      const doc = minimalProfile('roots-escape', { permissions: { filesystem: t.filesystem } });
      const out = await instantiatePath(ctx, writeProjectProfile(ctx, doc), policy);
      if (out.status === 'rejected') {
        ctx.note('outcome', { status: 'rejected', errors: briefIssues(out.errors) });
        return;
      }
      const fs = out.effective.filesystem;
      const onDisk = (roots: readonly string[]): string[] => roots.map((r) => physicalRoot(ctx.workspace.dir, r));
      const effective = { ...out.effective, filesystem: { ...fs, read_roots: onDisk(fs.read_roots), write_roots: onDisk(fs.write_roots) } };
      ctx.note('outcome', { status: 'instantiated', roots: fs, on_disk: effective.filesystem });
      const findings = narrowingJudgement(specOf(doc), policy, effective, { workspace: realpathSync(ctx.workspace.dir) });
      expectNarrowed(ctx, findings, ['/filesystem'], `${t.title}: the session's roots on disk`);
    },
  };
}

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
  ...MINIMAL_CASES.map(minimalCase),
  ...TRAVERSALS.map(traversalCase),
];

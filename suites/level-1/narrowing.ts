/**
 * L1-I3: the narrowing rule (SPEC §7.2, security.md T1). For every dimension the effective value
 * is the more restrictive of profile and policy: never more permissive than local policy alone,
 * and never more than the profile asked for.
 *
 * Tools are judged here only against the harness grant (effective ⊆ granted); which subset the
 * profile's policy selects is L1-I2's question. Whether the narrowing was recorded is L1-I9's.
 * Roots, hosts and scopes are judged by meaning over probe paths/hosts, not by spelling.
 */
import type { HarnessPolicyT } from '../../adapters/protocol/messages.js';
import { expectEqual, expectTrue, fail } from '../framework/assert.js';
import { minimalProfile, permissivePolicy, STANDARD_TOOLS } from '../framework/policy.js';
import type { CaseDef } from '../framework/types.js';
import {
  hostAllowed,
  minDecision,
  minLimit,
  minMemoryMode,
  morePermissive,
  pathAllowed,
  toolMatches,
  type DecisionName,
} from './policy-semantics.js';
import { instantiateSubject, writeProjectProfile } from './support.js';
import { mulberry32 } from '../framework/random.js';

const base = permissivePolicy();

function withPermissions(permissions: HarnessPolicyT['permissions']): HarnessPolicyT {
  return permissivePolicy({ permissions });
}

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
    expectEqual(session.effective.permissions.shell, 'deny', 'effective shell decision');
  },
};

interface PermissionCase {
  slug: string;
  title: string;
  profile: Partial<Record<'default' | 'shell' | 'edit' | 'network', DecisionName>>;
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

/** The policy's decision for a category: its own value, else its default. */
function policyDecision(p: HarnessPolicyT['permissions'], k: 'default' | 'shell' | 'edit' | 'network'): DecisionName {
  return (k === 'default' ? p.default : (p[k] ?? p.default)) as DecisionName;
}

function permissionCase(c: PermissionCase): CaseDef {
  const keys = ['default', 'shell', 'edit', 'network'] as const;
  const expected = Object.fromEntries(keys.map((k) => [k, minDecision(c.profile[k] ?? 'allow', policyDecision(c.policy, k))]));
  return {
    id: `L1-I3/${c.slug}`,
    requirements: ['L1-I3'],
    title: c.title,
    expectation: { permissions: expected },
    async run(ctx) {
      const doc = minimalProfile(`perm-${c.slug}`, { permissions: c.profile });
      const session = await instantiateSubject(ctx, writeProjectProfile(ctx, doc), withPermissions(c.policy));
      const observed = session.effective.permissions;
      expectEqual(
        { default: observed.default, shell: observed.shell, edit: observed.edit, network: observed.network },
        expected,
        'effective permissions',
      );
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
    expectEqual(session.effective.permissions.shell, 'deny', 'effective shell decision');
    const reopening = session.effective.rules.filter((r) => toolMatches(r.tool, 'shell') && r.decision !== 'deny');
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
      const beyond = session.effective.tools.filter((t) => !GRANT.includes(t));
      expectEqual(beyond, [], 'effective tools outside the harness grant');
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
    const session = await instantiateSubject(ctx, writeProjectProfile(ctx, doc), permissivePolicy({ filesystem: policyFs }));
    const eff = session.effective.filesystem;
    for (const mode of ['read_roots', 'write_roots'] as const) {
      for (const p of PROBE_PATHS) {
        const want = pathAllowed(profileFs[mode], profileFs.deny_paths, p) && pathAllowed(policyFs[mode], [], p);
        const got = pathAllowed(eff[mode], eff.deny_paths, p);
        if (want !== got) {
          fail(
            `${mode}: ${p} is ${got ? 'allowed' : 'denied'} by the effective contract`,
            { path: p, allowed: want },
            { path: p, allowed: got, [mode]: eff[mode], deny_paths: eff.deny_paths },
          );
        }
      }
    }
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
    const session = await instantiateSubject(
      ctx,
      writeProjectProfile(ctx, doc),
      permissivePolicy({ network: { allow_hosts: policyHosts } }),
    );
    const eff = session.effective.hosts;
    for (const h of PROBE_HOSTS) {
      const want = hostAllowed(profileHosts, h) && hostAllowed(policyHosts, h);
      const got = hostAllowed(eff, h);
      if (want !== got)
        fail(
          `host ${h} is ${got ? 'reachable' : 'unreachable'} in the effective contract`,
          { host: h, allowed: want },
          { host: h, allowed: got, hosts: eff },
        );
    }
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
    const eff = session.effective.memory;
    expectEqual(eff.mode, minMemoryMode('read_write', 'read_only'), 'effective memory mode');
    expectEqual([...eff.scopes].sort(), ['project:acme'], 'effective memory scopes');
    // A store's mode can never exceed the section ceiling.
    for (const s of eff.stores) {
      expectTrue(s.mode !== 'read_write', `store ${s.name} mode within the read_only ceiling`, {
        expected: 'off|read_only',
        observed: s.mode,
      });
    }
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
    const session = await instantiateSubject(ctx, writeProjectProfile(ctx, doc), permissivePolicy({ budgets: policyBudgets }));
    const eff = session.effective.budgets;
    const expected = {
      max_turns: minLimit(runtime.max_turns, policyBudgets.max_turns),
      max_tool_calls: minLimit(runtime.max_tool_calls, policyBudgets.max_tool_calls),
      timeout_seconds: minLimit(undefined, policyBudgets.timeout_seconds),
      max_cost_usd: minLimit(runtime.max_cost_usd, policyBudgets.max_cost_usd),
      max_context_tokens: minLimit(budget.max_context_tokens, policyBudgets.max_context_tokens),
      max_state_tokens: minLimit(budget.max_state_tokens, policyBudgets.max_state_tokens),
    };
    const observed = {
      max_turns: eff.max_turns,
      max_tool_calls: eff.max_tool_calls,
      timeout_seconds: eff.timeout_seconds,
      max_cost_usd: eff.max_cost_usd,
      max_context_tokens: eff.max_context_tokens,
      max_state_tokens: eff.max_state_tokens,
    };
    expectEqual(observed, expected, 'effective budgets');
  },
};

// ---------------------------------------------------------------- seeded sweep

const DECISIONS: DecisionName[] = ['deny', 'ask', 'allow'];

const permissionSweep: CaseDef = {
  id: 'L1-I3/seeded-permission-sweep',
  requirements: ['L1-I3'],
  title: 'For 12 seeded profile/policy permission pairs, no effective decision exceeds the policy or the profile',
  expectation: { rule: 'effective[k] <= policy[k] (else policy default) and <= profile[k] (else profile default)' },
  async run(ctx) {
    const rand = mulberry32(ctx.seed);
    const pick = (): DecisionName => DECISIONS[Math.floor(rand() * 3)] as DecisionName;
    const maybe = (): DecisionName | undefined => (rand() < 0.3 ? undefined : pick());
    const keys = ['shell', 'edit', 'network'] as const;
    const trials: unknown[] = [];
    for (let i = 0; i < 12; i++) {
      const profile: Partial<Record<'default' | (typeof keys)[number], DecisionName>> = {};
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
      const session = await instantiateSubject(ctx, writeProjectProfile(ctx, doc), withPermissions(policyPerms));
      const eff = session.effective.permissions;
      trials.push({ profile, policy: policyPerms, effective: eff });
      const profileDefault = profile.default ?? 'allow';
      const checks: Array<[string, DecisionName, DecisionName]> = [
        ['default', eff.default, minDecision(profileDefault, policyPerms.default as DecisionName)],
      ];
      for (const k of keys) checks.push([k, eff[k], minDecision(profile[k] ?? profileDefault, policyDecision(policyPerms, k))]);
      for (const [k, got, ceiling] of checks) {
        if (morePermissive(got, ceiling)) {
          fail(
            `trial ${i}: effective ${k} is ${got}, more than the ceiling ${ceiling}`,
            { [k]: ceiling, profile, policy: policyPerms },
            { [k]: got },
          );
        }
      }
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

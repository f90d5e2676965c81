/**
 * L1-I9: every field dropped, narrowed or substituted is recorded with a reason (SPEC §5.3,
 * security.md T5), including the recording half of behavioural test 1.
 *
 * The case does not decide what should have been narrowed: it compares the OBSERVED effective
 * contract with the profile's request and demands one adjustment for each observed difference.
 * So a narrowing defect (L1-I3) or a model-rule defect (L1-I12) changes which differences exist,
 * never whether this case fails. When nothing differs at all there is nothing to judge, and the
 * case is not applicable.
 *
 * Coverage rule: an adjustment covers a field when its pointer is the field's pointer, lies below
 * it, or is its direct parent (but never the whole document or the whole of /spec).
 */
import type { AdjustmentT, HarnessPolicyT, InstantiatedT } from '../../protocol/messages.js';
import { hostsAllowed, pathAllowed } from '../../spec/semantics/index.js';
import { fail } from '../kit/assert.js';
import type { CaseContext, CaseDef } from '../kit/types.js';
import { pointerCovers } from './support.js';
import {
  STANDARD_TOOLS,
  inconclusive,
  instantiateSubject,
  minimalProfile,
  permissivePolicy,
  writeProjectProfile,
} from '../support/index.js';

interface Difference {
  field: string;
  requested: unknown;
  effective: unknown;
}

function judge(ctx: CaseContext, session: InstantiatedT, differences: Difference[]): void {
  ctx.note(
    'observed-differences',
    differences.map((d) => d.field),
  );
  ctx.note(
    'adjustments',
    session.adjustments.map((a) => ({ pointer: a.pointer, action: a.action })),
  );
  if (differences.length === 0) {
    inconclusive(
      'the effective contract equals the request everywhere; nothing was narrowed, so there is nothing to record (L1-I3 judges that)',
      'no field of the effective contract differs from the request',
    );
  }
  const covers = (a: AdjustmentT, field: string): boolean => pointerCovers(a.pointer, field) && a.reason.trim().length > 0;
  const missing = differences.filter((d) => !session.adjustments.some((a) => covers(a, d.field)));
  if (missing.length > 0) {
    fail(
      `no adjustment with a reason records ${missing.map((d) => d.field).join(', ')}`,
      missing.map((d) => ({ pointer: d.field, reason: '(non-empty)' })),
      { adjustments: session.adjustments.map((a) => ({ pointer: a.pointer, action: a.action, reason: a.reason })), differences: missing },
    );
  }
}

const shellDropRecorded: CaseDef = {
  id: 'L1-I9/shell-narrowing-recorded',
  requirements: ['L1-I9'],
  clauses: ['L1-I9.narrowed'],
  title: 'Behavioural test 1, recording half: when shell: allow is narrowed under a deny policy, the narrowing is recorded',
  expectation: { adjustmentCovering: '/spec/permissions/shell', when: 'effective shell differs from allow' },
  async run(ctx) {
    const doc = minimalProfile('shell-recorded', { permissions: { shell: 'allow' } });
    const policy = permissivePolicy({ permissions: { default: 'allow', shell: 'deny', edit: 'allow', network: 'allow', rules: [] } });
    const session = await instantiateSubject(ctx, writeProjectProfile(ctx, doc), policy);
    const eff = session.effective.permissions.shell;
    judge(ctx, session, eff === 'allow' ? [] : [{ field: '/spec/permissions/shell', requested: 'allow', effective: eff }]);
  },
};

/**
 * One dimension per case, each with a profile that asks only for that dimension and a policy that
 * narrows only it, so that a field the harness does not support costs one case, not all of them.
 * `observe` returns the differences the observed effective contract shows from the request.
 */
interface Dimension {
  slug: string;
  /** What the harness does to the field: narrow it (a value or a list within the policy) or substitute it (the model). */
  clause: 'L1-I9.narrowed' | 'L1-I9.substituted';
  title: string;
  spec: Record<string, unknown>;
  policy: Partial<HarnessPolicyT>;
  field: string;
  observe(eff: InstantiatedT['effective']): Difference[];
}

const REQUESTED_TOOLS = ['read', 'search', 'shell', 'web/fetch'];
const REQUESTED_HOSTS = ['api.example.com', 'uploads.evil.example'];
const REQUESTED_READ_ROOTS = ['src', 'infra'];
const REQUESTED_SCOPES = ['project:acme', 'team:ops'];
const base = permissivePolicy();

const DIMENSIONS: Dimension[] = [
  {
    slug: 'tools',
    clause: 'L1-I9.narrowed',
    title: 'Requested tools the harness does not grant',
    spec: { tools: { policy: 'allowlist', allow: REQUESTED_TOOLS } },
    policy: { tools: { available: [...STANDARD_TOOLS], grant: ['read', 'search', 'edit'] } },
    field: '/spec/tools/allow',
    observe: (eff) => {
      const missing = REQUESTED_TOOLS.filter((t) => !eff.tools.includes(t));
      return missing.length ? [{ field: '/spec/tools/allow', requested: REQUESTED_TOOLS, effective: eff.tools }] : [];
    },
  },
  {
    slug: 'network-permission',
    clause: 'L1-I9.narrowed',
    title: 'A network permission above the policy',
    spec: { permissions: { network: 'allow' } },
    policy: { permissions: { default: 'allow', shell: 'allow', edit: 'allow', network: 'ask', rules: [] } },
    field: '/spec/permissions/network',
    observe: (eff) =>
      eff.permissions.network !== 'allow'
        ? [{ field: '/spec/permissions/network', requested: 'allow', effective: eff.permissions.network }]
        : [],
  },
  {
    slug: 'hosts',
    clause: 'L1-I9.narrowed',
    title: 'Requested hosts the policy does not allow',
    spec: { permissions: { allow_hosts: REQUESTED_HOSTS } },
    policy: { network: { allow_hosts: ['api.example.com'] } },
    field: '/spec/permissions/allow_hosts',
    observe: (eff) =>
      REQUESTED_HOSTS.some((h) => !hostsAllowed(eff.hosts, h))
        ? [{ field: '/spec/permissions/allow_hosts', requested: REQUESTED_HOSTS, effective: eff.hosts }]
        : [],
  },
  {
    slug: 'read-roots',
    clause: 'L1-I9.narrowed',
    title: 'Requested read roots beyond the policy',
    spec: { permissions: { filesystem: { read_roots: REQUESTED_READ_ROOTS } } },
    policy: { filesystem: { read_roots: ['src'], write_roots: ['src'], allow_absolute: false } },
    field: '/spec/permissions/filesystem/read_roots',
    observe: (eff) =>
      REQUESTED_READ_ROOTS.some((r) => !pathAllowed(eff.filesystem.read_roots, eff.filesystem.deny_paths, `${r}/probe.txt`))
        ? [{ field: '/spec/permissions/filesystem/read_roots', requested: REQUESTED_READ_ROOTS, effective: eff.filesystem.read_roots }]
        : [],
  },
  {
    slug: 'memory-mode',
    clause: 'L1-I9.narrowed',
    title: 'A memory mode above the policy',
    spec: { memory: { mode: 'read_write' } },
    policy: { memory: { ...base.memory, mode: 'read_only' } },
    field: '/spec/memory/mode',
    observe: (eff) =>
      eff.memory.mode !== 'read_write' ? [{ field: '/spec/memory/mode', requested: 'read_write', effective: eff.memory.mode }] : [],
  },
  {
    slug: 'memory-scopes',
    clause: 'L1-I9.narrowed',
    title: 'Requested memory scopes the policy does not permit',
    spec: { memory: { scopes: REQUESTED_SCOPES } },
    policy: { memory: { ...base.memory, scopes: ['project:acme'] } },
    field: '/spec/memory/scopes',
    observe: (eff) =>
      REQUESTED_SCOPES.some((x) => !eff.memory.scopes.includes(x))
        ? [{ field: '/spec/memory/scopes', requested: REQUESTED_SCOPES, effective: eff.memory.scopes }]
        : [],
  },
  {
    slug: 'budget',
    clause: 'L1-I9.narrowed',
    title: 'A turn budget above the policy',
    spec: { runtime: { max_turns: 50 } },
    policy: { budgets: { max_turns: 20 } },
    field: '/spec/runtime/max_turns',
    observe: (eff) =>
      eff.budgets.max_turns !== 50 ? [{ field: '/spec/runtime/max_turns', requested: 50, effective: eff.budgets.max_turns }] : [],
  },
  {
    slug: 'model',
    clause: 'L1-I9.substituted',
    title: 'A model the harness cannot serve (substituted)',
    spec: { model: { provider: 'acme', id: 'acme-9', tier: 'advanced' } },
    policy: {},
    field: '/spec/model',
    observe: (eff) =>
      eff.model.provider !== 'acme' || eff.model.id !== 'acme-9'
        ? [{ field: '/spec/model', requested: 'acme/acme-9', effective: `${eff.model.provider}/${eff.model.id}` }]
        : [],
  },
];

function dimensionCase(d: Dimension): CaseDef {
  return {
    id: `L1-I9/${d.slug}-difference-recorded`,
    requirements: ['L1-I9'],
    clauses: [d.clause],
    title: `${d.title}: when the effective value differs from the request, an adjustment with a reason records it`,
    expectation: { adjustmentCovering: d.field, when: 'the effective value differs from the request' },
    async run(ctx) {
      const doc = minimalProfile(`recorded-${d.slug}`, d.spec);
      const session = await instantiateSubject(ctx, writeProjectProfile(ctx, doc), permissivePolicy(d.policy));
      judge(ctx, session, d.observe(session.effective));
    },
  };
}

const optionalSkillDropped: CaseDef = {
  id: 'L1-I9/missing-optional-skill-recorded',
  requirements: ['L1-I9'],
  clauses: ['L1-I9.dropped'],
  title: 'An optional skill that is not installed: running without it is recorded',
  expectation: { rule: 'a skill not present in the session has an adjustment covering its entry' },
  async run(ctx) {
    const doc = minimalProfile('optional-skill', { tools: { skills: [{ name: 'pdf-forms', required: false }] } });
    const session = await instantiateSubject(ctx, writeProjectProfile(ctx, doc), permissivePolicy({ skills: [] }));
    const skill = session.effective.skills.find((x) => x.name === 'pdf-forms');
    judge(
      ctx,
      session,
      !skill || skill.status === 'missing' ? [{ field: '/spec/tools/skills/0', requested: 'pdf-forms', effective: skill ?? null }] : [],
    );
  },
};

const optionalStoreDropped: CaseDef = {
  id: 'L1-I9/unreachable-optional-store-recorded',
  requirements: ['L1-I9'],
  clauses: ['L1-I9.dropped'],
  title: 'An optional memory store that cannot be reached: running without it is recorded',
  expectation: { rule: 'a store not in the session has an adjustment covering its entry' },
  async run(ctx) {
    const doc = minimalProfile('optional-store', { memory: { stores: [{ name: 'team-index', kind: 'vector', required: false }] } });
    const policy = permissivePolicy({
      memory: { ...base.memory, store_kinds: ['oap-state', 'vector'], stores: [{ name: 'team-index', kind: 'vector', reachable: false }] },
    });
    const session = await instantiateSubject(ctx, writeProjectProfile(ctx, doc), policy);
    const kept = session.effective.memory.stores.some((x) => x.name === 'team-index' && x.mode !== 'off');
    judge(
      ctx,
      session,
      kept ? [] : [{ field: '/spec/memory/stores/0', requested: 'team-index', effective: session.effective.memory.stores }],
    );
  },
};

export const adjustmentCases: CaseDef[] = [shellDropRecorded, ...DIMENSIONS.map(dimensionCase), optionalSkillDropped, optionalStoreDropped];

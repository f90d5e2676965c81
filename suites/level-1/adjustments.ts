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
import type { AdjustmentT, HarnessPolicyT, InstantiatedT } from '../../adapters/protocol/messages.js';
import { hostsAllowed, pathAllowed } from '../../spec/semantics/index.js';
import { fail } from '../framework/assert.js';
import type { CaseContext, CaseDef } from '../framework/types.js';
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

const REQUESTED_TOOLS = ['read', 'search', 'shell', 'web/fetch'];
const REQUESTED_HOSTS = ['api.example.com', 'uploads.evil.example'];
const REQUESTED_READ_ROOTS = ['src', 'infra'];
const REQUESTED_SCOPES = ['project:acme', 'team:ops'];

const everyDimensionRecorded: CaseDef = {
  id: 'L1-I9/every-observed-difference-recorded',
  requirements: ['L1-I9'],
  title: 'Tools, permissions, hosts, roots, memory, budgets and model: each observed difference from the request has an adjustment',
  expectation: { rule: 'for each field where effective != requested, an adjustment covering that field with a reason' },
  async run(ctx) {
    const doc = minimalProfile('everything-recorded', {
      model: { provider: 'acme', id: 'acme-9', tier: 'advanced' },
      tools: { policy: 'allowlist', allow: REQUESTED_TOOLS },
      permissions: {
        shell: 'allow',
        network: 'allow',
        allow_hosts: REQUESTED_HOSTS,
        filesystem: { read_roots: REQUESTED_READ_ROOTS },
      },
      memory: { mode: 'read_write', scopes: REQUESTED_SCOPES },
      runtime: { max_turns: 50 },
    });
    const policy: HarnessPolicyT = permissivePolicy({
      tools: { available: [...STANDARD_TOOLS], grant: ['read', 'search', 'edit'] },
      permissions: { default: 'allow', shell: 'deny', edit: 'allow', network: 'ask', rules: [] },
      network: { allow_hosts: ['api.example.com'] },
      filesystem: { read_roots: ['src'], write_roots: ['src'], allow_absolute: false },
      memory: { mode: 'read_only', scopes: ['project:acme'], store_kinds: ['oap-state'], stores: [] },
      budgets: { max_turns: 20 },
    });
    const session = await instantiateSubject(ctx, writeProjectProfile(ctx, doc), policy);
    const eff = session.effective;
    const differences: Difference[] = [];
    const missingTools = REQUESTED_TOOLS.filter((t) => !eff.tools.includes(t));
    if (missingTools.length) differences.push({ field: '/spec/tools/allow', requested: REQUESTED_TOOLS, effective: eff.tools });
    for (const k of ['shell', 'network'] as const) {
      if (eff.permissions[k] !== 'allow')
        differences.push({ field: `/spec/permissions/${k}`, requested: 'allow', effective: eff.permissions[k] });
    }
    if (REQUESTED_HOSTS.some((h) => !hostsAllowed(eff.hosts, h)))
      differences.push({ field: '/spec/permissions/allow_hosts', requested: REQUESTED_HOSTS, effective: eff.hosts });
    if (REQUESTED_READ_ROOTS.some((r) => !pathAllowed(eff.filesystem.read_roots, eff.filesystem.deny_paths, `${r}/probe.txt`))) {
      differences.push({
        field: '/spec/permissions/filesystem/read_roots',
        requested: REQUESTED_READ_ROOTS,
        effective: eff.filesystem.read_roots,
      });
    }
    if (eff.memory.mode !== 'read_write')
      differences.push({ field: '/spec/memory/mode', requested: 'read_write', effective: eff.memory.mode });
    if (REQUESTED_SCOPES.some((s) => !eff.memory.scopes.includes(s)))
      differences.push({ field: '/spec/memory/scopes', requested: REQUESTED_SCOPES, effective: eff.memory.scopes });
    if (eff.budgets.max_turns !== 50)
      differences.push({ field: '/spec/runtime/max_turns', requested: 50, effective: eff.budgets.max_turns });
    if (eff.model.provider !== 'acme' || eff.model.id !== 'acme-9')
      differences.push({ field: '/spec/model', requested: 'acme/acme-9', effective: `${eff.model.provider}/${eff.model.id}` });
    judge(ctx, session, differences);
  },
};

const optionalDependenciesDropped: CaseDef = {
  id: 'L1-I9/missing-optional-dependencies-recorded',
  requirements: ['L1-I9'],
  title: 'An optional skill that is not installed and an optional store that is unreachable: running without them is recorded',
  expectation: { rule: 'a skill or store not present in the session has an adjustment covering its entry' },
  async run(ctx) {
    const doc = minimalProfile('optional-deps', {
      tools: { skills: [{ name: 'pdf-forms', required: false }] },
      memory: { mode: 'read_only', stores: [{ name: 'team-index', kind: 'vector', required: false }] },
    });
    const policy = permissivePolicy({
      skills: [],
      memory: {
        mode: 'read_write',
        scopes: [],
        store_kinds: ['oap-state', 'vector'],
        stores: [{ name: 'team-index', kind: 'vector', reachable: false }],
      },
    });
    const session = await instantiateSubject(ctx, writeProjectProfile(ctx, doc), policy);
    const eff = session.effective;
    const differences: Difference[] = [];
    const skill = eff.skills.find((s) => s.name === 'pdf-forms');
    if (!skill || skill.status === 'missing')
      differences.push({ field: '/spec/tools/skills/0', requested: 'pdf-forms', effective: skill ?? null });
    if (!eff.memory.stores.some((s) => s.name === 'team-index' && s.mode !== 'off')) {
      differences.push({ field: '/spec/memory/stores/0', requested: 'team-index', effective: eff.memory.stores });
    }
    judge(ctx, session, differences);
  },
};

export const adjustmentCases: CaseDef[] = [shellDropRecorded, everyDimensionRecorded, optionalDependenciesDropped];

/** The reference's rules for narrowing a profile against a ceiling (SPEC §7.2, §3.3, §3.4, §3.7), the session record and delegation (§3.8, §5.4). */
import type { AdapterIssueT, AdjustmentT } from '../../../protocol/messages.js';
import {
  DEFAULT_TOOL_POLICY,
  effectiveDecision,
  effectiveMemoryMode,
  effectiveScopes,
  type Intersection,
  intersectHosts,
  intersectRoots,
  matchesAny,
  minBudget,
  policyDecision,
  PROVIDER_DEPENDENT_PARAMETERS,
  profileBudgets,
  recommendedLaunch,
  resolveModel,
  ruleReason,
  serverOffers,
  storeModeCap,
  type ToolPolicy,
  toolTable,
} from '../../../spec/semantics/index.js';
import { ceilingFromParent } from '../ceiling.js';
import { adapterIssue } from '../issues.js';
import { containPath } from '../paths.js';
import type { Granted, RootKey, Rules } from '../rules.js';

type NarrowingRules = Pick<
  Rules,
  | 'policyDecision'
  | 'policyGrants'
  | 'grantRoots'
  | 'containRoot'
  | 'intersectRoots'
  | 'intersectHosts'
  | 'requestedPermissions'
  | 'permissionDecision'
  | 'extendedContract'
  | 'toolPolicy'
  | 'selectTools'
  | 'serverOffersTool'
  | 'mcpLaunch'
  | 'mcpTransport'
  | 'memoryMode'
  | 'memoryScopes'
  | 'storeMode'
  | 'requestedBudgets'
  | 'budget'
  | 'modelChoice'
  | 'modelAdjustment'
  | 'modelParameters'
  | 'reportedModelRule'
  | 'stateAuthority'
  | 'sessionName'
  | 'sessionRevision'
  | 'sessionSpecDigest'
  | 'recordedAdjustments'
  | 'delegationAllowList'
  | 'delegationAllowed'
  | 'exceedsDelegationDepth'
  | 'delegationConcurrencyAllowed'
  | 'subagentCeiling'
  | 'describedContract'
  | 'sessionEndFootprint'
>;

/** The spec model's intersection as the adjustments a session records, at `pointer/<index>`. */
function recorded(intersection: Intersection, pointer: string): Granted<string[]> {
  const adjustments = intersection.adjustments.map(
    (a): AdjustmentT =>
      a.action === 'narrowed'
        ? { pointer: `${pointer}/${a.index}`, action: 'narrowed', reason: a.reason, requested: a.requested, effective: a.effective }
        : { pointer: `${pointer}/${a.index}`, action: 'dropped', reason: a.reason, requested: a.requested },
  );
  return { value: intersection.value, adjustments };
}

export const narrowingRules: NarrowingRules = {
  policyDecision: (permissions, key) => policyDecision(permissions, key),
  // The protocol's format: glob.ts's dialect is normative for the policy's grant globs.
  policyGrants: (grant, tool) => matchesAny(grant, tool),

  grantRoots(request, limits, ctx, rules) {
    // Findings in the profile's own file (`..`, absolute, encoded) refuse it; then every root must
    // lie inside the workspace on disk (SPEC §3.5, security.md T6); then it is narrowed.
    if (request.findings.length > 0) return { errors: [...request.findings] };
    const errors: AdapterIssueT[] = [];
    const contained = (key: RootKey): string[] | undefined =>
      request[key]?.flatMap((p, i) => {
        const r = rules.containRoot(String(p), ctx);
        if (r.ok) return [r.relative];
        errors.push(adapterIssue('path-escape', `/spec/permissions/filesystem/${key}/${i}`, `${String(p)}: ${r.reason}`, ctx.profilePath));
        return [];
      });
    const read = contained('read_roots');
    const write = contained('write_roots');
    if (errors.length > 0) return { errors };
    const r = rules.intersectRoots(read, limits.read_roots, { key: 'read_roots', origin: ctx.origin });
    const w = rules.intersectRoots(write, limits.write_roots, { key: 'write_roots', origin: ctx.origin });
    return { read_roots: r.value, write_roots: w.value, adjustments: [...r.adjustments, ...w.adjustments] };
  },

  containRoot: (root, ctx) => containPath(ctx.workspace, root, ctx.allowAbsolute),
  intersectRoots: (requested, limit, ctx) => recorded(intersectRoots(requested, limit), `/spec/permissions/filesystem/${ctx.key}`),
  intersectHosts: (allowHosts, limit) => recorded(intersectHosts(allowHosts, limit), '/spec/permissions/allow_hosts'),

  requestedPermissions: (stated) => stated,
  permissionDecision: (request, ceiling, key) => effectiveDecision(request, ceiling, key).value,
  extendedContract: (effective) => effective,
  toolPolicy: (stated) => (stated as ToolPolicy | undefined) ?? DEFAULT_TOOL_POLICY,

  selectTools({ policy, allow, deny }, { granted }) {
    const ignored: Array<'allow' | 'deny'> =
      policy !== 'inherit' ? [] : [...(allow.length > 0 ? ['allow' as const] : []), ...(deny.length > 0 ? ['deny' as const] : [])];
    return { value: toolTable({ policy, allow, deny }, granted).value, ignored };
  },

  // The spec model's reading of a server's own allow/deny (spec/semantics/mcp.ts), for the server `full` names.
  serverOffersTool: (filters, tool, full) => serverOffers({ name: full.split('/')[1] ?? '', ...filters }, tool),

  // Of the launches the policy allows, the one SPEC §7.3 recommends for the profile's trust.
  mcpLaunch: (trust, autoLaunch) => recommendedLaunch(trust, autoLaunch),
  mcpTransport: (declared) => (declared === 'http' ? 'http' : 'stdio'),
  memoryMode: (requested, ceiling) => effectiveMemoryMode(requested, ceiling).value,
  memoryScopes: (requested, ceiling) => effectiveScopes(requested, ceiling).value,
  storeMode: (requested, { sectionMode }) => storeModeCap(requested, sectionMode),
  requestedBudgets: (spec) => profileBudgets(spec),
  budget: (requested, limit) => minBudget(requested, limit),
  modelChoice: (request, models) => resolveModel(request, models).value,

  modelAdjustment(request, choice) {
    if (choice.rule === 1 || !request) return undefined;
    const { provider, id, tier } = request;
    const requested = provider && id ? { provider, id } : tier ? { tier } : undefined;
    return {
      pointer: '/spec/model',
      action: 'substituted',
      reason: ruleReason(choice.rule),
      ...(requested ? { requested } : {}),
      effective: { provider: choice.provider, id: choice.id },
    };
  },

  // The reference calls no provider. It takes its models to support the sampling parameters every
  // provider has, and not the two SPEC §3.3 names as provider-dependent, which it drops with a warning.
  modelParameters: (parameters, { model, profilePath }) => ({
    warnings: PROVIDER_DEPENDENT_PARAMETERS.filter((key) => Object.hasOwn(parameters, key)).map((key) =>
      adapterIssue(
        'other',
        `/spec/model/parameters/${key}`,
        `${model.provider}/${model.id} does not support ${key}; the parameter is dropped`,
        profilePath,
      ),
    ),
  }),

  reportedModelRule: (choice) => choice.rule,
  stateAuthority: (_state, effective) => effective,
  sessionName: (metadata) => String(metadata['name']),
  sessionRevision: (metadata) => (typeof metadata['revision'] === 'number' ? metadata['revision'] : 1),
  sessionSpecDigest: ({ digests }) => digests.spec_digest,
  recordedAdjustments: (all) => all,

  delegationAllowList: (lists) => lists[0] ?? [],
  delegationAllowed: (name, allow) => allow.includes(name),
  exceedsDelegationDepth: (levels, maxDepth) => levels > maxDepth,
  delegationConcurrencyAllowed: (live, maxConcurrent) => live < maxConcurrent,
  // Delegation never escalates: the child's ceiling is the parent's effective contract (L3-B1).
  subagentCeiling: ({ effective }) => ceilingFromParent(effective),
  describedContract: (held) => held,
  sessionEndFootprint: async () => undefined,
};

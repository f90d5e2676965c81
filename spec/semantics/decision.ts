/**
 * Permission decisions and their order (SPEC §3.5, security.md T1).
 *
 * Reading (INTERPRETATIONS.md#decisions): "The ordering used for
 * intersection is `deny` < `ask` < `allow`; the effective decision is the minimum of the two"
 * (SPEC §3.5). A category the harness policy leaves unset is decided by the policy's `default`
 * (the protocol's policy format, protocol/PROTOCOL.md). A category the profile leaves unset is
 * requested at the profile's own `default`, and when the profile has no `default` either it
 * requests nothing, so the ceiling stands: "Every field narrows" (§3.5) and an absent field has
 * nothing to narrow with. The effective `default` is min(profile default ?? allow, policy default).
 * The minimum is the most a session may get: a harness that decides lower (`ask` where the minimum
 * is `allow`) is stricter, which §7.2 ("MUST NOT increase it") and L1-I3 ("never more permissive")
 * allow.
 */
import type { DecisionT } from '../../protocol/messages.js';
import type { Reasoned } from './reasoned.js';

export type Decision = DecisionT;

/** Every decision, from the most restrictive to the most permissive. */
export const DECISIONS: readonly Decision[] = ['deny', 'ask', 'allow'];

const RANK: Readonly<Record<Decision, number>> = { deny: 0, ask: 1, allow: 2 };

/** The permission categories a profile and a policy name, besides `default`. */
export const PERMISSION_CATEGORIES = ['shell', 'edit', 'network'] as const;

/** Every key of an effective contract's `permissions`. */
export const PERMISSION_KEYS = ['default', ...PERMISSION_CATEGORIES] as const;
export type PermissionKey = (typeof PERMISSION_KEYS)[number];

/**
 * What a profile that states no `default` requests as its default: nothing narrower than the
 * ceiling, i.e. the top of the order.
 */
export const UNSTATED_PROFILE_DEFAULT: Decision = 'allow';

/** Position on deny < ask < allow (0, 1, 2). */
export function rank(d: Decision): number {
  return RANK[d];
}

/** The most restrictive of the given decisions. */
export function minDecision(first: Decision, ...rest: Decision[]): Decision {
  return rest.reduce((a, b) => (RANK[b] < RANK[a] ? b : a), first);
}

/** `a` is no more permissive than `ceiling`. */
export function atMost(a: Decision, ceiling: Decision): boolean {
  return RANK[a] <= RANK[ceiling];
}

/** `a` is strictly more permissive than `b`. */
export function exceeds(a: Decision, b: Decision): boolean {
  return RANK[a] > RANK[b];
}

/** A permissions block as a harness policy or a parent's effective contract states it. */
export interface CeilingPermissions {
  default: Decision;
  shell?: Decision | undefined;
  edit?: Decision | undefined;
  network?: Decision | undefined;
}

/** A profile's `spec.permissions` decisions, every one optional. */
export interface RequestedPermissions {
  default?: Decision | undefined;
  shell?: Decision | undefined;
  edit?: Decision | undefined;
  network?: Decision | undefined;
}

/** The ceiling's decision for a key: its explicit value, else its `default`. */
export function policyDecision(ceiling: CeilingPermissions, key: PermissionKey): Decision {
  return key === 'default' ? ceiling.default : (ceiling[key] ?? ceiling.default);
}

/**
 * What the profile requests for a key: its explicit value, else (for a category) its `default`,
 * else undefined (no request: the ceiling stands).
 */
export function profileRequest(requested: RequestedPermissions | undefined, key: PermissionKey): Decision | undefined {
  if (requested === undefined) return undefined;
  return key === 'default' ? requested.default : (requested[key] ?? requested.default);
}

/** The effective decision for one key: min(profile request, ceiling decision), with the reasons. */
export function effectiveDecision(
  requested: RequestedPermissions | undefined,
  ceiling: CeilingPermissions,
  key: PermissionKey,
): Reasoned<Decision> {
  const limit = policyDecision(ceiling, key);
  const asked = profileRequest(requested, key);
  if (asked === undefined) return { value: limit, reasons: [`no request for ${key}: the ceiling's ${limit} stands`] };
  const value = minDecision(asked, limit);
  return {
    value,
    reasons: exceeds(asked, value) ? [`${key}: requested ${asked}, the ceiling allows at most ${limit}`] : [],
  };
}

/** Every key's effective decision. */
export function effectivePermissions(
  requested: RequestedPermissions | undefined,
  ceiling: CeilingPermissions,
): Record<PermissionKey, Decision> {
  const out = {} as Record<PermissionKey, Decision>;
  for (const key of PERMISSION_KEYS) out[key] = effectiveDecision(requested, ceiling, key).value;
  return out;
}

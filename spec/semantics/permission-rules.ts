/**
 * Permission rules (SPEC §3.5 "`rules` are evaluated in order, first match wins, and are themselves
 * subject to the narrowing rule"; §7.2; conformance.md L1-I3, L3-B1).
 *
 * Reading (INTERPRETATIONS.md#permission-rules): a call is a (tool, action, target) triple. A rule
 * list decides a call by its first rule whose `tool`, `action` and `target` globs (glob.ts) all
 * match it; a call no rule matches is decided by the permission category of its tool. The spec
 * names the categories (shell, edit, network) but no tool names; the protocol's standard tools
 * give them: `shell` is shell, `edit` and `write` are edit, `fetch` and `web/...` are network, and
 * every other tool falls to `default`.
 *
 * The most a session may decide for a call is the more restrictive of what the ceiling decides for
 * it (its rules, first match, else its category decision) and what the profile decides for it (its
 * rules, first match, else its category request, else nothing narrower). `effectiveRules` builds
 * one list whose first-match answer never exceeds that for any call: the ceiling's rules first (the
 * protocol's order, "evaluated before profile rules"), each capped at the least the profile could
 * decide for a call it may match, then the profile's rules, each capped at the least the ceiling
 * could decide for a call it may match. "May match" is conservative (two patterns with a wildcard
 * are taken to overlap), so the list can be stricter than the bound, never looser.
 */
import {
  type CeilingPermissions,
  type Decision,
  minDecision,
  type PermissionKey,
  policyDecision,
  profileRequest,
  type RequestedPermissions,
  UNSTATED_PROFILE_DEFAULT,
} from './decision.js';
import { globMatch, isGlob } from './glob.js';

/** One permission rule as an effective contract states it (every field filled). */
export interface PermissionRule {
  tool: string;
  action: string;
  target: string;
  decision: Decision;
}

/** One call a session may make. */
export interface Call {
  tool: string;
  action: string;
  target: string;
}

/** A rule as a profile or a policy writes it: `tool`, `action` and `target` default to `*`. */
export interface WrittenRule {
  tool?: string | undefined;
  action?: string | undefined;
  target?: string | undefined;
  decision: Decision;
}

/** The rule with its defaults filled (`*` for every pattern it leaves out). */
export function filledRule(r: WrittenRule): PermissionRule {
  return { tool: r.tool ?? '*', action: r.action ?? '*', target: r.target ?? '*', decision: r.decision };
}

/** The permission category that decides a call to `tool` when no rule matches it. */
export function permissionCategory(tool: string): PermissionKey {
  if (tool === 'shell') return 'shell';
  if (tool === 'edit' || tool === 'write') return 'edit';
  if (tool === 'fetch' || tool.startsWith('web/')) return 'network';
  return 'default';
}

/** Does `rule` match `call` (its tool, action and target globs all select it)? */
export function ruleMatches(rule: PermissionRule, call: Call): boolean {
  return globMatch(rule.tool, call.tool) && globMatch(rule.action, call.action) && globMatch(rule.target, call.target);
}

/** The first rule of `rules` that matches `call`. */
function firstMatch(rules: readonly PermissionRule[], call: Call): PermissionRule | undefined {
  return rules.find((r) => ruleMatches(r, call));
}

/** How a rule list and a set of category decisions decide a call (first match wins, else the tool's category). */
export function callDecision(rules: readonly PermissionRule[], permissions: CeilingPermissions, call: Call): Decision {
  return firstMatch(rules, call)?.decision ?? policyDecision(permissions, permissionCategory(call.tool));
}

/** What a profile decides for a call: its first matching rule, else its category request, else nothing narrower. */
function profileCallDecision(rules: readonly PermissionRule[], request: RequestedPermissions, call: Call): Decision {
  return firstMatch(rules, call)?.decision ?? profileRequest(request, permissionCategory(call.tool)) ?? UNSTATED_PROFILE_DEFAULT;
}

/** The sides of a rule intersection: the ceiling's rules and decisions, the profile's rules and requests. */
export interface RuleSides {
  ceilingRules: readonly PermissionRule[];
  ceilingPermissions: CeilingPermissions;
  profileRules: readonly PermissionRule[];
  profileRequest: RequestedPermissions;
}

/** The most a session may decide for `call`: min(ceiling's decision, profile's decision). */
export function mostForCall(sides: RuleSides, call: Call): Decision {
  return minDecision(
    callDecision(sides.ceilingRules, sides.ceilingPermissions, call),
    profileCallDecision(sides.profileRules, sides.profileRequest, call),
  );
}

/** May two patterns select a common name? Conservative: two patterns with a wildcard may. */
function mayOverlap(a: string, b: string): boolean {
  if (a === b || globMatch(a, b) || globMatch(b, a)) return true;
  return isGlob(a) && isGlob(b);
}

function mayMeet(a: PermissionRule, b: PermissionRule): boolean {
  return mayOverlap(a.tool, b.tool) && mayOverlap(a.action, b.action) && mayOverlap(a.target, b.target);
}

/** The concrete tools a rule's tool pattern selects among `universe`, or the pattern itself when it selects none. */
function coveredTools(rule: PermissionRule, universe: readonly string[]): string[] {
  const covered = universe.filter((t) => globMatch(rule.tool, t));
  return covered.length > 0 ? covered : [rule.tool];
}

/**
 * The effective rules, in evaluation order: the ceiling's, then the profile's, each capped so that
 * no call is decided above `mostForCall` (see the module comment). `universe` is the tools the
 * harness has, for the categories a rule's tool pattern reaches.
 */
export function effectiveRules(sides: RuleSides, universe: readonly string[]): PermissionRule[] {
  const ceilingCap = (rule: PermissionRule): Decision[] => [
    ...sides.ceilingRules.filter((q) => mayMeet(q, rule)).map((q) => q.decision),
    ...coveredTools(rule, universe).map((t) => policyDecision(sides.ceilingPermissions, permissionCategory(t))),
  ];
  const profileCap = (rule: PermissionRule): Decision[] => [
    ...sides.profileRules.filter((p) => mayMeet(p, rule)).map((p) => p.decision),
    ...coveredTools(rule, universe).map((t) => profileRequest(sides.profileRequest, permissionCategory(t)) ?? UNSTATED_PROFILE_DEFAULT),
  ];
  return [
    ...sides.ceilingRules.map((q) => ({ ...q, decision: minDecision(q.decision, ...profileCap(q)) })),
    ...sides.profileRules.map((p) => ({ ...p, decision: minDecision(p.decision, ...ceilingCap(p)) })),
  ];
}

/**
 * Calls at which two rule lists are compared by meaning: every tool of `tools` and every literal
 * tool a rule names, with every literal action and target the rules name and one the rules name
 * nowhere (`*` patterns and category decisions answer it).
 */
export function ruleProbes(rules: readonly PermissionRule[], tools: readonly string[]): Call[] {
  const literal = (xs: string[]): string[] => xs.filter((x) => !isGlob(x));
  const toolNames = [...new Set([...tools, ...literal(rules.map((r) => r.tool))])];
  const actions = [...new Set([...literal(rules.map((r) => r.action)), 'probe-action'])];
  const targets = [...new Set([...literal(rules.map((r) => r.target)), 'probe-target'])];
  return toolNames.flatMap((tool) => actions.flatMap((action) => targets.map((target) => ({ tool, action, target }))));
}

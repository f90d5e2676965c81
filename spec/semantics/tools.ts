/**
 * The effective tool set (SPEC §3.4, §7.2 "tools"; conformance.md L1-I2).
 *
 * Reading (INTERPRETATIONS.md#tools): the harness-granted set is what the
 * harness has (`tools.available`) filtered by the policy's `tools.grant` globs ("intersected with
 * what the harness would grant the invoking user in the current context"). Over that set the §3.4
 * table decides:
 *
 * | `policy`              | effective tools                                        |
 * | --------------------- | ------------------------------------------------------ |
 * | `allowlist` (default) | granted ∩ matches(`allow`), minus matches(`deny`)      |
 * | `denylist`            | granted minus matches(`deny`)                          |
 * | `inherit`             | granted; `allow` and `deny` ignored (reported)         |
 *
 * An allowlist with no `allow` list grants nothing: "allowlist: only listed tools" (schema), and
 * nothing is listed. Patterns match through glob.ts.
 */
import type { Reasoned } from './reasoned.js';
import { matchesAny } from './glob.js';

export type ToolPolicy = 'allowlist' | 'denylist' | 'inherit';

/** `spec.tools.policy` when absent (SPEC §3.4, schema `default`). */
export const DEFAULT_TOOL_POLICY: ToolPolicy = 'allowlist';

/** The part of a profile's `spec.tools` the table reads. */
export interface ToolsRequest {
  policy?: ToolPolicy | undefined;
  allow?: readonly string[] | undefined;
  deny?: readonly string[] | undefined;
}

/** The harness policy's tool section (the protocol's `HarnessPolicy.tools`). */
export interface ToolGrant {
  available: readonly string[];
  grant: readonly string[];
}

/** What the harness would grant the user alone: `available` filtered by the `grant` globs, sorted. */
export function grantedTools(tools: ToolGrant): string[] {
  return [...new Set(tools.available.filter((t) => matchesAny(tools.grant, t)))].sort();
}

/**
 * The §3.4 table over a granted set, sorted. Under `inherit` the reasons say which lists were
 * ignored (the spec's SHOULD-warn).
 */
export function toolTable(request: ToolsRequest | undefined, granted: readonly string[]): Reasoned<string[]> {
  const policy = request?.policy ?? DEFAULT_TOOL_POLICY;
  const allow = request?.allow ?? [];
  const deny = request?.deny ?? [];
  const sorted = (xs: readonly string[]): string[] => [...new Set(xs)].sort();
  if (policy === 'inherit') {
    const reasons = [
      ...(allow.length > 0 ? ['tools.allow is ignored under policy inherit'] : []),
      ...(deny.length > 0 ? ['tools.deny is ignored under policy inherit'] : []),
    ];
    return { value: sorted(granted), reasons };
  }
  if (policy === 'denylist') return { value: sorted(granted.filter((t) => !matchesAny(deny, t))), reasons: [] };
  return {
    value: sorted(granted.filter((t) => matchesAny(allow, t) && !matchesAny(deny, t))),
    reasons: allow.length === 0 ? ['allowlist with no allow list grants nothing'] : [],
  };
}

/**
 * Judging an effective contract against a ceiling (the harness policy, or a parent session's
 * effective contract) and against the profile's own request, through the spec model's narrowing
 * rule (spec/semantics/narrowing.ts): the same questions the L1-I3, L3-E2 and L3-B1 cases ask.
 * Returns every violation found so the first one can be reported and all of them recorded.
 */
import type { EffectiveContractT } from '../../protocol/messages.js';
import { type ContractBounds, narrowingDifferences, narrowingRequest, widenings } from '../../spec/semantics/index.js';
import type { Violation } from './types.js';

/** The most a session may get, and where it comes from (for messages). */
export interface Ceiling {
  source: 'policy' | 'parent';
  bounds: ContractBounds;
  /** Workspace for mapping absolute roots the adapter reports back to relative ones. */
  workspace: string;
}

/** Safety only: every place `eff` is looser than the ceiling. Holds whatever the profile asked. */
export function ceilingViolations(eff: EffectiveContractT, c: Ceiling): Violation[] {
  const who = c.source === 'policy' ? 'harness policy' : "parent's effective contract";
  const wider = widenings(eff, c.bounds, c.workspace);
  if (wider.length === 0) return [];
  return [
    {
      message: `effective contract is looser than the ${who} at ${wider.join(', ')}`,
      expected: { within: who },
      observed: { widenings: wider },
      differences: wider.map((pointer) => ({ pointer, expected: { within: who }, observed: 'wider' })),
    },
  ];
}

interface SubagentRequest {
  allow?: string[];
  max_depth?: number;
  max_concurrent?: number;
}

/**
 * Where `eff` is not the more restrictive of the profile's request and the ceiling: decisions,
 * memory mode, scopes and budgets as values, roots and hosts by meaning (tools against the grant
 * are ceilingViolations' question). Delegation: the subagents `eff` may delegate to are among those
 * the profile allows, and with `subagentExact` its depth and concurrency are the smaller of request
 * and ceiling.
 */
export function requestViolations(
  eff: EffectiveContractT,
  profile: Record<string, unknown>,
  c: Ceiling,
  opts: { subagentExact: boolean },
): Violation[] {
  const out: Violation[] = narrowingDifferences(eff, narrowingRequest(profile.spec), c.bounds, { workspace: c.workspace })
    .filter((d) => d.pointer !== '/tools')
    .map((d) => ({
      message: `${d.pointer}: the narrowing rule gives ${JSON.stringify(d.expected)}, observed ${JSON.stringify(d.observed)}`,
      expected: { [d.pointer]: d.expected },
      observed: { [d.pointer]: d.observed },
      differences: [{ pointer: d.pointer, expected: d.expected, observed: d.observed }],
    }));
  const subs = ((profile.spec as { runtime?: { subagents?: SubagentRequest } } | undefined)?.runtime?.subagents ?? {}) as SubagentRequest;
  const allow = subs.allow ?? [];
  const extraSubs = eff.subagents.allow.filter((n) => !allow.includes(n));
  if (extraSubs.length)
    out.push({
      message: `subagents ${JSON.stringify(extraSubs)} may be delegated to although the profile does not allow them`,
      expected: { within: allow },
      observed: { allow: eff.subagents.allow },
      differences: [{ pointer: '/subagents/allow', extra: extraSubs }],
    });
  if (opts.subagentExact) {
    for (const k of ['max_depth', 'max_concurrent'] as const) {
      const req = subs[k];
      if (req === undefined) continue;
      const want = Math.min(req, c.bounds.subagents[k]);
      if (eff.subagents[k] !== want)
        out.push({
          message: `subagents.${k}: profile asks ${req}, ceiling is ${c.bounds.subagents[k]}, so it must be ${want}; got ${eff.subagents[k]}`,
          expected: { [k]: want },
          observed: { [k]: eff.subagents[k] },
          differences: [{ pointer: `/subagents/${k}`, expected: want, observed: eff.subagents[k] }],
        });
    }
  }
  return out;
}

/** Join violations into one, keeping every piece of evidence. */
export function combine(vs: Violation[]): Violation | undefined {
  if (vs.length === 0) return undefined;
  if (vs.length === 1) return vs[0];
  return {
    message: `${vs[0]!.message} (+${vs.length - 1} more)`,
    expected: vs.map((v) => v.expected),
    observed: vs.map((v) => v.observed),
    ...(vs.every((v) => v.differences) ? { differences: vs.flatMap((v) => v.differences ?? []) } : {}),
  };
}

/**
 * Instantiating a profile the way every case does: by path or by name, over the discovery roots
 * the handshake claims, under a policy (permissive unless the case narrows it).
 */
import type { HarnessPolicyT, InstantiatedT, InstantiateOutcomeT, Params } from '../../protocol/messages.js';
import type { CaseContext } from '../kit/types.js';
import { judgeRefusal, rejectionCause } from './refusal.js';
import { type InputRole, recordInstantiate } from './inputs.js';
import { briefIssues } from './issues.js';
import { permissivePolicy } from './policy.js';

export type Roots = Params<'instantiate'>['roots'];

/** Every discovery root the adapter claims (the project root always), as DiscoveryRoots for this case's tree. */
export function claimedRoots(ctx: CaseContext): Roots {
  // A root the handshake disclaims but a probe found read is judged as declared (CaseContext.rootsFound).
  const claimed = new Set([...ctx.handshake.discovery_roots, ...(ctx.rootsFound ?? [])]);
  const r = ctx.workspace.roots;
  return {
    ...(claimed.has('managed') ? { managed: r.managed } : {}),
    ...(claimed.has('user') ? { user: r.user } : {}),
    project: r.project,
    ...(claimed.has('plugin') ? { plugin: [...r.plugin] } : {}),
  };
}

export interface InstantiateOptions {
  roots?: Roots;
  now?: string;
  /** What the profile is to the case (its inputs are labelled so); default the subject. */
  role?: InputRole;
}

/** The request, with its inputs recorded for the report (a failure shows the profile and policy that produced it). */
function params(
  ctx: CaseContext,
  profile: Params<'instantiate'>['profile'],
  policy: HarnessPolicyT,
  opts: InstantiateOptions,
): Params<'instantiate'> {
  const request = {
    workspace: ctx.workspace.dir,
    roots: opts.roots ?? claimedRoots(ctx),
    profile,
    policy,
    ...(opts.now ? { now: opts.now } : {}),
  };
  recordInstantiate(ctx, request, opts.role);
  return request;
}

/** Instantiate the profile file at `path` under `policy`. */
export async function instantiatePath(
  ctx: CaseContext,
  path: string,
  policy: HarnessPolicyT = permissivePolicy(),
  opts: InstantiateOptions = {},
): Promise<InstantiateOutcomeT> {
  return ctx.adapter.call('instantiate', params(ctx, { path }, policy, opts));
}

/** Instantiate the profile discovered under `name` under `policy`. */
export async function instantiateName(
  ctx: CaseContext,
  name: string,
  policy: HarnessPolicyT = permissivePolicy(),
  opts: InstantiateOptions = {},
): Promise<InstantiateOutcomeT> {
  return ctx.adapter.call('instantiate', params(ctx, { name }, policy, opts));
}

/**
 * The session the case's own requirement needs (its subject). A refusal goes through the refusal
 * rule (./refusal.ts): a failure of this case unless what the adapter said names another ID, whose
 * case judges it (then this case is inconclusive, naming it).
 */
export function mustInstantiate(outcome: InstantiateOutcomeT, what: string): InstantiatedT {
  if (outcome.status !== 'instantiated') {
    judgeRefusal({
      reason: `${what}: a valid profile was rejected`,
      cause: rejectionCause(what, outcome.errors),
      role: 'subject',
      expected: { status: 'instantiated' },
      observed: { status: outcome.status, errors: briefIssues(outcome.errors) },
    });
  }
  return outcome;
}

/**
 * A session the case needs as a precondition (a control, a flat equivalent, a parent to delegate
 * from), not as the thing it judges: when the adapter refuses the profile the case cannot observe
 * its own requirement, so it is inconclusive with the refusal as its cause and the ID that judges
 * it (the refusal rule, ./refusal.ts, which fails the case only when that ID is its own). Use
 * `mustInstantiate` where the case's own requirement demands that this profile instantiate.
 */
export function requireSession(outcome: InstantiateOutcomeT, what: string): InstantiatedT {
  if (outcome.status !== 'instantiated')
    judgeRefusal({
      reason: `${what}: a valid profile the case needs was rejected`,
      cause: rejectionCause(what, outcome.errors),
      role: 'control',
      expected: { status: 'instantiated' },
      observed: { status: outcome.status, errors: briefIssues(outcome.errors) },
    });
  return outcome;
}

/**
 * Instantiate a profile that a case needs as its subject, not as the thing it judges. When the
 * adapter refuses it the case cannot observe its own requirement: it is inconclusive, and the
 * refusal is judged by the requirement it belongs to (usually L1-P2 or L1-I7).
 */
export async function instantiateSubject(
  ctx: CaseContext,
  path: string,
  policy: HarnessPolicyT,
  opts: { role?: InputRole } = {},
): Promise<InstantiatedT> {
  const role = opts.role ?? 'subject';
  const out = await instantiatePath(ctx, path, policy, { role });
  if (out.status !== 'instantiated') ctx.note(`${role}-rejected`, briefIssues(out.errors));
  return requireSession(out, `${role} profile`);
}

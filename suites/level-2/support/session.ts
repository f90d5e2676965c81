/**
 * Instantiating a profile file and getting the session back, for the state-injection and
 * generation cases.
 */
import type { HarnessPolicyT, Result } from '../../../adapters/protocol/messages.js';
import { fail } from '../../framework/assert.js';
import { permissivePolicy } from '../../framework/policy.js';
import type { CaseContext } from '../../framework/types.js';

export type Instantiated = Extract<Result<'instantiate'>, { status: 'instantiated' }>;

export async function instantiate(
  ctx: CaseContext,
  path: string,
  policy: HarnessPolicyT = permissivePolicy(),
  now?: string,
): Promise<Result<'instantiate'>> {
  return ctx.adapter.call('instantiate', {
    workspace: ctx.workspace.dir,
    roots: { project: ctx.workspace.dir },
    profile: { path },
    policy,
    ...(now ? { now } : {}),
  });
}

/**
 * Instantiate a schema-valid profile that the case's own requirement needs running. A refusal is a
 * failure of that requirement: a harness cannot inject (or learn from) state of a profile it will
 * not run, and every fixture here is valid.
 */
export async function mustInstantiate(
  ctx: CaseContext,
  path: string,
  what: string,
  policy?: HarnessPolicyT,
  now?: string,
): Promise<Instantiated> {
  const r = await instantiate(ctx, path, policy, now);
  if (r.status !== 'instantiated') {
    fail(
      `${what}: the adapter refused a valid profile`,
      { status: 'instantiated' },
      {
        status: r.status,
        errors: r.errors.map((e) => ({ category: e.category, pointer: e.pointer })),
      },
    );
  }
  return r;
}

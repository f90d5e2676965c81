/**
 * Level 3 cases compare observed contracts with each other; when an observation shows that a
 * LOWER-level requirement is already broken in a way that makes the L3 comparison meaningless, the
 * case is inconclusive (suites/support `requireObservable`) instead of failing an L3 ID for an L1
 * bug, and never passes vacuously.
 */
import type { CaseContext } from '../../kit/types.js';
import { claimedRoots, requireObservable } from '../../support/index.js';

/**
 * The profiles a case wrote must be discoverable before anything Level 3 can be judged about
 * them. Discovery itself is L1-D1 (project root) and L3-G3 (the other roots): a harness that does
 * not find them fails there, and this case is inconclusive rather than failed.
 */
export async function requireDiscovered(ctx: CaseContext, names: readonly string[]): Promise<void> {
  const found = await ctx.adapter.call('discover', { workspace: ctx.workspace.dir, roots: claimedRoots(ctx) });
  const seen = new Set(found.profiles.map((p) => p.name));
  const lost = names.filter((n) => !seen.has(n));
  requireObservable(
    lost.length === 0,
    `profiles not discovered: ${lost.join(', ')} (a discovery matter: L1-D1 / L3-G3)`,
    `discover did not list ${lost.join(', ')}${found.errors.length ? ` (errors: ${found.errors.map((e) => `${e.category} at ${e.pointer || '/'}`).join('; ')})` : ''}`,
  );
}

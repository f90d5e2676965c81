/**
 * Isolation guards. Level 3 checks compare observed contracts with each other; when an
 * observation shows that a LOWER-level requirement is already broken in a way that makes the L3
 * comparison meaningless, the case is not applicable (reported with the reason) instead of
 * failing an L3 ID for an L1 bug, and never passes vacuously.
 */
import { CaseNotApplicable } from '../../framework/errors.js';
import type { CaseContext } from '../../framework/types.js';
import { allRoots } from './session.js';

export function requireObservable(condition: boolean, reason: string): asserts condition {
  if (!condition) throw new CaseNotApplicable(reason);
}

/**
 * The profiles a case wrote must be discoverable before anything Level 3 can be judged about
 * them. Discovery itself is L1-D1 (project root) and L3-G3 (the other roots): a harness that does
 * not find them fails there, and this case is not applicable rather than failed.
 */
export async function requireDiscovered(ctx: CaseContext, names: readonly string[]): Promise<void> {
  const found = await ctx.adapter.call('discover', { workspace: ctx.workspace.dir, roots: allRoots(ctx.workspace) });
  const seen = new Set(found.profiles.map((p) => p.name));
  const lost = names.filter((n) => !seen.has(n));
  requireObservable(lost.length === 0, `profiles not discovered: ${lost.join(', ')} (a discovery matter: L1-D1 / L3-G3)`);
}

/**
 * Discovery roots (SPEC §5.1) and the trust each one confers (SPEC §7.1).
 *
 * Trust for the plugin root: §7.1 has no "plugin" label. Content contributed by an installed
 * extension was fetched or packaged elsewhere and has not been reviewed as part of this machine's
 * configuration or this workspace, which is exactly the `imported` row ("fetched or converted from
 * elsewhere, untrusted"). Choosing the least trusted label can only add review steps, never
 * authority, so it is the safe reading.
 */
import { realpathSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import type { Params } from '../../protocol/messages.js';

export type RootKind = 'managed' | 'user' | 'project' | 'plugin';
export type Trust = 'managed' | 'user' | 'project' | 'imported';
export type DiscoveryRootsT = Params<'discover'>['roots'];

export interface RootDir {
  kind: RootKind;
  dir: string;
  /** Position in the precedence order; a higher rank wins a cross-root collision. */
  rank: number;
}

/** The project root is `<workspace>/.agents/`, the harness-neutral location SPEC §5.1 recommends. */
function projectAgentsDir(workspace: string): string {
  return join(workspace, '.agents');
}

/** Root directories in precedence order: managed, user, project, then each plugin directory. */
export function rootDirs(roots: DiscoveryRootsT): RootDir[] {
  const out: RootDir[] = [];
  if (roots.managed) out.push({ kind: 'managed', dir: roots.managed, rank: 0 });
  if (roots.user) out.push({ kind: 'user', dir: roots.user, rank: 1 });
  if (roots.project) out.push({ kind: 'project', dir: projectAgentsDir(roots.project), rank: 2 });
  for (const p of roots.plugin ?? []) out.push({ kind: 'plugin', dir: p, rank: 3 });
  return out;
}

/** Real path when it exists, else the lexically resolved one. */
export function realOrResolved(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
}

/** The root among `dirs` whose directory contains `file` (directly or below); undefined for a file outside every root. */
export function containingRoot(file: string, dirs: readonly RootDir[]): RootDir | undefined {
  const real = realOrResolved(dirname(file));
  let best: RootDir | undefined;
  for (const r of dirs) {
    const dir = realOrResolved(r.dir);
    if (real === dir || real.startsWith(dir + sep)) {
      // The most specific directory wins (a plugin dir could sit inside the workspace).
      if (!best || dir.length > realOrResolved(best.dir).length) best = r;
    }
  }
  return best;
}

/**
 * Catalogue cases of MCP launch gating (L3-M2, a SHOULD): each value is the minimal profile with
 * the class's server (and, where the class names one, a `metadata.trust` the file claims) placed in
 * the root the class names, under the permissive policy with the class's MCP fields. The trust that
 * gates a launch is the one the root gives (SPEC §7.1: project, imported for a plugin, managed,
 * user; the file's own claim is discarded, L1-I4), and §7.3 recommends confirmation for the servers
 * of project and imported profiles whatever the policy's auto_launch says: each of their servers in
 * the session must launch on confirmation. A root the handshake does not claim is skipped.
 */
import type { Dimension } from '../../spec/semantics/catalogue-model.js';
import { trustOfRoot } from '../../spec/semantics/index.js';
import { fail } from '../kit/assert.js';
import type { CaseDef, RootKind } from '../kit/types.js';
import { requireDiscovered } from '../level-3/lib/preconditions.js';
import { instantiateName, requireObservable, requireSession, writeProfile } from '../support/index.js';
import type { CatalogueCase } from './contract.js';
import { classSides, policyFrom, profileFrom, valuesOn } from './samples.js';

export function launchCases(d: Dimension): CatalogueCase[] {
  if (d.id !== 'mcp.servers') return [];
  const classes = d.classes.filter(
    (c) => c.exclusion === undefined && !c.schemaInvalid && classSides(c).has('root') && classSides(c).has('profile'),
  );
  if (classes.length === 0) return [];
  const def: CaseDef = {
    id: 'L3-M2/catalogue-mcp-servers',
    requirements: ['L3-M2'],
    clauses: ['L3-M2.project', 'L3-M2.imported'],
    title: `${d.title}: every catalogue class placing a profile with servers in a root, launch gated by the root's trust (${classes.length} classes)`,
    expectation: { classes: classes.map((c) => ({ id: c.id, predicts: c.predicts })) },
    async run(ctx) {
      const wrong: unknown[] = [];
      let judged = 0;
      let n = 0;
      for (const c of classes) {
        for (const v of c.values) {
          const [pointer] = valuesOn(v, 'root')[0] ?? [];
          const root = pointer?.split('/')[1] as RootKind | undefined;
          if (root === undefined || (root !== 'project' && !ctx.handshake.discovery_roots.includes(root))) continue;
          const name = `cat-launch-${n++}`;
          const dir =
            root === 'project'
              ? ctx.workspace.projectAgents
              : root === 'plugin'
                ? ctx.workspace.roots.plugin[0]
                : ctx.workspace.roots[root];
          writeProfile(dir as string, profileFrom(name, v), 'yaml');
          await requireDiscovered(ctx, [name]);
          const s = requireSession(await instantiateName(ctx, name, policyFrom(v)), `the profile of ${c.id} in the ${root} root`);
          const trust = trustOfRoot(root);
          // A session reporting another trust than its root's is L1-I4's failure; gating is judged on a right trust only.
          if (s.session.trust !== trust) {
            ctx.note('trust_judged_elsewhere', { class: c.id, root, reported: s.session.trust });
            continue;
          }
          if (trust !== 'project' && trust !== 'imported') continue;
          judged++;
          const auto = s.effective.mcp_servers.filter((x) => x.launch !== 'confirm');
          if (auto.length > 0)
            wrong.push({
              class: c.id,
              root,
              trust,
              claimed: v['profile:/metadata/trust'],
              launches: auto.map((x) => ({ name: x.name, launch: x.launch })),
            });
        }
      }
      requireObservable(judged > 0, 'no value placed a profile with servers in a project or plugin root the harness reads');
      const first = wrong[0] as { class: string; trust: string } | undefined;
      if (first) fail(`${first.class}: servers of a ${first.trust} profile launch without confirmation`, { launch: 'confirm' }, wrong);
    },
  };
  return [{ def, classes: classes.map((c) => c.id) }];
}

/**
 * Catalogue cases of the document-level rules that meet no other profile: discovery across and
 * within roots (root-root: L1-D2, L1-D3), the trust a root gives (L1-I4) and the version (L1-P4).
 *
 * Discovery: each value lays out files named by the class (`root:/<root>/<file>` → the
 * `metadata.name` the file holds) in a fresh workspace and asks `discover`, then instantiates the
 * name. Files sharing a name in one root are an error with no winner, the name not instantiable
 * (L1-D2); across roots the later root of SPEC §5.1's order (managed, user, project, plugin) wins,
 * the collision reported with its winner, and the session runs the winner's definition (L1-D3).
 *
 * Trust: each value of a class whose files claim no trust is laid out the same way and its name
 * instantiated; the session runs with the label of its winner's root (spec/semantics/trust.ts
 * trustOfRoot), a shadowed file in a more trusted root lending it nothing (L1-I4). The classes whose
 * files claim a label are L1-I4's hand-written cases (suites/level-1/trust.ts).
 *
 * Version: each value is the minimal profile with the class's `oap`; where the spec model's version
 * rule (spec/document/rules-version.ts checkVersion) finds a higher minor, instantiating must be
 * refused (L1-P4).
 */
import { extname } from 'node:path';
import { checkVersion } from '../../spec/document/index.js';
import type { ClauseId } from '../../spec/requirements.js';
import type { Dimension, EquivalenceClass, Sample } from '../../spec/semantics/catalogue-model.js';
import { fail } from '../kit/assert.js';
import { trustOfRoot } from '../../spec/semantics/index.js';
import type { CaseContext, CaseDef, Encoding, RootKind } from '../kit/types.js';
import {
  briefIssues,
  claimedRoots,
  inconclusive,
  instantiateName,
  instantiatePath,
  minimalProfile,
  mustInstantiate,
  requireObservable,
  samePath,
} from '../support/index.js';
import type { CatalogueCase } from './contract.js';
import { classSides, generatedProfile, profileFrom, valuesOn } from './samples.js';

/** SPEC §5.1: later roots take precedence for one name. */
const ROOT_ORDER: readonly RootKind[] = ['managed', 'user', 'project', 'plugin'];

const ENCODING_OF: Readonly<Record<string, Encoding>> = { '.yaml': 'yaml', '.yml': 'yaml', '.json': 'json', '.md': 'md' };

interface Placed {
  root: RootKind;
  name: string;
  path: string;
  marker: string;
}

/** Write the value's files; each holds a profile of its name whose instructions carry a marker naming the file. */
function layOut(ctx: CaseContext, sample: Sample, suffix: string): Placed[] {
  return valuesOn(sample, 'root').map(([pointer, name], i) => {
    const [, root, file] = pointer.split('/') as [string, RootKind, string];
    const dir =
      root === 'project' ? ctx.workspace.projectAgents : root === 'plugin' ? ctx.workspace.roots.plugin[0] : ctx.workspace.roots[root];
    const marker = `CATALOGUE-FILE-${i}-${suffix}`;
    const profileName = `${String(name)}-${suffix}`;
    const fileName = file.replace(/^[^.]+/, profileName);
    const doc = minimalProfile(profileName, { role: { instructions: `You are ${profileName}. Definition marker: ${marker}.` } });
    const encoding = ENCODING_OF[extname(fileName)] ?? 'yaml';
    return { root, name: profileName, path: ctx.workspace.writeDocument(dir as string, fileName, doc, encoding), marker };
  });
}

/** The roots and encodings a value needs the harness to claim. */
function needsOf(classes: readonly EquivalenceClass[]): { roots: RootKind[]; encodings: Encoding[] } {
  const keys = classes.flatMap((c) => c.values.flatMap((v) => valuesOn(v, 'root').map(([p]) => p)));
  return {
    roots: [...new Set(keys.map((k) => k.split('/')[1] as RootKind))],
    encodings: [...new Set(keys.map((k) => ENCODING_OF[extname(k)] ?? 'yaml'))],
  };
}

/** The value's winner: the file in the latest root of SPEC §5.1's order. */
const winnerOf = (placed: readonly Placed[]): Placed =>
  placed.reduce((a, b) => (ROOT_ORDER.indexOf(b.root) > ROOT_ORDER.indexOf(a.root) ? b : a));

/** What is wrong with discovery of one value, or undefined. */
async function wrongDiscovery(ctx: CaseContext, placed: readonly Placed[]): Promise<unknown> {
  const found = await ctx.adapter.call('discover', { workspace: ctx.workspace.dir, roots: claimedRoots(ctx) });
  const name = placed[0]?.name as string;
  const roots = new Set(placed.map((p) => p.root));
  const listed = found.profiles.filter((p) => p.name === name);
  const paths = placed.map((p) => p.path);
  if (roots.size === 1) {
    const collision = found.collisions.find((c) => c.name === name && c.scope === 'within-root');
    const ok =
      collision !== undefined && collision.winner === null && listed.length === 0 && found.errors.some((e) => e.category === 'collision');
    const out = await instantiateName(ctx, name);
    if (ok && out.status === 'rejected') return undefined;
    return {
      expected: { collision: 'within-root', winner: null, listed: 0, instantiate: 'rejected' },
      observed: { collision, listed: listed.length, instantiate: out.status },
    };
  }
  const winner = winnerOf(placed);
  const collision = found.collisions.find((c) => c.name === name && c.scope === 'across-roots');
  const reported = collision !== undefined && collision.winner !== null && samePath(collision.winner, winner.path);
  const complete = reported && paths.every((p) => collision.paths.some((q) => samePath(q, p)));
  const entry = listed[0];
  const out = await instantiateName(ctx, name);
  // A refused winner goes through the refusal rule: another ID's refusal (a field it requires) leaves the case inconclusive.
  if (out.status !== 'instantiated') mustInstantiate(out, 'instantiate by the shared name');
  const runs = out.status === 'instantiated' && out.prompt.text.includes(winner.marker);
  if (entry?.root === winner.root && complete && runs) return undefined;
  return {
    expected: { winner: winner.root, collision: { scope: 'across-roots', winner: winner.path, paths } },
    observed: {
      listed: entry?.root,
      collision,
      instantiate: out.status === 'instantiated' ? 'another definition' : briefIssues(out.errors),
    },
  };
}

/**
 * The precondition of a discovery value: a lone profile in each root it uses is listed in that root,
 * and one in each encoding it uses is listed at all. A root not searched is L1-D1's or L3-G3's, an
 * encoding not read L1-P1's; without them the collision cannot be observed.
 */
async function requireReadable(ctx: CaseContext, needs: { roots: RootKind[]; encodings: Encoding[] }): Promise<void> {
  const controls = [
    ...[...new Set<RootKind>(['project', ...needs.roots])].map((root) => ({
      root,
      encoding: 'yaml' as Encoding,
      name: `cat-sentinel-${root}`,
    })),
    ...needs.encodings.map((encoding) => ({ root: 'project' as RootKind, encoding, name: `cat-sentinel-${encoding}` })),
  ];
  for (const c of controls) {
    const dir =
      c.root === 'project'
        ? ctx.workspace.projectAgents
        : c.root === 'plugin'
          ? ctx.workspace.roots.plugin[0]
          : ctx.workspace.roots[c.root];
    ctx.workspace.writeDocument(dir as string, `${c.name}.agent.${c.encoding}`, minimalProfile(c.name), c.encoding);
  }
  const found = await ctx.adapter.call('discover', { workspace: ctx.workspace.dir, roots: claimedRoots(ctx) });
  const lost = controls.filter((c) => !found.profiles.some((p) => p.name === c.name && p.root === c.root));
  requireObservable(
    lost.length === 0,
    `discovery does not list a lone profile in ${lost.map((c) => `the ${c.root} root as ${c.encoding}`).join(', ')} (L1-D1, L3-G3 and L1-P1 judge that)`,
  );
}

function discoveryCase(d: Dimension, requirement: 'L1-D2' | 'L1-D3', classes: readonly EquivalenceClass[]): CatalogueCase {
  const clauses: readonly ClauseId[] = requirement === 'L1-D2' ? ['L1-D2.within-root-error'] : ['L1-D3.precedence', 'L1-D3.reported'];
  const needs = needsOf(classes);
  const def: CaseDef = {
    id: `${requirement}/catalogue-discovery-names`,
    requirements: [requirement],
    clauses,
    title: `${d.title}: every catalogue class of ${requirement === 'L1-D2' ? 'one name twice in one root' : 'one name in several roots'} (${classes.length} classes)`,
    needs: { roots: needs.roots.filter((r) => r !== 'project'), encodings: needs.encodings },
    expectation: { classes: classes.map((c) => ({ id: c.id, predicts: c.predicts })) },
    async run(ctx) {
      await requireReadable(ctx, needs);
      const wrong: unknown[] = [];
      let n = 0;
      for (const c of classes) {
        for (const v of c.values) {
          const w = await wrongDiscovery(ctx, layOut(ctx, v, `v${n++}`));
          if (w !== undefined) wrong.push({ class: c.id, value: v, ...(w as object) });
        }
      }
      const first = wrong[0] as { class: string; expected: unknown } | undefined;
      if (first) fail(`${first.class}: discovery does not resolve the name as SPEC §5.1 orders`, first.expected, wrong);
    },
  };
  return { def, classes: classes.map((c) => c.id) };
}

export function discoveryCases(d: Dimension): CatalogueCase[] {
  if (d.id !== 'discovery.names') return [];
  // A collision: every value names one profile name in two or more files.
  const oneName = (v: Sample) => {
    const names = valuesOn(v, 'root').map(([, n]) => n);
    return names.length > 1 && names.every((n) => typeof n === 'string' && n === names[0]);
  };
  const usable = d.classes.filter((c) => c.exclusion === undefined && !c.schemaInvalid && c.values.every(oneName));
  const withinRoot = usable.filter((c) => c.values.every((v) => new Set(valuesOn(v, 'root').map(([p]) => p.split('/')[1])).size === 1));
  const acrossRoots = usable.filter((c) => !withinRoot.includes(c));
  return [
    ...(withinRoot.length > 0 ? [discoveryCase(d, 'L1-D2', withinRoot)] : []),
    ...(acrossRoots.length > 0 ? [discoveryCase(d, 'L1-D3', acrossRoots)] : []),
  ];
}

export function trustCases(d: Dimension): CatalogueCase[] {
  if (d.id !== 'metadata.trust') return [];
  // Files laid out in roots, none claiming a trust: the label can only come from the root.
  const silent = (v: Sample) => valuesOn(v, 'root').length > 0 && valuesOn(v, 'profile').every(([, x]) => x === undefined);
  const classes = d.classes.filter((c) => c.exclusion === undefined && !c.schemaInvalid && c.values.every(silent));
  if (classes.length === 0) return [];
  const needs = needsOf(classes);
  const def: CaseDef = {
    id: 'L1-I4/catalogue-metadata-trust',
    requirements: ['L1-I4'],
    clauses: ['L1-I4.from-root'],
    title: `${d.title}: every catalogue class whose files claim no trust, the session labelled by its winner's root (${classes.length} classes)`,
    needs: { roots: needs.roots.filter((r) => r !== 'project'), encodings: needs.encodings },
    expectation: { classes: classes.map((c) => ({ id: c.id, predicts: c.predicts })) },
    async run(ctx) {
      await requireReadable(ctx, needs);
      const wrong: unknown[] = [];
      let judged = 0;
      let n = 0;
      for (const c of classes) {
        for (const v of c.values) {
          const placed = layOut(ctx, v, `t${n++}`);
          const winner = winnerOf(placed);
          const out = mustInstantiate(await instantiateName(ctx, winner.name), 'instantiate by name');
          // Another definition running is a precedence defect, L1-D3's: the trust of a loser says nothing here.
          if (!out.prompt.text.includes(winner.marker)) {
            ctx.note('winner_judged_elsewhere', { class: c.id, winner: winner.root });
            continue;
          }
          judged++;
          const expected = trustOfRoot(winner.root);
          if (out.session.trust !== expected)
            wrong.push({ class: c.id, roots: placed.map((p) => p.root), expected, observed: out.session.trust });
        }
      }
      const first = wrong[0] as { class: string; expected: unknown } | undefined;
      if (first) fail(`${first.class}: the session is not labelled with its winner's root trust`, first.expected, wrong);
      if (judged === 0) inconclusive("no value ran its winner's definition (L1-D3 judges precedence)");
    },
  };
  return [{ def, classes: classes.map((c) => c.id) }];
}

export function versionCases(d: Dimension): CatalogueCase[] {
  if (d.id !== 'document.version') return [];
  const classes = d.classes.filter(
    (c) =>
      c.exclusion === undefined &&
      !c.schemaInvalid &&
      [...classSides(c)].every((s) => s === 'profile') &&
      c.values.some((v) => checkVersion(profileFrom('probe', v)).some((i) => i.code === 'version-minor')),
  );
  if (classes.length === 0) return [];
  const def: CaseDef = {
    id: 'L1-P4/catalogue-document-version',
    requirements: ['L1-P4'],
    clauses: ['L1-P4.reject-minor'],
    title: `${d.title}: every catalogue value the version rule reads as a higher minor is refused at instantiation (${classes.length} classes)`,
    expectation: { classes: classes.map((c) => ({ id: c.id, predicts: c.predicts })) },
    async run(ctx) {
      const wrong: unknown[] = [];
      let n = 0;
      const control = await instantiatePath(ctx, generatedProfile(ctx, minimalProfile('cat-version-control')));
      requireObservable(control.status === 'instantiated', 'the minimal profile at oap 1.0 is refused, so no version can be told apart');
      for (const c of classes) {
        for (const v of c.values) {
          const doc = profileFrom(`cat-version-${n++}`, v);
          if (!checkVersion(doc).some((i) => i.code === 'version-minor')) continue;
          const out = await instantiatePath(ctx, generatedProfile(ctx, doc));
          if (out.status !== 'rejected') wrong.push({ class: c.id, oap: doc['oap'], observed: out.status });
        }
      }
      const first = wrong[0] as { class: string; oap: unknown } | undefined;
      if (first) fail(`${first.class}: oap ${String(first.oap)} (a higher minor) was instantiated`, { status: 'rejected' }, wrong);
    },
  };
  return [{ def, classes: classes.map((c) => c.id) }];
}

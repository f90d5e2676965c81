/**
 * L3-G3: the managed, user, project and plugin discovery roots are all supported. Precedence and
 * collision reporting between roots are L1-D2/D3's verdicts and the project root is L1-D1's, so
 * here the three roots beyond project (managed, user, plugin) must each contribute profiles to
 * discovery, to instantiation by name, and to `extends` resolution.
 * A Level 3 claim needs all four roots, so the handshake is checked inside the case.
 */
import { realpathSync } from 'node:fs';
import { expectEqual, expectTrue, fail } from '../kit/assert.js';
import type { CaseContext, CaseDef, RootKind } from '../kit/types.js';
import {
  claimedRoots,
  instantiateName,
  minimalProfile,
  mustInstantiate,
  permissivePolicy,
  promptWithoutState,
  workingEncoding,
  writeProfile,
} from '../support/index.js';

const KINDS: RootKind[] = ['managed', 'user', 'project', 'plugin'];
/** The roots judged here; the project root is judged by L1-D1. */
const BEYOND_PROJECT: RootKind[] = ['managed', 'user', 'plugin'];

function requireAllRoots(ctx: CaseContext): void {
  const missing = KINDS.filter((k) => !ctx.handshake.discovery_roots.includes(k));
  if (missing.length > 0)
    fail(
      `a Level 3 harness must support every discovery root; handshake lacks ${missing.join(', ')}`,
      KINDS,
      ctx.handshake.discovery_roots,
    );
}

function rootDir(ctx: CaseContext, kind: RootKind): string {
  const ws = ctx.workspace;
  return kind === 'project' ? ws.projectAgents : kind === 'plugin' ? ws.roots.plugin[0]! : ws.roots[kind];
}

const real = (p: string): string => {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
};

const fourRoots: CaseDef = {
  id: 'L3-G3/managed-user-plugin-roots-discovered',
  requirements: ['L3-G3'],
  clauses: ['L3-G3.managed', 'L3-G3.user', 'L3-G3.plugin'],
  title: 'A profile in each of the managed, user and plugin roots is discovered there and instantiates by name',
  fixtures: ['l3-g3-four-roots'],
  expectation: Object.fromEntries(BEYOND_PROJECT.map((k) => [`g3-in-${k}`, k])),
  async run(ctx) {
    requireAllRoots(ctx);
    // All four roots are populated (a harness must cope with that); three are judged.
    for (const k of KINDS) writeProfile(rootDir(ctx, k), minimalProfile(`g3-in-${k}`), workingEncoding(ctx.handshake));
    const found = await ctx.adapter.call('discover', { workspace: ctx.workspace.dir, roots: claimedRoots(ctx) });
    for (const k of BEYOND_PROJECT) {
      const p = found.profiles.find((x) => x.name === `g3-in-${k}`);
      if (!p)
        fail(
          `profile g3-in-${k} from the ${k} root was not discovered`,
          `g3-in-${k}`,
          found.profiles.map((x) => x.name),
        );
      expectEqual(p.root, k, `root reported for g3-in-${k}`);
      const s = mustInstantiate(await instantiateName(ctx, `g3-in-${k}`, permissivePolicy()), `instantiate g3-in-${k} by name`);
      expectEqual(s.session.name, `g3-in-${k}`, 'session name');
      if (s.session.path !== undefined) {
        expectTrue(real(s.session.path).startsWith(real(rootDir(ctx, k))), `g3-in-${k} was loaded from outside the ${k} root`, {
          expected: rootDir(ctx, k),
          observed: s.session.path,
        });
      }
    }
  },
};

const basesFromEveryRoot: CaseDef = {
  id: 'L3-G3/extends-resolves-bases-in-every-root',
  requirements: ['L3-G3'],
  clauses: ['L3-G3.managed', 'L3-G3.user', 'L3-G3.plugin'],
  title: 'A user-root profile extends bases that live in the managed, user and plugin roots',
  fixtures: ['l3-g3-bases'],
  expectation: { prompt_contains: ['G3-MANAGED-OBJECTIVE', 'G3-USER-CONSTRAINT', 'G3-PLUGIN-TONE'] },
  async run(ctx) {
    requireAllRoots(ctx);
    const ws = ctx.workspace;
    const encoding = workingEncoding(ctx.handshake);
    // No two bases set the same field, so only "was this base found" decides the markers.
    writeProfile(ws.roots.managed, minimalProfile('g3-managed-base', { role: { objectives: ['Marker G3-MANAGED-OBJECTIVE'] } }), encoding);
    writeProfile(ws.roots.user, minimalProfile('g3-user-base', { role: { constraints: ['Marker G3-USER-CONSTRAINT'] } }), encoding);
    writeProfile(ws.roots.plugin[0]!, minimalProfile('g3-plugin-base', { role: { persona: { tone: 'Marker G3-PLUGIN-TONE' } } }), encoding);
    writeProfile(
      ws.roots.user,
      minimalProfile('g3-composite', {}, { extends: [{ name: 'g3-managed-base' }, { name: 'g3-user-base' }, { name: 'g3-plugin-base' }] }),
      encoding,
    );
    const s = mustInstantiate(
      await instantiateName(ctx, 'g3-composite', permissivePolicy()),
      'user profile extending bases from three roots',
    );
    const own = promptWithoutState(s);
    for (const m of ['G3-MANAGED-OBJECTIVE', 'G3-USER-CONSTRAINT', 'G3-PLUGIN-TONE']) {
      expectTrue(own.includes(m), `base material ${m} missing: its root was not searched`, { expected: m, observed: own });
    }
  },
};

export const rootCases: CaseDef[] = [fourRoots, basesFromEveryRoot];

/**
 * L3-G3: the managed, user, project and plugin discovery roots are all supported. Precedence and
 * collision reporting between roots are L1-D2/D3's verdicts and the project root is L1-D1's, so
 * here the three roots beyond project (managed, user, plugin) must each contribute profiles to
 * discovery, to instantiation by name, and to `extends` resolution: one case per root and use, so a
 * verdict names the root that was missed.
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
const BEYOND_PROJECT = ['managed', 'user', 'plugin'] as const;
type BeyondProject = (typeof BEYOND_PROJECT)[number];

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

/** A profile in each of the four roots (a harness must cope with all of them at once); the one in `kind`'s root is judged. */
function discoveredIn(kind: BeyondProject): CaseDef {
  const name = `g3-in-${kind}`;
  return {
    id: `L3-G3/${kind}-root-discovered`,
    requirements: ['L3-G3'],
    clauses: [`L3-G3.${kind}` as const],
    title: `A profile in the ${kind} root is discovered there and instantiates by name, beside one in every other root`,
    fixtures: ['l3-g3-four-roots'],
    expectation: { [name]: kind },
    async run(ctx) {
      requireAllRoots(ctx);
      for (const k of KINDS) writeProfile(rootDir(ctx, k), minimalProfile(`g3-in-${k}`), workingEncoding(ctx.handshake));
      const found = await ctx.adapter.call('discover', { workspace: ctx.workspace.dir, roots: claimedRoots(ctx) });
      const p = found.profiles.find((x) => x.name === name);
      if (!p)
        fail(
          `profile ${name} from the ${kind} root was not discovered`,
          name,
          found.profiles.map((x) => x.name),
        );
      expectEqual(p.root, kind, `root reported for ${name}`);
      const s = mustInstantiate(await instantiateName(ctx, name, permissivePolicy()), `instantiate ${name} by name`);
      expectEqual(s.session.name, name, 'session name');
      if (s.session.path !== undefined) {
        expectTrue(real(s.session.path).startsWith(real(rootDir(ctx, kind))), `${name} was loaded from outside the ${kind} root`, {
          expected: rootDir(ctx, kind),
          observed: s.session.path,
        });
      }
    },
  };
}

/** The marker a base contributes, in a role field the child leaves alone. */
const BASE_MARKER: Record<BeyondProject, string> = {
  managed: 'G3-MANAGED-OBJECTIVE',
  user: 'G3-USER-OBJECTIVE',
  plugin: 'G3-PLUGIN-OBJECTIVE',
};

/**
 * A user-root profile extends one base, in `kind`'s root. One base per case: a base that is not
 * found makes the child fail to instantiate, so a case over all three could not say which root was
 * missed.
 */
function baseFoundIn(kind: BeyondProject): CaseDef {
  const marker = BASE_MARKER[kind];
  return {
    id: `L3-G3/extends-base-in-${kind}-root`,
    requirements: ['L3-G3'],
    clauses: [`L3-G3.${kind}` as const],
    title: `A user-root profile extends a base that lives in the ${kind} root`,
    fixtures: ['l3-g3-bases'],
    expectation: { prompt_contains: [marker] },
    async run(ctx) {
      requireAllRoots(ctx);
      const encoding = workingEncoding(ctx.handshake);
      const base = `g3-${kind}-base`;
      writeProfile(rootDir(ctx, kind), minimalProfile(base, { role: { objectives: [`Marker ${marker}`] } }), encoding);
      writeProfile(ctx.workspace.roots.user, minimalProfile('g3-composite', {}, { extends: [{ name: base }] }), encoding);
      const s = mustInstantiate(
        await instantiateName(ctx, 'g3-composite', permissivePolicy()),
        `user profile extending a base in the ${kind} root`,
      );
      const own = promptWithoutState(s);
      expectTrue(own.includes(marker), `base material ${marker} missing: the ${kind} root was not searched`, {
        expected: marker,
        observed: own,
      });
    },
  };
}

export const rootCases: CaseDef[] = [...BEYOND_PROJECT.map(discoveredIn), ...BEYOND_PROJECT.map(baseFoundIn)];

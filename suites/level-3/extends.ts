/**
 * L3-E1: `extends` merge rules (SPEC 4). Merges are observed through role material in the prompt
 * (instructions, objectives, persona, constraints) under a fully permissive policy, where no
 * narrowing can interfere, and through the session record. Tool arrays (behavioural test 13) are
 * compared with standalone equivalents observed in the same run.
 */
import { basename } from 'node:path';
import { expectEqual, expectTrue, fail } from '../kit/assert.js';
import type { CaseContext, CaseDef } from '../kit/types.js';
import type { ClauseId } from '../../spec/requirements.js';
import { type FixtureOf, fixture, fixtureDocument } from '../../fixtures/index.js';
import { installFixture } from './lib/fixtures.js';
import { sameSet } from './lib/sets.js';
import { requireDiscovered } from './lib/preconditions.js';
import { mustReject } from './lib/session.js';
import {
  instantiateName,
  minimalProfile,
  mustInstantiate,
  permissivePolicy,
  inconclusive,
  promptWithoutState,
  requireObservable,
  writeProjectProfile,
} from '../support/index.js';

function fixtureCase(id: string, fixtureId: string, clauses: ClauseId[], title: string, about?: CaseDef['about']): CaseDef {
  const f = fixture('level-3', fixtureId);
  return {
    id,
    requirements: [f.requirements[0]!],
    clauses,
    title,
    ...(about ? { about } : {}),
    fixtures: [f.id],
    expectation: f.expect,
    run: (ctx) => runExtendsFixture(ctx, f),
  };
}

async function runExtendsFixture(ctx: CaseContext, f: FixtureOf<'level-3'>): Promise<void> {
  installFixture(ctx.workspace, f);
  await requireDiscovered(
    ctx,
    f.files.map((rel) => basename(rel).replace(/\.agent\.ya?ml$/, '')),
  );
  const out = await instantiateName(ctx, f.entry!, permissivePolicy());
  const x = f.expect;
  if (x.outcome === 'rejected') {
    const r = mustReject(out, x.category ?? 'other', `${f.id}: instantiate ${f.entry}`);
    ctx.note(
      'errors',
      r.errors.map((e) => ({ category: e.category, pointer: e.pointer })),
    );
    return;
  }
  const s = mustInstantiate(out, `${f.id}: instantiate ${f.entry}`);
  const own = promptWithoutState(s);
  for (const m of x.prompt_contains ?? [])
    expectTrue(own.includes(m), `${f.id}: prompt lacks merged marker ${m}`, { expected: m, observed: own });
  for (const m of x.prompt_lacks ?? [])
    expectTrue(!own.includes(m), `${f.id}: prompt carries ${m}, which the merge should have replaced or deleted`, {
      expected: `no ${m}`,
      observed: own,
    });
  for (const m of x.whole_prompt_lacks ?? [])
    expectTrue(!s.prompt.text.includes(m), `${f.id}: prompt carries ${m} from the base, which is never inherited`, {
      expected: `no ${m}`,
      observed: s.prompt.text,
    });
  if (x.session?.name !== undefined) expectEqual(s.session.name, x.session.name, `${f.id}: session name`);
  if (x.session?.revision !== undefined) {
    // Inheritance shows as a base's revision; any other wrong number is how the session records a
    // revision at all (a default other than 1), which is L1-I8's, not the merge's.
    const bases = f.files.map((_, i) => fixtureDocument(f, i)).filter((d) => (d['metadata'] as { name?: string }).name !== f.entry);
    const baseRevisions = bases.map((d) => (d['metadata'] as { revision?: number }).revision ?? 1);
    if (s.session.revision !== x.session.revision && !baseRevisions.includes(s.session.revision))
      inconclusive(
        `${f.id}: the session records revision ${s.session.revision}, neither the child's (${x.session.revision}) nor a base's (${baseRevisions.join(', ')}); how a session records a revision is L1-I8's`,
        undefined,
        'L1-I8',
      );
    expectEqual(s.session.revision, x.session.revision, `${f.id}: session revision (never inherited)`);
  }
  if (x.state_included !== undefined)
    expectEqual(s.prompt.state.included, x.state_included, `${f.id}: state entries injected (state is never inherited)`);
}

// ------------------------------------------------------------------ depth cap

/**
 * A chain of `links` extends links: e1-depth-0 extends e1-depth-1 ... extends e1-depth-<links>.
 * Only the topmost base carries a constraint, so an accepted chain proves the whole chain merged.
 */
function writeChain(ctx: CaseContext, links: number): void {
  for (let i = 0; i <= links; i++) {
    const role: Record<string, unknown> = { instructions: `Marker E1DEPTH-LEVEL-${i} instructions.\n` };
    if (i === links) role.constraints = ['Marker E1DEPTH-TOP-CONSTRAINT'];
    const doc = minimalProfile(`e1-depth-${i}`, { role }, i < links ? { extends: [{ name: `e1-depth-${i + 1}` }] } : {});
    writeProjectProfile(ctx, doc);
  }
}

const depthEight: CaseDef = {
  id: 'L3-E1/extends-depth-eight-accepted',
  requirements: ['L3-E1'],
  clauses: ['L3-E1.depth-cap'],
  title: 'A chain of exactly 8 extends links is within the cap and merges completely',
  fixtures: ['l3-e1-chain-8'],
  expectation: { outcome: 'instantiated', prompt_contains: ['E1DEPTH-LEVEL-0', 'E1DEPTH-TOP-CONSTRAINT'] },
  async run(ctx) {
    writeChain(ctx, 8);
    await requireDiscovered(ctx, ['e1-depth-0', 'e1-depth-8']);
    const s = mustInstantiate(await instantiateName(ctx, 'e1-depth-0', permissivePolicy()), 'chain of 8 links');
    const own = promptWithoutState(s);
    expectTrue(own.includes('E1DEPTH-LEVEL-0'), 'the leaf instructions must win', { observed: own });
    expectTrue(own.includes('E1DEPTH-TOP-CONSTRAINT'), 'the topmost base (8 links up) must be merged', { observed: own });
  },
};

const depthNine: CaseDef = {
  id: 'L3-E1/extends-depth-nine-rejected',
  requirements: ['L3-E1'],
  clauses: ['L3-E1.depth-cap'],
  title: 'A chain of 9 extends links exceeds the depth cap of 8 and is rejected (extends-depth)',
  fixtures: ['l3-e1-chain-9'],
  expectation: { outcome: 'rejected', category: 'extends-depth' },
  async run(ctx) {
    writeChain(ctx, 9);
    await requireDiscovered(ctx, ['e1-depth-0', 'e1-depth-9']);
    const r = mustReject(await instantiateName(ctx, 'e1-depth-0', permissivePolicy()), 'extends-depth', 'chain of 9 links');
    ctx.note(
      'errors',
      r.errors.map((e) => ({ category: e.category, pointer: e.pointer })),
    );
  },
};

// ------------------------------------------------------------------ behavioural test 13

const toolsArrayReplace: CaseDef = {
  id: 'L3-E1/tools-allow-array-replaces',
  requirements: ['L3-E1'],
  clauses: ['L3-E1.arrays-replace'],
  title: 'Behavioural test 13: base tools.allow [read, search], child [read] gives [read], not [read, search]',
  fixtures: ['l3-e1-tools-replace'],
  expectation: { inherited_tools: 'equal to the standalone profile with allow [read]' },
  async run(ctx) {
    const base = minimalProfile('e1-tr-base', { tools: { allow: ['read', 'search'] } });
    const child = minimalProfile('e1-tr-child', { tools: { allow: ['read'] } }, { extends: [{ name: 'e1-tr-base' }] });
    // Standalone equivalents of the two candidate merge results, observed under the same policy.
    const flatReplace = minimalProfile('e1-tr-flat-replace', { tools: { allow: ['read'] } });
    const flatConcat = minimalProfile('e1-tr-flat-concat', { tools: { allow: ['read', 'search'] } });
    for (const d of [base, child, flatReplace, flatConcat]) writeProjectProfile(ctx, d);
    await requireDiscovered(ctx, ['e1-tr-base', 'e1-tr-child', 'e1-tr-flat-replace', 'e1-tr-flat-concat']);
    const policy = permissivePolicy();
    const replace = mustInstantiate(await instantiateName(ctx, 'e1-tr-flat-replace', policy), 'standalone allow [read]').effective.tools;
    const concat = mustInstantiate(await instantiateName(ctx, 'e1-tr-flat-concat', policy), 'standalone allow [read, search]').effective
      .tools;
    requireObservable(
      !sameSet(replace, concat),
      'the adapter gives allow [read] and allow [read, search] the same tools, so a merge cannot be observed through tools (an L1-I2/I3 matter)',
    );
    const inherited = mustInstantiate(await instantiateName(ctx, 'e1-tr-child', policy), 'child of the tools base').effective.tools;
    ctx.note('tools', { inherited, replace, concat });
    if (!sameSet(inherited, replace)) {
      fail('inherited tools differ from the array-replace result', replace, inherited);
    }
  },
};

export const extendsCases: CaseDef[] = [
  fixtureCase(
    'L3-E1/objects-deep-merge',
    'l3-e1-deep-merge',
    ['L3-E1.deep-merge'],
    'Objects deep-merge: the child replaces the keys it sets, inherits the rest of spec.role',
  ),
  fixtureCase(
    'L3-E1/arrays-replace-wholesale',
    'l3-e1-arrays-replace',
    ['L3-E1.arrays-replace'],
    'Arrays replace: a child constraints list replaces the base list, it does not concatenate',
  ),
  fixtureCase(
    'L3-E1/null-deletes-key',
    'l3-e1-null-deletes',
    ['L3-E1.null-deletes'],
    'An explicit null in the child deletes the inherited key',
  ),
  fixtureCase(
    'L3-E1/bases-apply-left-to-right',
    'l3-e1-left-to-right',
    ['L3-E1.resolve'],
    'extends is applied left to right, then the document itself',
  ),
  fixtureCase(
    'L3-E1/identity-state-history-not-inherited',
    'l3-e1-identity',
    ['L3-E1.not-inherited'],
    'name, id, revision, state and history are never inherited',
    // The child leaves its revision out so that the base's cannot hide behind a default.
    ['optional-metadata'],
  ),
  fixtureCase(
    'L3-E1/diamond-is-not-a-cycle',
    'l3-e1-diamond',
    ['L3-E1.cycles'],
    'Two bases sharing an ancestor merge; a shared ancestor is not a cycle',
  ),
  fixtureCase('L3-E1/cycle-rejected', 'l3-e1-cycle', ['L3-E1.cycles'], 'A two-profile extends cycle is rejected (extends-cycle)'),
  fixtureCase(
    'L3-E1/self-extends-rejected',
    'l3-e1-self-cycle',
    ['L3-E1.cycles'],
    'A profile extending itself is rejected (extends-cycle)',
  ),
  fixtureCase(
    'L3-E1/missing-base-rejected',
    'l3-e1-missing-base',
    ['L3-E1.resolve'],
    'A base found in no discovery root is rejected (extends-missing)',
  ),
  depthEight,
  depthNine,
  toolsArrayReplace,
];

/**
 * L1-D1..D4: discovery roots, collisions and naming (conformance.md §2.2, SPEC §5.1).
 *
 * Every case that relies on the project root also places a sentinel profile there. When discovery
 * does not list the sentinel, the adapter does not search the project root at all: that is L1-D1's
 * failure, and the other cases are not applicable rather than failed, so a D1 defect fails D1 only.
 */
import type { Result } from '../../protocol/messages.js';
import { expectEqual, expectTrue, fail } from '../kit/assert.js';
import type { CaseContext, CaseDef } from '../kit/types.js';
import {
  claimedRoots,
  instantiateName,
  issuesCause,
  minimalProfile,
  profileFileName,
  requireObservable,
  requireSession,
  samePath,
  workingEncoding,
  writeProfile,
  writeProjectProfile,
} from '../support/index.js';

type Discovered = Result<'discover'>;

const SENTINEL = 'discovery-sentinel';

async function discoverAll(ctx: CaseContext): Promise<Discovered> {
  return ctx.adapter.call('discover', { workspace: ctx.workspace.dir, roots: claimedRoots(ctx) });
}

function placeSentinel(ctx: CaseContext): void {
  writeProjectProfile(ctx, minimalProfile(SENTINEL));
}

/** Inconclusive unless discovery searched the project root (L1-D1 judges that). */
function requireProjectRootSearched(found: Discovered): void {
  const sentinel = found.profiles.find((p) => p.name === SENTINEL);
  requireObservable(
    sentinel?.root === 'project',
    'discovery does not list the sentinel profile in the project root; L1-D1 judges that',
    sentinel
      ? `discover listed the sentinel in the ${sentinel.root} root`
      : issuesCause('discover did not list the sentinel', found.errors),
  );
}

/** A profile whose instructions carry a marker, so the prompt shows which definition ran. */
function marked(name: string, marker: string): Record<string, unknown> {
  return minimalProfile(name, { role: { instructions: `You are ${name}. Definition marker: ${marker}.` } });
}

function brief(found: Discovered): unknown {
  return {
    profiles: found.profiles.map((p) => ({ name: p.name, root: p.root })),
    collisions: found.collisions.map((c) => ({ name: c.name, scope: c.scope, winner: c.winner })),
  };
}

// ---------------------------------------------------------------- L1-D1

const d1ProjectRoot: CaseDef = {
  id: 'L1-D1/project-root-profile-found',
  requirements: ['L1-D1'],
  clauses: ['L1-D1.project-root'],
  title: 'A profile in <workspace>/.agents/ is discovered in the project root and instantiates by name',
  expectation: { profiles: [{ name: 'project-helper', root: 'project' }], instantiateByName: 'instantiated' },
  async run(ctx) {
    const path = writeProjectProfile(ctx, marked('project-helper', 'D1-PROJECT'));
    const found = await discoverAll(ctx);
    const entry = found.profiles.find((p) => p.name === 'project-helper');
    if (!entry) fail('the project-root profile is not discovered', { name: 'project-helper', root: 'project' }, brief(found));
    expectEqual(entry.root, 'project', 'root of the discovered profile');
    expectTrue(samePath(entry.path, path), 'the discovered path is the file in <workspace>/.agents/', {
      expected: path,
      observed: entry.path,
    });
    const session = requireSession(await instantiateName(ctx, 'project-helper'), 'instantiate by name');
    expectEqual(session.session.name, 'project-helper', 'session name');
    expectTrue(session.prompt.text.includes('D1-PROJECT'), 'the instantiated prompt comes from the project-root file', {
      expected: 'prompt contains the file’s instructions',
    });
  },
};

const d1MalformedSibling: CaseDef = {
  id: 'L1-D1/malformed-sibling-does-not-hide-profiles',
  requirements: ['L1-D1'],
  clauses: ['L1-D1.project-root'],
  title: 'A file that does not parse and one that does not validate do not hide a valid profile beside them',
  expectation: { profiles: [{ name: 'steady-helper', root: 'project' }], notListed: ['broken', 'invalid-sibling'] },
  async run(ctx) {
    const encoding = workingEncoding(ctx.handshake);
    // Sorted first, so a resolver that stops at the first bad file misses the good one.
    ctx.workspace.writeFile(
      `${ctx.workspace.projectAgents}/${profileFileName('aaa-broken', encoding)}`,
      encoding === 'json' ? '{"oap": "1.0", "kind": ' : 'oap: "1.0"\nkind: [AgentProfile\n  metadata: {\n',
    );
    writeProfile(
      ctx.workspace.projectAgents,
      minimalProfile('invalid-sibling', { tools: { policy: 'everything' } }),
      encoding,
      'aab-invalid-sibling',
    );
    writeProjectProfile(ctx, minimalProfile('steady-helper'));
    const found = await discoverAll(ctx);
    ctx.note(
      'errors',
      found.errors.map((e) => ({ category: e.category, path: e.path })),
    );
    const entry = found.profiles.find((p) => p.name === 'steady-helper');
    if (!entry) fail('a valid profile is hidden by broken siblings', { name: 'steady-helper', root: 'project' }, brief(found));
    expectEqual(entry.root, 'project', 'root of the valid profile');
    requireSession(await instantiateName(ctx, 'steady-helper'), 'instantiate the valid profile by name');
  },
};

// ---------------------------------------------------------------- L1-D2

const d2WithinRoot: CaseDef = {
  id: 'L1-D2/same-name-in-project-root-is-error',
  requirements: ['L1-D2'],
  clauses: ['L1-D2.within-root-error'],
  title: 'Two files with one metadata.name in the project root: an error, a within-root collision, no winner',
  expectation: {
    collision: { name: 'twin', scope: 'within-root', winner: null, paths: 2 },
    errorCategory: 'collision',
    profilesNamed: { twin: 0 },
    instantiateByName: 'rejected',
  },
  async run(ctx) {
    placeSentinel(ctx);
    const encoding = workingEncoding(ctx.handshake);
    // Both file names match metadata.name where the encoding allows it (.yaml and .yml), so the
    // collision does not depend on how the adapter treats file names (L1-D4).
    const [first, second] =
      encoding === 'yaml'
        ? [
            ctx.workspace.writeDocument(ctx.workspace.projectAgents, 'twin.agent.yaml', marked('twin', 'TWIN-ONE'), 'yaml'),
            ctx.workspace.writeDocument(ctx.workspace.projectAgents, 'twin.agent.yml', marked('twin', 'TWIN-TWO'), 'yaml'),
          ]
        : [
            writeProfile(ctx.workspace.projectAgents, marked('twin', 'TWIN-ONE'), workingEncoding(ctx.handshake), 'twin'),
            writeProfile(ctx.workspace.projectAgents, marked('twin', 'TWIN-TWO'), workingEncoding(ctx.handshake), 'twin-copy'),
          ];
    const found = await discoverAll(ctx);
    requireProjectRootSearched(found);
    const collision = found.collisions.find((c) => c.name === 'twin' && c.scope === 'within-root');
    if (!collision) fail('no within-root collision reported for "twin"', { name: 'twin', scope: 'within-root' }, brief(found));
    expectEqual(collision.winner, null, 'winner of a within-root collision');
    expectTrue(
      collision.paths.some((p) => samePath(p, first)) && collision.paths.some((p) => samePath(p, second)),
      'the collision names both files',
      { expected: [first, second], observed: collision.paths },
    );
    expectTrue(
      found.errors.some((e) => e.category === 'collision'),
      'the collision is reported as an error (category collision)',
      {
        expected: { category: 'collision' },
        observed: found.errors.map((e) => e.category),
      },
    );
    const listed = found.profiles.filter((p) => p.name === 'twin');
    expectEqual(listed.length, 0, 'profiles listed under the colliding name (no silent winner)');
    const out = await instantiateName(ctx, 'twin');
    expectEqual(out.status, 'rejected', 'instantiate by the colliding name');
  },
};

// ---------------------------------------------------------------- L1-D3

type RootName = 'managed' | 'user' | 'project';

function crossRootCase(lower: RootName, higher: RootName): CaseDef {
  const name = `shared-${lower}-${higher}`;
  return {
    id: `L1-D3/${higher}-over-${lower}`,
    requirements: ['L1-D3'],
    clauses: ['L1-D3.precedence', 'L1-D3.reported'],
    title: `One name in the ${lower} and ${higher} roots: the ${higher} definition wins and the collision is reported`,
    needs: { roots: [...new Set<RootName>([lower, higher, 'project'])] },
    expectation: { winner: { root: higher }, collision: { scope: 'across-roots', winner: `${higher} file` } },
    async run(ctx) {
      placeSentinel(ctx);
      const dirOf = (r: RootName): string => (r === 'project' ? ctx.workspace.projectAgents : ctx.workspace.roots[r]);
      const lowerPath = writeProfile(dirOf(lower), marked(name, `FROM-${lower.toUpperCase()}`), workingEncoding(ctx.handshake), name);
      const higherPath = writeProfile(dirOf(higher), marked(name, `FROM-${higher.toUpperCase()}`), workingEncoding(ctx.handshake), name);
      const found = await discoverAll(ctx);
      requireProjectRootSearched(found);
      const entry = found.profiles.find((p) => p.name === name);
      if (!entry) fail(`"${name}" is not discovered`, { name, root: higher }, brief(found));
      expectEqual(entry.root, higher, `root of the winning definition of "${name}"`);
      expectTrue(samePath(entry.path, higherPath), 'the winning path is the higher-precedence file', {
        expected: higherPath,
        observed: entry.path,
      });
      const collision = found.collisions.find((c) => c.name === name && c.scope === 'across-roots');
      if (!collision) fail('the cross-root collision is not reported', { name, scope: 'across-roots' }, brief(found));
      expectTrue(collision.winner !== null && samePath(collision.winner, higherPath), 'the reported winner is the higher-precedence file', {
        expected: higherPath,
        observed: collision.winner,
      });
      expectTrue(
        collision.paths.some((p) => samePath(p, lowerPath)) && collision.paths.some((p) => samePath(p, higherPath)),
        'the collision names both files',
        { expected: [lowerPath, higherPath], observed: collision.paths },
      );
      // The definition that runs is the winner's.
      const session = requireSession(await instantiateName(ctx, name), 'instantiate by the shared name');
      const text = session.prompt.text;
      expectTrue(
        text.includes(`FROM-${higher.toUpperCase()}`) && !text.includes(`FROM-${lower.toUpperCase()}`),
        `the session runs the ${higher} definition`,
        { expected: `FROM-${higher.toUpperCase()}`, observed: text.slice(0, 400) },
      );
    },
  };
}

// ---------------------------------------------------------------- L1-D4

const d4NameWins: CaseDef = {
  id: 'L1-D4/metadata-name-over-file-name',
  requirements: ['L1-D4'],
  clauses: ['L1-D4.name-wins'],
  title: 'A file named nickname.agent.* whose metadata.name is real-name is listed and instantiated as real-name',
  expectation: { profiles: [{ name: 'real-name', file_name_matches: false }], notListed: ['nickname'], instantiateByName: 'real-name' },
  async run(ctx) {
    placeSentinel(ctx);
    const path = writeProfile(ctx.workspace.projectAgents, marked('real-name', 'D4-REAL'), workingEncoding(ctx.handshake), 'nickname');
    const found = await discoverAll(ctx);
    requireProjectRootSearched(found);
    const entry = found.profiles.find((p) => samePath(p.path, path));
    if (!entry) fail('the mismatched file is not discovered', { name: 'real-name' }, brief(found));
    expectEqual(entry.name, 'real-name', 'name the profile is listed under');
    expectEqual(entry.file_name_matches, false, 'file_name_matches for nickname.agent.* holding real-name');
    expectTrue(!found.profiles.some((p) => p.name === 'nickname'), 'no profile is listed under the file name', { observed: brief(found) });
    const session = requireSession(await instantiateName(ctx, 'real-name'), 'instantiate by metadata.name');
    expectEqual(session.session.name, 'real-name', 'session name');
    // SHOULD warn: recorded for the report, not judged.
    ctx.note(
      'warned',
      found.warnings.some((w) => w.path !== undefined && samePath(w.path, path)) ||
        found.warnings.some((w) => w.pointer === '/metadata/name'),
    );
  },
};

export const discoveryCases: CaseDef[] = [
  d1ProjectRoot,
  d1MalformedSibling,
  d2WithinRoot,
  crossRootCase('user', 'project'),
  crossRootCase('managed', 'user'),
  crossRootCase('managed', 'project'),
  d4NameWins,
];

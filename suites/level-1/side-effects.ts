/**
 * L1-I11: resolution performs no installs, network writes or file creation (SPEC §5.2,
 * security.md T2). The profile declares everything that could tempt a resolver into a side
 * effect: skills with a download source and one whose package is vendored in the workspace, MCP
 * servers (one whose command would leave a marker file if it were run, one reached over HTTP),
 * context files, external documents and a store with a URI. The whole case tree (workspace, HOME,
 * every discovery root) is snapshotted around validate, discover and instantiate, and a local HTTP
 * server records every request those URIs attract. Each clause is its own case over the same
 * bait, so a verdict names the side effect.
 *
 * Ignored: the adapter's TMPDIR and its XDG cache/state directories (<home>/.cache,
 * <home>/.local/state), which a harness may use for its own bookkeeping; what they hold is
 * recorded as a note. A file in a discovery root, the workspace or the config directory is a
 * failure.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expectEqual, fail } from '../kit/assert.js';
import type { InstantiateOutcomeT } from '../../protocol/messages.js';
import type { CaseContext, CaseDef } from '../kit/types.js';
import { diffSnapshots, serializeDocument, type SnapshotDiff } from '../kit/workspace.js';
import {
  claimedRoots,
  instantiatePath,
  minimalProfile,
  permissivePolicy,
  profileFileName,
  workingEncoding,
  writeProjectProfile,
} from '../support/index.js';

interface Recorded {
  method: string;
  url: string;
}

async function withRecordingServer<T>(fn: (base: string, requests: Recorded[]) => Promise<T>): Promise<T> {
  const requests: Recorded[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    requests.push({ method: req.method ?? '?', url: req.url ?? '' });
    req.resume();
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not here\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    return await fn(`http://127.0.0.1:${port}`, requests);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

const BOOKKEEPING = [/^tmp(\/|$)/, /^home\/\.cache(\/|$)/, /^home\/\.local\/state(\/|$)/];
const isBookkeeping = (p: string): boolean => BOOKKEEPING.some((re) => re.test(p));

/** The skill whose package sits in the workspace: an installing harness would copy it next to the profile. */
const VENDORED_SKILL = 'vendored-lint';

function tempting(ctx: CaseContext, base: string): Record<string, unknown> {
  const marker = join(ctx.workspace.dir, 'MCP_SERVER_WAS_LAUNCHED');
  return minimalProfile('side-effect-bait', {
    tools: {
      policy: 'allowlist',
      allow: ['read', 'mcp/tracker/*', 'mcp/search/*'],
      skills: [
        { name: 'pdf-forms', source: `${base}/skills/pdf-forms.tgz` },
        { name: 'changelog-style', source: `${base}/skills/changelog-style.tgz` },
        { name: VENDORED_SKILL, source: `./vendor/skills/${VENDORED_SKILL}` },
      ],
      mcp_servers: [
        { name: 'tracker', transport: 'stdio', command: '/bin/sh', args: ['-c', `echo launched > '${marker}'`] },
        { name: 'search', transport: 'http', url: `${base}/mcp/search`, headers: { Authorization: 'Bearer ${SEARCH_TOKEN}' } },
      ],
    },
    context: {
      files: [
        { path: 'docs/guide.md', mode: 'always' },
        { path: 'docs/not-yet-written.md', mode: 'on_demand' },
      ],
      documents: [{ uri: `${base}/docs/handbook.md`, mode: 'on_demand' }],
    },
    memory: { mode: 'read_only', stores: [{ name: 'team-index', kind: 'vector', uri: `${base}/index`, required: false }] },
  });
}

function describeDiff(d: SnapshotDiff): unknown {
  return { created: d.created, changed: d.changed, removed: d.removed };
}

/** What resolving the bait left: the file changes (bookkeeping aside), every request the server saw, the session. */
interface BaitRun {
  diff: SnapshotDiff;
  requests: Recorded[];
  session: InstantiateOutcomeT;
}

/** The case's own request that closes the recording: see `settle`. */
const SETTLE = '/.end-of-resolution';

/**
 * A request the harness sent during resolution may still sit unread in the server's socket when the
 * harness answers (the server shares the event loop with an in-process adapter). The case's own
 * request, sent after the answer, is served only after every earlier connection was accepted and
 * read, so the log is complete once it comes back.
 */
async function settle(base: string, requests: Recorded[]): Promise<Recorded[]> {
  await (await fetch(`${base}${SETTLE}`)).arrayBuffer();
  return requests.filter((r) => r.url !== SETTLE);
}

/** validate, discover and instantiate the bait profile, with the case tree snapshotted around them. */
async function resolveBait(ctx: CaseContext): Promise<BaitRun> {
  return withRecordingServer(async (base, requests) => {
    ctx.workspace.writeFile(join(ctx.workspace.dir, 'docs', 'guide.md'), '# Guide\n');
    ctx.workspace.writeFile(
      join(ctx.workspace.dir, 'vendor', 'skills', VENDORED_SKILL, 'SKILL.md'),
      `---\nname: ${VENDORED_SKILL}\ndescription: a skill package vendored in the workspace\n---\nLint the change.\n`,
    );
    const doc = tempting(ctx, base);
    const path = writeProjectProfile(ctx, doc);
    const encoding = workingEncoding(ctx.handshake);
    const policy = permissivePolicy({
      skills: [{ name: 'changelog-style' }],
      env: { SEARCH_TOKEN: 'from-the-environment' },
      mcp: { catalog: { tracker: ['list'], search: ['query'] }, auto_launch: false },
      memory: {
        mode: 'read_write',
        scopes: [],
        store_kinds: ['oap-state', 'vector'],
        stores: [{ name: 'team-index', kind: 'vector', reachable: true }],
      },
    });
    const before = ctx.workspace.snapshot();
    await ctx.adapter.call('validate', { document: { content: serializeDocument(doc, encoding), encoding } });
    await ctx.adapter.call('discover', { workspace: ctx.workspace.dir, roots: claimedRoots(ctx) });
    const session = await instantiatePath(ctx, path, policy);
    ctx.note('instantiate', session.status);
    const after = ctx.workspace.snapshot();
    ctx.note('bookkeeping', describeDiff(diffSnapshots(before, after, (p) => !isBookkeeping(p))));
    const seen = await settle(base, requests);
    ctx.note('requests', seen);
    return { diff: diffSnapshots(before, after, isBookkeeping), requests: seen, session };
  });
}

const EXPECTATION =
  'validate, discover and instantiate of a profile declaring skills (remote and vendored), MCP servers, files, documents and a store';

const createsNoFile: CaseDef = {
  id: 'L1-I11/resolution-creates-no-file',
  requirements: ['L1-I11'],
  clauses: ['L1-I11.no-file-creation'],
  title: `${EXPECTATION} create, change or remove no file`,
  expectation: { filesCreatedOrChanged: [] },
  async run(ctx) {
    const { diff } = await resolveBait(ctx);
    if (diff.created.length || diff.changed.length || diff.removed.length) {
      fail('resolution created, changed or removed files', { created: [], changed: [], removed: [] }, describeDiff(diff));
    }
  },
};

const sendsNoNetworkWrite: CaseDef = {
  id: 'L1-I11/resolution-sends-no-network-writes',
  requirements: ['L1-I11'],
  clauses: ['L1-I11.no-network-writes'],
  title: `${EXPECTATION} send no request other than GET or HEAD to the URIs it names`,
  expectation: { nonGetRequests: [] },
  async run(ctx) {
    const { requests } = await resolveBait(ctx);
    const writes = requests.filter((r) => !['GET', 'HEAD'].includes(r.method));
    expectEqual(writes, [], 'network requests other than GET/HEAD during resolution');
  },
};

const installsNoSkill: CaseDef = {
  id: 'L1-I11/resolution-installs-no-skill',
  requirements: ['L1-I11'],
  clauses: ['L1-I11.no-installs'],
  title: `${EXPECTATION} fetch no skill package, copy none and report no missing skill present`,
  expectation: { requestsToSkillSources: [], skillFilesCreatedOrChanged: [], missingSkillsReportedPresent: [] },
  async run(ctx) {
    const { diff, requests, session } = await resolveBait(ctx);
    const fetched = requests.filter((r) => r.url.startsWith('/skills/'));
    expectEqual(fetched, [], 'requests for skill packages (a missing skill is reported, never fetched)');
    // Any other file is the no-file-creation clause's; a skill package copied somewhere is an install.
    const copied = [...diff.created, ...diff.changed].filter((p) => p.includes(VENDORED_SKILL) || /(^|\/)SKILL\.md$/i.test(p));
    expectEqual(copied, [], 'skill files created or changed (the vendored package copied as an install)');
    const present =
      session.status === 'instantiated' ? session.effective.skills.filter((k) => k.status === 'present').map((k) => k.name) : [];
    expectEqual(
      present.filter((n) => n !== 'changelog-style'),
      [],
      'skills reported present that the harness policy does not install',
    );
  },
};

const validateAloneLeavesNoTrace: CaseDef = {
  id: 'L1-I11/discovery-over-all-roots-leaves-no-trace',
  requirements: ['L1-I11'],
  clauses: ['L1-I11.no-file-creation'],
  title: 'Discovering and validating profiles in every claimed root creates no file anywhere (no caches, indexes or lock files)',
  expectation: { filesCreatedOrChanged: [] },
  async run(ctx) {
    const roots = claimedRoots(ctx);
    writeProjectProfile(ctx, minimalProfile('quiet-project'));
    const encoding = workingEncoding(ctx.handshake);
    for (const [kind, dir] of [
      ['managed', roots.managed],
      ['user', roots.user],
    ] as const) {
      if (dir) ctx.workspace.writeDocument(dir, profileFileName(`quiet-${kind}`, encoding), minimalProfile(`quiet-${kind}`), encoding);
    }
    const before = ctx.workspace.snapshot();
    await ctx.adapter.call('discover', { workspace: ctx.workspace.dir, roots });
    await ctx.adapter.call('discover', { workspace: ctx.workspace.dir, roots });
    await ctx.adapter.call('validate', {
      document: { path: join(ctx.workspace.projectAgents, profileFileName('quiet-project', encoding)) },
    });
    const diff = diffSnapshots(before, ctx.workspace.snapshot(), isBookkeeping);
    if (diff.created.length || diff.changed.length || diff.removed.length) {
      fail('discovery or validation created, changed or removed files', { created: [], changed: [], removed: [] }, describeDiff(diff));
    }
  },
};

export const sideEffectCases: CaseDef[] = [createsNoFile, sendsNoNetworkWrite, installsNoSkill, validateAloneLeavesNoTrace];

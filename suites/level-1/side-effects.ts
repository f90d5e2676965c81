/**
 * L1-I11: resolution performs no installs, network writes or file creation (SPEC §5.2,
 * security.md T2). The profile declares everything that could tempt a resolver into a side
 * effect: skills with a download source, MCP servers (one whose command would leave a marker file
 * if it were run, one reached over HTTP), context files and external documents. The whole case
 * tree (workspace, HOME, every discovery root) is snapshotted around validate, discover and
 * instantiate, and a local HTTP server records every request those URIs attract.
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

function tempting(ctx: CaseContext, base: string): Record<string, unknown> {
  const marker = join(ctx.workspace.dir, 'MCP_SERVER_WAS_LAUNCHED');
  return minimalProfile('side-effect-bait', {
    tools: {
      policy: 'allowlist',
      allow: ['read', 'mcp/tracker/*', 'mcp/search/*'],
      skills: [
        { name: 'pdf-forms', source: `${base}/skills/pdf-forms.tgz` },
        { name: 'changelog-style', source: `${base}/skills/changelog-style.tgz` },
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

const noSideEffects: CaseDef = {
  id: 'L1-I11/resolution-leaves-no-trace',
  requirements: ['L1-I11'],
  clauses: ['L1-I11.no-installs', 'L1-I11.no-network-writes', 'L1-I11.no-file-creation'],
  title:
    'validate, discover and instantiate of a profile declaring skills, MCP servers, files and documents create or change no file and send no writes',
  expectation: { filesCreatedOrChanged: [], requestsToSkillSources: [], nonGetRequests: [] },
  async run(ctx) {
    await withRecordingServer(async (base, requests) => {
      ctx.workspace.writeFile(join(ctx.workspace.dir, 'docs', 'guide.md'), '# Guide\n');
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
      const outcome = await instantiatePath(ctx, path, policy);
      ctx.note('instantiate', outcome.status);
      const after = ctx.workspace.snapshot();
      ctx.note('bookkeeping', describeDiff(diffSnapshots(before, after, (p) => !isBookkeeping(p))));
      const diff = diffSnapshots(before, after, isBookkeeping);
      if (diff.created.length || diff.changed.length || diff.removed.length) {
        fail('resolution created, changed or removed files', { created: [], changed: [], removed: [] }, describeDiff(diff));
      }
      ctx.note('requests', requests);
      const writes = requests.filter((r) => !['GET', 'HEAD'].includes(r.method));
      expectEqual(writes, [], 'network requests other than GET/HEAD during resolution');
      const installs = requests.filter((r) => r.url.startsWith('/skills/'));
      expectEqual(installs, [], 'requests for skill packages (a missing skill is reported, never fetched)');
    });
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

export const sideEffectCases: CaseDef[] = [noSideEffects, validateAloneLeavesNoTrace];

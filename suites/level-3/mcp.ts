/**
 * L3-M1 (MUST): MCP servers over stdio and http, per-server tools.allow/deny, ${VAR} resolution.
 * L3-M2 (SHOULD): launching servers declared by project or imported profiles needs confirmation.
 *
 * The policy grants every tool the harness has, so the tools a session gets are decided by the
 * MCP declarations alone and no L1-I2/I3 narrowing can change the verdict. Profile allow entries
 * are globs (`mcp/<server>/*`), the selection SPEC 3.4 names for a whole server. Besides the tools
 * each server must offer (support), the session's whole answer is judged against the spec model's
 * prediction (spec/semantics/contract.ts): a server or MCP tool beyond what the declarations allow
 * fails L3-M1, and a widening elsewhere is another requirement's (the case is then inconclusive).
 */
import type { EffectiveContractT, HarnessPolicyT, InstantiatedT } from '../../protocol/messages.js';
import { contractFindings, predictContract } from '../../spec/semantics/index.js';
import { expectEqual, expectTrue, fail } from '../kit/assert.js';
import type { CaseContext, CaseDef } from '../kit/types.js';
import { sorted } from './lib/sets.js';
import { requireDiscovered } from './lib/preconditions.js';
import {
  STANDARD_TOOLS,
  briefIssues,
  expectContract,
  instantiateName,
  instantiatePath,
  minimalProfile,
  mustInstantiate,
  nameOf,
  permissivePolicy,
  requireObservable,
  requireSession,
  workingEncoding,
  writeProfile,
  writeProjectProfile,
} from '../support/index.js';

const CATALOG: Record<string, string[]> = {
  files: ['read_file', 'list_dir', 'write_file', 'delete_file'],
  tickets: ['search', 'create', 'close'],
};

const mcpName = (server: string, tool: string): string => `mcp/${server}/${tool}`;

function mcpPolicy(env: Record<string, string>): HarnessPolicyT {
  const mcpTools = Object.entries(CATALOG).flatMap(([s, ts]) => ts.map((t) => mcpName(s, t)));
  return permissivePolicy({
    tools: { available: [...STANDARD_TOOLS, ...mcpTools], grant: ['*', '*/*', '**'] },
    mcp: { catalog: CATALOG, auto_launch: true },
    env,
  });
}

const FULL_ENV = { FILES_TOKEN: 'files-token-value', TICKETS_TOKEN: 'tickets-token-value' };

interface ServerFilters {
  files?: { allow?: string[]; deny?: string[] };
  tickets?: { allow?: string[]; deny?: string[] };
}

function mcpProfile(name: string, filters: ServerFilters = {}): Record<string, unknown> {
  return minimalProfile(name, {
    tools: {
      allow: ['read', 'mcp/files/*', 'mcp/tickets/*'],
      mcp_servers: [
        {
          name: 'files',
          transport: 'stdio',
          command: 'oap-files-mcp',
          args: ['--root', '.'],
          env: { FILES_TOKEN: '${FILES_TOKEN}' },
          ...(filters.files ? { tools: filters.files } : {}),
        },
        {
          name: 'tickets',
          transport: 'http',
          url: 'https://tickets.example.com/mcp',
          headers: { Authorization: 'Bearer ${TICKETS_TOKEN}' },
          ...(filters.tickets ? { tools: filters.tickets } : {}),
        },
      ],
    },
  });
}

/** Trusted location: the user root (launch gating is L3-M2's business, not M1's). */
async function writeUserProfile(ctx: CaseContext, doc: Record<string, unknown>): Promise<void> {
  writeProfile(ctx.workspace.roots.user, doc, workingEncoding(ctx.handshake));
  await requireDiscovered(ctx, [nameOf(doc)]);
}

function server(eff: EffectiveContractT, name: string): EffectiveContractT['mcp_servers'][number] | undefined {
  return eff.mcp_servers.find((s) => s.name === name);
}

function mcpToolsOf(eff: EffectiveContractT, serverName: string): string[] {
  return sorted(eff.tools.filter((t) => t.startsWith(`mcp/${serverName}/`)));
}

/** The whole answer of a session of the user-root profile `doc` under `policy`, judged for L3-M1. */
function expectWithinDeclarations(ctx: CaseContext, doc: Record<string, unknown>, policy: HarnessPolicyT, s: InstantiatedT): void {
  const prediction = predictContract({ spec: doc['spec'], policy, trust: 'user' });
  expectContract(ctx, contractFindings(s.effective, prediction), {
    requirements: ['L3-M1'],
    dimensions: ['/mcp_servers', '/tools'],
    what: 'MCP servers and their tools',
  });
}

function expectServerTools(s: InstantiatedT, name: string, transport: 'stdio' | 'http', tools: string[]): void {
  const entry = server(s.effective, name);
  if (!entry) fail(`MCP server ${name} is missing from effective.mcp_servers`, { name, transport }, s.effective.mcp_servers);
  expectEqual(entry.transport, transport, `transport of MCP server ${name}`);
  const expected = sorted(tools.map((t) => mcpName(name, t)));
  expectEqual(sorted(entry.tools), expected, `effective tools of MCP server ${name}`);
  expectEqual(mcpToolsOf(s.effective, name), expected, `mcp/${name}/* entries of effective.tools`);
}

const stdioAndHttp: CaseDef = {
  id: 'L3-M1/stdio-and-http-servers',
  requirements: ['L3-M1'],
  clauses: ['L3-M1.stdio', 'L3-M1.http'],
  title: 'A stdio and an http MCP server both become part of the session with every tool they advertise',
  fixtures: ['l3-m1-two-transports'],
  expectation: { files: { transport: 'stdio', tools: CATALOG.files }, tickets: { transport: 'http', tools: CATALOG.tickets } },
  async run(ctx) {
    const doc = mcpProfile('m1-transports');
    await writeUserProfile(ctx, doc);
    const s = mustInstantiate(await instantiateName(ctx, 'm1-transports', mcpPolicy(FULL_ENV)), 'profile with two MCP servers');
    expectServerTools(s, 'files', 'stdio', CATALOG.files!);
    expectServerTools(s, 'tickets', 'http', CATALOG.tickets!);
    expectWithinDeclarations(ctx, doc, mcpPolicy(FULL_ENV), s);
  },
};

const perServerFilters: CaseDef = {
  id: 'L3-M1/per-server-allow-deny',
  requirements: ['L3-M1'],
  clauses: ['L3-M1.tool-allow-deny'],
  title: "Each server's tools.allow and tools.deny decide which of its tools the session gets",
  fixtures: ['l3-m1-server-filters'],
  expectation: { files: ['list_dir', 'read_file'], tickets: ['search'] },
  async run(ctx) {
    const doc = mcpProfile('m1-filters', {
      files: { allow: ['read_file', 'list_dir', 'write_file'], deny: ['write_file'] },
      tickets: { deny: ['create', 'close'] },
    });
    await writeUserProfile(ctx, doc);
    const s = mustInstantiate(await instantiateName(ctx, 'm1-filters', mcpPolicy(FULL_ENV)), 'profile with filtered MCP servers');
    expectWithinDeclarations(ctx, doc, mcpPolicy(FULL_ENV), s);
    expectServerTools(s, 'files', 'stdio', ['list_dir', 'read_file']);
    expectServerTools(s, 'tickets', 'http', ['search']);
  },
};

/** The declared servers of mcpProfile, by transport: the variable each reads and where it is declared. */
const SERVERS = {
  stdio: { name: 'files', variable: 'FILES_TOKEN', index: 0 },
  http: { name: 'tickets', variable: 'TICKETS_TOKEN', index: 1 },
} as const;
type Transport = keyof typeof SERVERS;

/**
 * SPEC 5.2 step 6 for one transport: the server of that transport loses its variable, the other
 * keeps its own, so a harness that resolves `${VAR}` for one transport only fails the other's case.
 */
function envResolution(transport: Transport): CaseDef {
  const gone = SERVERS[transport];
  const kept = SERVERS[transport === 'stdio' ? 'http' : 'stdio'];
  const keptTransport: Transport = transport === 'stdio' ? 'http' : 'stdio';
  const at = `/spec/tools/mcp_servers/${gone.index}`;
  return {
    id: `L3-M1/${transport}-env-reference-resolution`,
    requirements: ['L3-M1'],
    clauses: [`L3-M1.${transport}`],
    title: `A ${transport} server whose \${VAR} is missing is dropped and reported (or instantiation is rejected); the server whose variable is set is kept`,
    fixtures: ['l3-m1-env'],
    expectation: {
      [kept.name]: 'kept',
      [gone.name]: `dropped with env-missing warning or adjustment at ${at}, or instantiation rejected`,
    },
    async run(ctx) {
      const doc = mcpProfile(`m1-env-${transport}`);
      await writeUserProfile(ctx, doc);
      // Control: the same profile with every variable set. A harness that refuses it cannot show
      // what a missing variable does (an L3-M1 matter of the other cases).
      requireSession(
        await instantiateName(ctx, `m1-env-${transport}`, mcpPolicy(FULL_ENV), { role: 'control' }),
        'the profile with every ${VAR} set',
      );
      const partial = mcpPolicy({ [kept.variable]: FULL_ENV[kept.variable] });
      const out = await instantiateName(ctx, `m1-env-${transport}`, partial);
      if (out.status === 'rejected') {
        // SPEC 5.2 step 6: an error is right when the harness treats the server as required. The
        // control differs by the missing variable alone, so the category is recorded, not required
        // (INTERPRETATIONS.md, issue categories).
        ctx.note('outcome', { rejected: briefIssues(out.errors) });
        return;
      }
      expectWithinDeclarations(ctx, doc, partial, out);
      expectServerTools(out, kept.name, keptTransport, CATALOG[kept.name]!);
      expectTrue(
        server(out.effective, gone.name) === undefined,
        `server ${gone.name} kept although \${${gone.variable}} cannot be resolved`,
        {
          observed: out.effective.mcp_servers,
        },
      );
      expectEqual(mcpToolsOf(out.effective, gone.name), [], 'tools of the dropped server');
      const warned = out.warnings.some((w) => w.category === 'env-missing' && w.pointer.startsWith(at));
      const adjusted = out.adjustments.some((a) => a.pointer.startsWith(at) && a.action === 'dropped');
      ctx.note('report', { warned, adjusted });
      expectTrue(warned || adjusted, 'the dropped server is neither warned about (env-missing) nor recorded as dropped', {
        expected: { warning: { category: 'env-missing', pointer: at } },
        observed: { warnings: briefIssues(out.warnings), adjustments: out.adjustments.map((a) => a.pointer) },
      });
    },
  };
}

// ------------------------------------------------------------------ L3-M2 (SHOULD)

function expectAllConfirm(s: InstantiatedT, trust: string): void {
  requireObservable(
    s.effective.mcp_servers.length > 0,
    'no MCP server survived instantiation, so launch gating cannot be observed (an L3-M1 matter)',
  );
  const auto = s.effective.mcp_servers.filter((x) => x.launch !== 'confirm').map((x) => x.name);
  if (auto.length > 0)
    fail(
      `servers of a ${trust} profile launch without confirmation: ${auto.join(', ')}`,
      'confirm',
      s.effective.mcp_servers.map((x) => ({ name: x.name, launch: x.launch })),
    );
}

const projectConfirm: CaseDef = {
  id: 'L3-M2/project-profile-launch-confirm',
  requirements: ['L3-M2'],
  clauses: ['L3-M2.project'],
  title: 'MCP servers of a project profile need confirmation even when the harness auto-launches',
  fixtures: ['l3-m2-project'],
  expectation: { launch: 'confirm', trust: 'project', auto_launch: true },
  async run(ctx) {
    const doc = mcpProfile('m2-project');
    writeProjectProfile(ctx, doc);
    await requireDiscovered(ctx, ['m2-project']);
    const s = mustInstantiate(await instantiateName(ctx, 'm2-project', mcpPolicy(FULL_ENV)), 'project profile with MCP servers');
    expectAllConfirm(s, 'project');
  },
};

const importedConfirm: CaseDef = {
  id: 'L3-M2/imported-profile-launch-confirm',
  requirements: ['L3-M2'],
  clauses: ['L3-M2.imported'],
  title: 'MCP servers of an imported profile (outside every root) need confirmation',
  fixtures: ['l3-m2-imported'],
  // Loading a profile from outside every root is optional (no sentence requires it).
  needs: { outsideRoots: true },
  expectation: { launch: 'confirm', trust: 'imported', auto_launch: true },
  async run(ctx) {
    const path = writeProfile(`${ctx.workspace.root}/downloads`, mcpProfile('m2-imported'), workingEncoding(ctx.handshake));
    const s = mustInstantiate(await instantiatePath(ctx, path, mcpPolicy(FULL_ENV)), 'imported profile with MCP servers');
    expectAllConfirm(s, 'imported');
  },
};

export const mcpCases: CaseDef[] = [
  stdioAndHttp,
  perServerFilters,
  envResolution('stdio'),
  envResolution('http'),
  projectConfirm,
  importedConfirm,
];

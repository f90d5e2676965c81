/**
 * A tiny but honest OAP harness, written with the TypeScript SDK. Level 1 claim, JSON encoding,
 * project discovery root only. It validates structurally (see profile-check.ts), instantiates
 * profiles whose spec is only `role.instructions`, and declines everything else, so a full suite
 * run reports its gaps as skips rather than passes.
 *
 *   in-process:  oap-conform smoke --adapter harnesses/examples/ts/example-adapter.ts   (uses the compiled .js)
 *   over stdio:  oap-conform smoke --adapter "node dist/harnesses/examples/ts/example-adapter.js"
 *
 * It imports the SDK by a path inside this repository; an adapter in your own project imports
 * 'oap-conform/sdk' instead (see `oap-conform init --lang ts`).
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import canonicalize from 'canonicalize';
import {
  AdapterDecline,
  PROTOCOL_VERSION,
  PromptBuilder,
  RPC_ERROR,
  RpcError,
  defineAdapter,
  isMain,
  serveStdio,
  type AdapterIssueT,
  type InProcessAdapter,
  type Params,
  type Result,
} from '../../../sdk/ts/index.js';
import { checkProfile, parseJsonProfile, type Profile } from './profile-check.js';

type Instantiated = Extract<Result<'instantiate'>, { status: 'instantiated' }>;
type Policy = Params<'instantiate'>['policy'];
type Located = { profile: Profile; path: string; trust: Instantiated['session']['trust'] };

const UNIMPLEMENTED = [
  'full JSON Schema validation (structural checks only)',
  'yaml and md encodings',
  'managed, user and plugin discovery roots',
  'profiles whose spec has anything beyond role.instructions',
  'state, deltas and write-back (Level 2)',
  'extends, MCP, skills, external memory, delegation (Level 3)',
];

function readSource(source: Params<'validate'>['document']): string {
  if ('content' in source) {
    if (source.encoding !== 'json') throw new AdapterDecline('skipped', `the example harness reads JSON only, not ${source.encoding}`);
    return source.content;
  }
  if (!source.path.endsWith('.json')) throw new AdapterDecline('skipped', 'the example harness reads .agent.json files only');
  return readFileSync(source.path, 'utf8');
}

/**
 * SPEC 2.2 spec digest (what `session.spec_digest` reports), the harness's own like everything else
 * here: the runner judges it against its own (L1-I8). `sha256:` + hex SHA-256 of the RFC 8785 (JCS)
 * form of `{metadata, spec}`, metadata without the applicator-owned `revision` and `updated_at` and
 * the resolver-owned `trust`. The profile comes from JSON.parse, so it holds JSON data only.
 */
export function specDigest(profile: Profile): string {
  const metadata = Object.fromEntries(Object.entries(profile.metadata).filter(([k]) => !['revision', 'updated_at', 'trust'].includes(k)));
  const canonical = canonicalize({ metadata, spec: profile.spec });
  if (canonical === undefined) throw new Error('the profile has no JSON form');
  return `sha256:${createHash('sha256').update(canonical, 'utf8').digest('hex')}`;
}

function within(dir: string, file: string): boolean {
  const d = resolve(dir) + sep;
  return resolve(file).startsWith(d);
}

/** Find a profile by name in <project>/.agents/ or read it from a path. */
function locate(params: Params<'instantiate'>): Located | { errors: AdapterIssueT[] } {
  const project = params.roots.project ?? params.workspace;
  const agentsDir = join(project, '.agents');
  if ('path' in params.profile) {
    const out = parseJsonProfile(readFileSync(params.profile.path, 'utf8'));
    if (!out.profile) return { errors: out.errors };
    return { profile: out.profile, path: params.profile.path, trust: within(agentsDir, params.profile.path) ? 'project' : 'imported' };
  }
  const wanted = params.profile.name;
  const found: Located[] = [];
  const files = existsSync(agentsDir)
    ? readdirSync(agentsDir)
        .filter((f) => f.endsWith('.agent.json'))
        .sort()
    : [];
  for (const file of files) {
    const path = join(agentsDir, file);
    const out = parseJsonProfile(readFileSync(path, 'utf8'));
    if (out.profile?.metadata.name === wanted) found.push({ profile: out.profile, path, trust: 'project' });
  }
  if (found.length === 0) return { errors: [{ category: 'io', pointer: '', message: `no profile named ${wanted} in ${agentsDir}` }] };
  if (found.length > 1)
    return {
      errors: [
        { category: 'collision', pointer: '/metadata/name', message: `${found.length} profiles named ${wanted} in the project root` },
      ],
    };
  return found[0]!;
}

function instantiate(params: Params<'instantiate'>, loc: Located): Instantiated {
  const { profile } = loc;
  const extra = Object.keys(profile.spec).filter((k) => k !== 'role');
  const roleExtra = Object.keys(profile.spec.role).filter((k) => k !== 'instructions');
  if (extra.length || roleExtra.length || profile.state !== undefined || profile.extends !== undefined) {
    throw new AdapterDecline('skipped', 'the example harness instantiates only profiles whose spec is just role.instructions');
  }
  const policy: Policy = params.policy;
  const perms = policy.permissions;
  const b = policy.budgets;
  const prompt = new PromptBuilder()
    .section('preamble', 'You are running in the oap-conform example harness. Follow the harness rules below.', true)
    .section('instructions', profile.spec.role.instructions, true)
    .section('postamble', 'Harness rules: never act outside the workspace.', true)
    .build();
  return {
    status: 'instantiated',
    session_id: randomUUID(),
    session: {
      name: profile.metadata.name,
      revision: profile.metadata.revision ?? 1,
      spec_digest: specDigest(profile),
      trust: loc.trust,
      path: loc.path,
    },
    effective: {
      // allowlist is the default policy and the profile allows nothing, so no tools.
      tools: [],
      permissions: {
        default: perms.default,
        shell: perms.shell ?? perms.default,
        edit: perms.edit ?? perms.default,
        network: perms.network ?? perms.default,
      },
      rules: (perms.rules ?? []).map((r) => ({
        tool: r.tool ?? '*',
        action: r.action ?? '*',
        target: r.target ?? '*',
        decision: r.decision,
      })),
      filesystem: { read_roots: [...policy.filesystem.read_roots], write_roots: [...policy.filesystem.write_roots], deny_paths: [] },
      hosts: [],
      memory: { mode: 'off', scopes: [], stores: [] },
      budgets: {
        max_turns: b.max_turns ?? null,
        max_tool_calls: b.max_tool_calls ?? null,
        timeout_seconds: b.timeout_seconds ?? null,
        max_cost_usd: b.max_cost_usd ?? null,
        max_context_tokens: b.max_context_tokens ?? null,
        max_state_tokens: b.max_state_tokens ?? null,
        max_state_bytes: b.max_state_bytes ?? null,
      },
      // No spec.model: SPEC 3.3 rule 4, the harness default.
      model: { ...policy.models.default, rule: 4 },
      mcp_servers: [],
      skills: [],
      subagents: { allow: [], max_depth: policy.subagents.max_depth, max_concurrent: policy.subagents.max_concurrent },
      writeback: 'propose',
    },
    prompt,
    adjustments: [],
    warnings: [],
  };
}

export default function createExampleAdapter(): InProcessAdapter {
  return defineAdapter({
    initialize: (p) => {
      if (!p.protocol_versions.includes(PROTOCOL_VERSION)) {
        throw new RpcError(RPC_ERROR.UNSUPPORTED_PROTOCOL_VERSION, `this adapter speaks protocol ${PROTOCOL_VERSION} only`);
      }
      return {
        protocol_version: PROTOCOL_VERSION,
        implementation: { name: 'oap-example-ts', version: '0.1.0', language: 'typescript' },
        level: 1,
        encodings: ['json'],
        discovery_roots: ['project'],
        unimplemented: UNIMPLEMENTED,
      };
    },
    validate: (p) => {
      const out = parseJsonProfile(readSource(p.document));
      return { valid: out.errors.length === 0, ...(out.profile ? { kind: out.profile.kind } : {}), errors: out.errors, warnings: [] };
    },
    instantiate: (p) => {
      const loc = locate(p);
      if ('errors' in loc) return { status: 'rejected', errors: loc.errors, warnings: [] };
      return instantiate(p, loc);
    },
  });
}

export { checkProfile };

if (isMain(import.meta.url)) {
  await serveStdio(createExampleAdapter());
}

/**
 * fast-check arbitraries for the narrowing properties: harness policies and profile requests over
 * small shared universes, so that requests and policies overlap often enough to matter. Every
 * arbitrary yields plain JSON (no undefined members) so that inputs can be stored in findings.
 */
import fc from 'fast-check';
import type { HarnessPolicyT } from '../../protocol/messages.js';
import { STANDARD_TOOLS } from '../../suites/support/index.js';
import { catalogueNumbers, catalogueProfileMembers, catalogueStrings } from './catalogue-values.js';

const MCP_TOOLS = ['mcp/github/issues', 'mcp/github/pulls', 'mcp/fs/read', 'mcp/fs/write'];
const TOOL_UNIVERSE = [...STANDARD_TOOLS, ...MCP_TOOLS];
/** Grant globs a harness might configure: the policy's own format, so any pattern of the glob dialect. */
const GRANT_PATTERNS = [
  ...new Set([
    ...['*', '*/*', '**', 'git/*', 'mcp/*/*', 'mcp/github/*', 'read', 'edit', 'shell', 'web/fetch', 'git/diff'],
    // The catalogue's grant classes: the empty pattern, letter case, braces and extglobs read literally, `?`, classes.
    ...catalogueStrings('glob.tool-names', 'policy:/tools/grant'),
  ]),
];
/**
 * What profiles ask for: names (some the harness lacks) and only globs every dialect reads alike
 * (`seg/*`, `mcp/<server>/*`), since the spec fixes no dialect for a profile's allow/deny.
 */
const REQUEST_PATTERNS = [...TOOL_UNIVERSE, 'git/*', 'web/*', 'mcp/github/*', 'mcp/fs/*', 'teleport', 'mcp/evil/exfiltrate'];
const ROOTS = ['.', 'src', 'src/lib', 'src/lib/deep', 'docs', 'build/out', 'tests'];
/**
 * Profile-side roots also come in non-normal spellings that name a wider root than they look like.
 * Escaping roots are not generated here: the oracle rejects them as documents (L1-I5/T6 territory,
 * fuzzed by the traversal property), so they would only be discarded.
 */
const REQUEST_ROOTS = [
  ...new Set([
    ...[...ROOTS, './src', 'src/', 'src/../docs', 'src/lib/..', 'src//lib', 'other'],
    // The catalogue's root classes that stay inside the workspace (segment prefixes, trailing separators, literal `%2e` and `~`).
    ...['read_roots', 'write_roots'].flatMap((k) => catalogueProfileMembers(`filesystem.${k}`, `/spec/permissions/filesystem/${k}`)),
  ]),
];
/** The policy's hosts, with the catalogue's policy-side host classes but the bare `*` (under it every apex is allowed, which a profile wildcard's undecided dialect would then meet). */
const POLICY_HOSTS = [
  ...new Set([
    ...['api.example.com', 'docs.example.org', '*.example.net', '*.corp.example.com'],
    ...catalogueStrings('network.hosts', 'policy:/network/allow_hosts').filter((h) => h !== '*'),
  ]),
];
/**
 * Profile-side host patterns. The policy's `*.d` is the protocol's and never covers `d`; a
 * profile's is the spec's, which fixes no dialect, so no request leaves an apex the policy may
 * allow covered by a wildcard alone (`withApexes`). Other apexes (`com`, `example.net`) no policy
 * here allows, so every reading agrees on them.
 */
const REQUEST_HOSTS = [
  ...POLICY_HOSTS,
  'a.example.net',
  '*.a.example.net',
  'build.corp.example.com',
  'evil.example.org',
  '*.com',
  '*.org',
  'api.example.com.evil.org',
];
const SCOPES = [
  ...new Set(['project:acme', 'user:global', 'team:platform', 'org:all', ...catalogueStrings('memory.scopes', 'policy:/memory/scopes')]),
];
/** Profile scopes: the catalogue's classes (letter case, surrounding space, namespace prefixes, glob-looking scopes) beside unknown ones. */
const REQUEST_SCOPES = [
  ...new Set([...SCOPES, 'org:secret', 'user:other', ...catalogueStrings('memory.scopes', 'profile:/spec/memory/scopes')]),
];

/** `*.a.example.net` always comes with `a.example.net`, the one apex a generated policy can allow. */
function withApexes(hosts: string[]): string[] {
  return hosts.includes('*.a.example.net') && !hosts.includes('a.example.net') ? [...hosts, 'a.example.net'] : hosts;
}

const decision = fc.constantFrom('deny' as const, 'ask' as const, 'allow' as const);
const memoryMode = fc.constantFrom('off' as const, 'read_only' as const, 'read_write' as const);
const sub = <T>(xs: readonly T[], minLength = 0) => fc.subarray([...xs], { minLength });

/**
 * A number drawn from the generator's own range, or (one time in four) from the catalogue's classes
 * of that field on that side (zero, one, the schema's edges, 2^31, 2^53 - 1, a seeded value), at
 * least `min`: the fuzzer meets the boundaries the fixed cases are generated from.
 */
function withClasses(range: fc.Arbitrary<number>, dimension: string, key: string, min = 0): fc.Arbitrary<number> {
  const classes = catalogueNumbers(dimension, key).filter((n) => n >= min);
  return classes.length === 0 ? range : fc.oneof({ arbitrary: range, weight: 3 }, { arbitrary: fc.constantFrom(...classes), weight: 1 });
}

/** A policy budget: its range beside the catalogue's policy-side classes of budgets.<name>. */
const policyBudget = (name: string, range: fc.Arbitrary<number>): fc.Arbitrary<number> =>
  withClasses(range, `budgets.${name}`, `policy:/budgets/${name}`);

/** A profile budget at `pointer`: its range beside the catalogue's profile-side classes of budgets.<name>. */
const profileBudget = (name: string, pointer: string, range: fc.Arbitrary<number>): fc.Arbitrary<number> =>
  withClasses(range, `budgets.${name}`, `profile:${pointer}`);

export function policyArb(): fc.Arbitrary<HarnessPolicyT> {
  return fc
    .record({
      available: sub(TOOL_UNIVERSE, 1),
      grant: sub(GRANT_PATTERNS),
      permissions: fc.record({ default: decision, shell: decision, edit: decision, network: decision }, { requiredKeys: ['default'] }),
      read_roots: sub(ROOTS),
      write_roots: sub(ROOTS),
      hosts: sub(POLICY_HOSTS),
      memoryMode,
      scopes: sub(SCOPES),
      budgets: fc.record(
        {
          max_turns: policyBudget('max_turns', fc.integer({ min: 1, max: 50 })),
          max_tool_calls: policyBudget('max_tool_calls', fc.integer({ min: 0, max: 50 })),
          timeout_seconds: policyBudget('timeout_seconds', fc.integer({ min: 1, max: 600 })),
          max_cost_usd: policyBudget('max_cost_usd', fc.constantFrom(0.5, 1, 2.5, 10)),
          max_context_tokens: policyBudget('max_context_tokens', fc.integer({ min: 1, max: 200000 })),
          max_state_tokens: policyBudget('max_state_tokens', fc.integer({ min: 0, max: 4000 })),
          max_state_bytes: policyBudget('max_state_bytes', fc.integer({ min: 0, max: 20000 })),
        },
        { requiredKeys: [] },
      ),
      // At least 1: a limit of 0 refuses every subagent, and the delegation properties delegate.
      max_depth: withClasses(fc.integer({ min: 1, max: 8 }), 'subagents.limits', 'policy:/subagents/max_depth', 1),
      max_concurrent: withClasses(fc.integer({ min: 1, max: 64 }), 'subagents.limits', 'policy:/subagents/max_concurrent', 1),
    })
    .map((p) => basePolicy(p));
}

function basePolicy(p: {
  available: string[];
  grant: string[];
  permissions: HarnessPolicyT['permissions'];
  read_roots: string[];
  write_roots: string[];
  hosts: string[];
  memoryMode: 'off' | 'read_only' | 'read_write';
  scopes: string[];
  budgets: HarnessPolicyT['budgets'];
  max_depth: number;
  max_concurrent: number;
}): HarnessPolicyT {
  return {
    tools: { available: p.available, grant: p.grant },
    permissions: { ...p.permissions, rules: [] },
    filesystem: { read_roots: p.read_roots, write_roots: p.write_roots, allow_absolute: false },
    network: { allow_hosts: p.hosts },
    memory: { mode: p.memoryMode, scopes: p.scopes, store_kinds: ['oap-state', 'vector'], stores: [] },
    budgets: p.budgets,
    models: {
      available: [{ provider: 'anthropic', id: 'claude-sonnet-5' }],
      tiers: { standard: { provider: 'anthropic', id: 'claude-sonnet-5' } },
      default: { provider: 'local', id: 'default-model' },
    },
    skills: [],
    hooks: [],
    subagents: { max_depth: p.max_depth, max_concurrent: p.max_concurrent },
    mcp: { catalog: {}, auto_launch: false },
    env: {},
  };
}

/** The parts of `spec` that a narrowing property reads; everything optional, as in the schema. */
export function specRequestArb(subagentNames: string[] = []): fc.Arbitrary<Record<string, unknown>> {
  const tools = fc.record(
    {
      policy: fc.constantFrom('allowlist' as const, 'denylist' as const, 'inherit' as const),
      allow: sub(REQUEST_PATTERNS),
      deny: sub(REQUEST_PATTERNS),
    },
    { requiredKeys: [] },
  );
  const permissions = fc.record(
    {
      default: decision,
      shell: decision,
      edit: decision,
      network: decision,
      filesystem: fc.record({ read_roots: sub(REQUEST_ROOTS), write_roots: sub(REQUEST_ROOTS) }, { requiredKeys: [] }),
      allow_hosts: sub(REQUEST_HOSTS).map(withApexes),
    },
    { requiredKeys: [] },
  );
  const memory = fc.record({ mode: memoryMode, scopes: sub(REQUEST_SCOPES) }, { requiredKeys: [] });
  const runtime = fc.record(
    {
      max_turns: profileBudget('max_turns', '/spec/runtime/max_turns', fc.integer({ min: 1, max: 80 })),
      max_tool_calls: profileBudget('max_tool_calls', '/spec/runtime/max_tool_calls', fc.integer({ min: 0, max: 80 })),
      timeout_seconds: profileBudget('timeout_seconds', '/spec/runtime/timeout_seconds', fc.integer({ min: 1, max: 900 })),
      max_cost_usd: profileBudget('max_cost_usd', '/spec/runtime/max_cost_usd', fc.constantFrom(0.25, 1, 5, 20)),
      subagents: fc.record(
        {
          allow: sub(subagentNames),
          max_depth: withClasses(fc.integer({ min: 1, max: 8 }), 'subagents.limits', 'profile:/spec/runtime/subagents/max_depth', 1),
          max_concurrent: withClasses(
            fc.integer({ min: 1, max: 64 }),
            'subagents.limits',
            'profile:/spec/runtime/subagents/max_concurrent',
            1,
          ),
        },
        { requiredKeys: [] },
      ),
    },
    { requiredKeys: [] },
  );
  const context = fc.record(
    {
      budget: fc.record(
        {
          max_context_tokens: profileBudget(
            'max_context_tokens',
            '/spec/context/budget/max_context_tokens',
            fc.integer({ min: 1, max: 300000 }),
          ),
          max_state_tokens: profileBudget('max_state_tokens', '/spec/context/budget/max_state_tokens', fc.integer({ min: 0, max: 8000 })),
          max_state_bytes: profileBudget('max_state_bytes', '/spec/context/budget/max_state_bytes', fc.integer({ min: 0, max: 40000 })),
        },
        { requiredKeys: [] },
      ),
    },
    { requiredKeys: [] },
  );
  return fc.record({ tools, permissions, memory, runtime, context }, { requiredKeys: [] });
}

export const encodingArb = fc.constantFrom('yaml' as const, 'json' as const, 'md' as const);

/**
 * Issue 20 part 4: mutants found by walking the boundary catalogue (spec/semantics/*.catalogue.ts,
 * the grammar boundaries of spec/document/schema-bounds.ts). Each is one realistic defect at one
 * edge of one dimension, in one rule of the reference's table, grouped by the catalogue's families.
 * MUTANTS.md has a row for each (the catalogue class it came from and the IDs it must fail); the
 * ones whose cases have not come yet carry `awaiting`.
 */
import { extname, isAbsolute } from 'node:path';
import { issue } from '../../spec/document/issue.js';
import { DEFAULT_MAX_HISTORY, decodePointer, globMatch, historyByRevision, timeOf, tierRoute } from '../../spec/semantics/index.js';
import { isObject } from '../reference/json.js';
import type { Granted, RootKey } from '../reference/rules.js';
import type { Trust } from '../reference/roots.js';
import { ofCategory } from '../reference/rules/documents.js';
import { expandBraces, naiveGlob, normalizeAsFilePath, retainWithTtl } from './behaviours.js';
import { type Mutant, mutant } from './mutant.js';
import { lowerCaseTimestampIssues, utf16LengthIssues, valuesAtPlace } from './validators.js';

const DAY_MS = 86_400_000;

/** The schema's agent name (`$defs/agentName`): 1 to 64 characters, first and last a letter or digit. */
const AGENT_NAME = /^[a-z0-9](?:[a-z0-9._-]{0,62}[a-z0-9])?$/;

/** The places a profile holds an agent name: its own and each base's. */
const agentNames = (doc: unknown) => [...valuesAtPlace(doc, '/metadata/name'), ...valuesAtPlace(doc, '/extends/*/name')];

/** The pointers at one schema place whose value `loose` accepts. */
function acceptedAt(doc: unknown, place: string, loose: RegExp): Set<string> {
  return new Set(
    valuesAtPlace(doc, place)
      .filter(({ value }) => typeof value === 'string' && loose.test(value))
      .map(({ pointer }) => pointer),
  );
}

/** A model the harness serves, compared by the given key. */
const servedBy =
  (available: ReadonlyArray<{ provider: string; id: string }>, key: (s: string) => string) => (ref: { provider: string; id: string }) =>
    available.some((a) => key(a.provider) === key(ref.provider) && key(a.id) === key(ref.id));

/** Dropped entries of an intersection that a looser containment keeps, moved back into its value. */
function keepDropped(out: Granted<string[]>, loose: (entry: string) => boolean): Granted<string[]> {
  const kept = out.adjustments.filter((a) => a.action === 'dropped' && typeof a.requested === 'string' && loose(a.requested));
  return {
    value: [...out.value, ...kept.map((a) => a.requested as string)],
    adjustments: out.adjustments.filter((a) => !kept.includes(a)),
  };
}

const DEFINED: readonly Mutant[] = [
  // ---------------------------------------------------------------- presence and defaults
  mutant(
    'empty-roots-list-means-whole-workspace',
    'intersectRoots',
    (reference) => (requested, limit, ctx) => reference(requested?.length === 0 ? undefined : requested, limit, ctx),
    ['L1-I3'],
    "A profile's `read_roots: []` or `write_roots: []` is read like an absent list: the ceiling's roots stand instead of none.",
  ),
  mutant(
    'empty-scopes-means-all',
    'memoryScopes',
    (reference) => (requested, ceiling, ctx) => reference(requested?.length === 0 ? undefined : requested, ceiling, ctx),
    ['L1-I3', 'L3-Y1'],
    "`memory.scopes: []` is read like an absent list: the ceiling's scopes stand instead of none.",
  ),
  mutant(
    'policy-category-unset-means-allow',
    'policyDecision',
    (reference) => (permissions, key) => (key !== 'default' && permissions[key] === undefined ? 'allow' : reference(permissions, key)),
    ['L1-I3'],
    "A permission category the harness policy leaves unset is `allow`, not the policy's `default`.",
  ),
  mutant(
    'max-history-absent-unlimited',
    'keptHistory',
    (reference) => (history, retention) => (retention.max_history === undefined ? [...history] : reference(history, retention)),
    ['L2-A11'],
    'History is trimmed only when `max_history` is written: the default of 50 is never applied.',
  ),
  mutant(
    'model-half-exact-treated-as-exact',
    'modelChoice',
    (reference) => (request, models) => {
      const served = request?.id === undefined ? models.available.find((m) => m.provider === request?.provider) : undefined;
      return served ? { provider: served.provider, id: served.id, rule: 1 } : reference(request, models);
    },
    ['L1-I12'],
    '`spec.model` with a `provider` and no `id` takes the first model the harness serves from that provider and reports rule 1.',
  ),
  mutant(
    'fact-ttl-from-last-used',
    'retain',
    () => (state, retention, now) =>
      retainWithTtl(state, retention, now, (f) => {
        const from = timeOf(f['last_used_at'] ?? f['learned_at']);
        return from !== Number.NEGATIVE_INFINITY && from + (retention.fact_ttl_days ?? 0) * DAY_MS < Date.parse(now);
      }),
    ['L2-A9'],
    '`fact_ttl_days` is measured from `last_used_at` when a fact has one: a fact used recently but learned long ago outlives its TTL.',
  ),

  mutant(
    'lone-instructions-in-preamble',
    'promptSections',
    (reference) => (steps) => {
      // The role gets sections of its own only when it has more than instructions to show.
      const own = steps.filter((s) => s.kind !== 'preamble' && s.kind !== 'harness' && s.kind !== 'state' && s.kind !== 'postamble');
      const [only] = own;
      if (own.length !== 1 || only?.kind !== 'instructions' || !steps.some((s) => s.kind === 'preamble')) return reference(steps);
      return reference(
        steps
          .filter((s) => s !== only)
          .map((s) => (s.kind === 'preamble' ? { kind: 'preamble' as const, content: `${s.content}\n\n${only.content}` } : s)),
      );
    },
    ['L1-I1'],
    'A role of instructions alone (no supplement rendered) is laid out inside the harness preamble: the text is the same, but the section map has no instructions section.',
  ),

  mutant(
    'empty-state-placeholder',
    'promptSections',
    (reference) => (steps) => {
      if (steps.some((s) => s.kind === 'state')) return reference(steps);
      // With nothing learned, a one-line placeholder stands where the state block would be.
      const at = steps.findIndex((s) => s.kind === 'postamble');
      const placeholder = { kind: 'state' as const, content: 'State: (none yet)' };
      return reference(at === -1 ? [...steps, placeholder] : [...steps.slice(0, at), placeholder, ...steps.slice(at)]);
    },
    ['L2-S2'],
    "A profile with no state entries gets a one-line placeholder as its state section, `State: (none yet)`, without the state block's delimiters.",
  ),

  // ---------------------------------------------------------------- numeric extremes
  mutant(
    'cost-budget-whole-dollars',
    'budget',
    (reference) => (requested, limit, ctx) => {
      if (ctx.key !== 'max_cost_usd') return reference(requested, limit, ctx);
      const whole = (n: number | null | undefined) => (typeof n === 'number' ? Math.round(n) : n);
      return reference(whole(requested) as number | undefined, whole(limit) as typeof limit, ctx);
    },
    ['L1-I3'],
    '`max_cost_usd` is kept in whole dollars (`Math.round`): a limit of 2.5 becomes 3, a request of 0.4 becomes 0.',
  ),
  mutant(
    'subagent-depth-off-by-one',
    'exceedsDelegationDepth',
    () => (levels, maxDepth) => levels > maxDepth + 1,
    ['L3-B2'],
    'Delegation depth is compared one level late: `max_depth` N allows depth N + 1.',
  ),
  mutant(
    'subagent-concurrency-off-by-one',
    'delegationConcurrencyAllowed',
    () => (live, maxConcurrent) => live <= maxConcurrent,
    ['L3-B2'],
    'Live subagents are compared with `<=` before adding one: `max_concurrent` N allows N + 1 at once.',
  ),
  mutant(
    'zero-state-budget-unlimited',
    'withinStateBudget',
    (reference) => (bytes, budgets) =>
      reference(bytes, { max_state_tokens: budgets.max_state_tokens || null, max_state_bytes: budgets.max_state_bytes || null }),
    ['L2-S4'],
    'At injection a state budget of 0 is falsy, so no limit: every state entry is injected (the effective budget is still reported as 0).',
  ),
  mutant(
    'state-bytes-counted-in-utf16',
    'stateBytes',
    () => (text) => text.length,
    ['L2-S4'],
    '`max_state_bytes` counts UTF-16 code units (`.length`), not UTF-8 bytes: non-ASCII state is undercounted and over-injected.',
  ),
  mutant(
    'ttl-in-whole-days',
    'retain',
    () => (state, retention, now) =>
      retainWithTtl(state, retention, now, (f) => {
        const learned = timeOf(f['learned_at']);
        return learned !== Number.NEGATIVE_INFINITY && Math.floor((Date.parse(now) - learned) / DAY_MS) > (retention.fact_ttl_days ?? 0);
      }),
    ['L2-A9'],
    "A fact's age is counted in whole days (`Math.floor`): a fact 30.5 days old under a 30-day TTL is kept.",
  ),
  mutant(
    'temperature-maximum-exclusive',
    'profileIssues',
    (reference) => (value, rules) => [
      ...reference(value, rules),
      ...valuesAtPlace(value, '/spec/model/parameters/temperature')
        .filter((v) => v.value === 2)
        .map((v) => issue('schema.maximum', v.pointer, 'must be < 2')),
    ],
    ['L1-P2'],
    "The validator reads `temperature`'s `maximum: 2` as exclusive: `temperature: 2` is refused.",
  ),
  mutant(
    'agent-name-max-63',
    'profileIssues',
    (reference) => (value, rules) => [
      ...reference(value, rules),
      ...agentNames(value)
        .filter((v) => typeof v.value === 'string' && v.value.length === 64 && AGENT_NAME.test(v.value))
        .map((v) => issue('schema.pattern', v.pointer, 'must match pattern "^[a-z0-9](?:[a-z0-9._-]{0,61}[a-z0-9])?$"')),
    ],
    ['L1-P2', 'L2-A1'],
    'The agent-name pattern is written `{0,61}`: a name of 64 characters, the longest legal one, is refused (so is a profile of that name a delta is applied to).',
  ),
  mutant(
    'pointer-index-leading-zero',
    'indexOfToken',
    () => (token) => (/^\d+$/.test(token) ? Number.parseInt(token, 10) : undefined),
    ['L2-A5'],
    'Array tokens are read with `parseInt`: `/state/facts/01` names element 1 instead of failing the delta (RFC 6901 forbids leading zeros).',
  ),
  mutant(
    'pointer-negative-index-from-end',
    'indexOfToken',
    (reference) => (token, length) => (/^-[1-9]\d*$/.test(token) ? length + Number(token) : reference(token, length)),
    ['L2-A5'],
    'A negative array token counts from the end (`-1` is the last element), as in Python, instead of failing the delta.',
  ),
  mutant(
    'retention-cap-keeps-one-extra',
    'retain',
    (reference) => (state, retention, now) =>
      reference(state, { ...retention, max_facts: retention.max_facts === undefined ? undefined : retention.max_facts + 1 }, now),
    ['L2-A9'],
    'The fact cap stops evicting at `max_facts + 1`: one fact too many survives every write.',
  ),

  // ---------------------------------------------------------------- text and its encodings
  mutant(
    'context-path-ascii-only',
    'contextFile',
    (reference) => (path, workspace) =>
      /[^\x00-\x7f]/.test(path) ? { ok: false, reason: 'path contains characters outside ASCII' } : reference(path, workspace),
    ['L1-I5', 'L1-P2'],
    "A context file path with any character outside ASCII is refused as an escape (a confusable check that refuses every non-ASCII name): `docs/café.md` is rejected, and so is the grammar bound's longest path, 500 astral characters.",
  ),
  mutant(
    'tool-names-case-insensitive',
    'selectTools',
    (reference) => (request, from, ctx) => {
      const lower = (xs: readonly string[]) => xs.map((x) => x.toLowerCase());
      const original = new Map(from.granted.map((t) => [t.toLowerCase(), t]));
      const out = reference(
        { ...request, allow: lower(request.allow), deny: lower(request.deny) },
        { granted: [...original.keys()], universe: lower(from.universe) },
        ctx,
      );
      return { ...out, value: out.value.map((t) => original.get(t) ?? t) };
    },
    ['L1-I2'],
    'Tool names are compared lower-cased: `allow: [Read]` selects the granted `read`.',
  ),
  mutant(
    'scopes-case-insensitive',
    'memoryScopes',
    (reference) => (requested, ceiling, ctx) =>
      requested === undefined
        ? reference(requested, ceiling, ctx)
        : requested.filter((s) => ceiling.some((c) => c.toLowerCase() === s.toLowerCase())),
    ['L1-I3', 'L3-B1'],
    "Memory scopes are compared case-insensitively and keep the requested spelling: `Project:Acme` passes a ceiling of `project:acme`, the policy's or a parent's.",
  ),
  mutant(
    'model-id-case-insensitive',
    'modelChoice',
    (reference) => (request, models) => {
      const served = servedBy(models.available, (s) => s.toLowerCase());
      const { provider, id } = request ?? {};
      if (provider !== undefined && id !== undefined && served({ provider, id })) return { provider, id, rule: 1 };
      const fallback = request?.fallbacks?.find(served);
      return fallback && reference(request, models).rule !== 1 ? { ...fallback, rule: 2 } : reference(request, models);
    },
    ['L1-I12'],
    '"Served" compares provider and id case-insensitively: `OpenAI/GPT-6` resolves by rule 1 with the profile\'s spelling.',
  ),
  mutant(
    'header-bearer-case-insensitive',
    'profileIssues',
    (reference) => (value, rules) => {
      const loose = acceptedAt(value, '/spec/tools/mcp_servers/*/headers/*', /^(Bearer )?\$\{[A-Z][A-Z0-9_]{0,63}\}$/i);
      return reference(value, rules).filter((i) => !loose.has(i.pointer));
    },
    ['L1-P2', 'L1-I6'],
    'MCP header values are checked with a case-insensitive pattern: `bearer ${API_TOKEN}` (and `${api_token}`) pass as references, so the schema error and the literal both go unrefused.',
  ),
  mutant(
    'date-time-lower-case-refused',
    'profileIssues',
    (reference) => (value, rules) => [...reference(value, rules), ...lowerCaseTimestampIssues(value)],
    ['L1-P2'],
    'Timestamps are read with an upper-case-only pattern: `2026-01-01t00:00:00z`, which RFC 3339 §5.6 allows, is refused.',
  ),
  mutant(
    'max-length-in-utf16-units',
    'profileIssues',
    (reference) => (value, rules) => [...reference(value, rules), ...utf16LengthIssues(value)],
    ['L1-P2'],
    'String lengths are counted in UTF-16 code units (ajv `unicode: false`): 500 emoji in a 500-character description are refused.',
  ),
  mutant(
    'env-name-may-start-with-digit',
    'profileIssues',
    (reference) => (value, rules) => {
      const loose = acceptedAt(value, '/spec/tools/mcp_servers/*/env/*', /^\$\{[A-Z0-9_]{1,64}\}$/);
      return reference(value, rules).filter((i) => !(ofCategory(i, 'schema') && loose.has(i.pointer)));
    },
    ['L1-P2'],
    'The env-reference pattern is `[A-Z0-9_]{1,64}`: `${0KEY}` and `${_TOKEN}` are accepted as references.',
  ),

  // Found by walking the delta schema's bounds once its cases existed (part 3): each refuses a valid delta at one edge.
  mutant(
    'delta-lengths-in-utf16-units',
    'deltaIssues',
    (reference) => (delta) => [...reference(delta), ...utf16LengthIssues(delta, 'delta')],
    ['L2-A1'],
    'The delta validator counts string lengths in UTF-16 code units: a summary of 4000 emoji, within its 4000 characters, is refused.',
  ),
  mutant(
    'delta-outcome-without-timeout',
    'deltaIssues',
    (reference) => (delta) => [
      ...reference(delta),
      ...valuesAtPlace(delta, '/session/outcome')
        .filter((v) => v.value === 'timeout')
        .map((v) => issue('schema.enum', v.pointer, 'must be equal to one of the allowed values: completed, aborted, error')),
    ],
    ['L2-A1'],
    "The delta validator's `session.outcome` list is an older draft's (completed, aborted, error): a session that timed out cannot be written back.",
  ),
  mutant(
    'delta-session-times-utc-only',
    'deltaIssues',
    (reference) => (delta) => [
      ...reference(delta),
      ...['/session/started_at', '/session/ended_at'].flatMap((place) =>
        valuesAtPlace(delta, place)
          .filter((v) => typeof v.value === 'string' && !/Z$/.test(v.value))
          .map((v) => issue('schema.format', v.pointer, 'must be a UTC date-time')),
      ),
    ],
    ['L2-A1'],
    'Session times are checked by a round trip through `toISOString()`: a time with an offset (`+00:00`, `-23:59`), which RFC 3339 allows, is refused.',
  ),
  mutant(
    'delta-operations-capped-at-256',
    'deltaIssues',
    (reference) => (delta) => {
      const ops = isObject(delta) ? delta['operations'] : undefined;
      const over = Array.isArray(ops) && ops.length > 256;
      return [...reference(delta), ...(over ? [issue('schema.maxItems', '/operations', 'must NOT have more than 256 items')] : [])];
    },
    ['L2-A1'],
    "The applicator caps a delta at 256 operations (a buffer sized for a power of two), below the schema's 500.",
  ),
  mutant(
    'delta-confidence-one-exclusive',
    'deltaIssues',
    (reference) => (delta) => [
      ...reference(delta),
      ...valuesAtPlace(delta, '/operations/*/confidence')
        .filter((v) => v.value === 1)
        .map((v) => issue('schema.maximum', v.pointer, 'must be < 1')),
    ],
    ['L2-A1'],
    "An operation's `confidence` is checked with `< 1`: a certain operation (`confidence: 1`) is refused.",
  ),
  mutant(
    'delta-confidence-zero-refused',
    'deltaIssues',
    (reference) => (delta) => [
      ...reference(delta),
      ...valuesAtPlace(delta, '/operations/*/confidence')
        .filter((v) => typeof v.value === 'number' && !v.value)
        .map((v) => issue('schema.minimum', v.pointer, 'must be > 0')),
    ],
    ['L2-A1'],
    "An operation's `confidence` is checked for truthiness: `confidence: 0` (and `-0`) is refused.",
  ),
  mutant(
    'proposal-rationale-blank-refused',
    'deltaIssues',
    (reference) => (delta) => [
      ...reference(delta),
      ...valuesAtPlace(delta, '/proposals/*/rationale')
        .filter((v) => typeof v.value === 'string' && v.value.trim() === '')
        .map((v) => issue('schema.minLength', v.pointer, 'must not be blank')),
    ],
    ['L2-A1'],
    "A proposal's `rationale` is checked after `trim()`: a rationale of one space, which `minLength: 1` admits, is refused.",
  ),

  // ---------------------------------------------------------------- separators and prefixes
  mutant(
    'context-path-any-dotdot-refused',
    'contextFile',
    (reference) => (path, workspace) =>
      path.split(/[\\/]/).includes('..') ? { ok: false, reason: 'path contains a .. segment' } : reference(path, workspace),
    ['L1-I5'],
    'A context file path with any `..` segment is refused, without resolving it: `docs/../notes/todo.md`, which stays inside, is rejected.',
  ),
  mutant(
    'context-path-backslash-as-name',
    'contextFile',
    (reference) => (path, workspace) => {
      const out = reference(path.replaceAll('\\', '_'), workspace);
      return out.ok ? { ok: true, relative: path } : out;
    },
    ['L1-I5'],
    'A context file path is contained as POSIX reads it, where `\\` is a character of a file name: `..\\..\\x` is one name inside the workspace, and a Windows reader climbs out.',
  ),
  mutant(
    'host-wildcard-suffix-without-dot',
    'intersectHosts',
    (reference) => (allowHosts, limit, ctx) =>
      keepDropped(reference(allowHosts, limit, ctx), (host) =>
        limit.some((q) => q.startsWith('*.') && host.toLowerCase().endsWith(q.slice(2).toLowerCase())),
      ),
    ['L1-I3'],
    '`*.example.net` is matched as `host.endsWith("example.net")`: `evilexample.net` (and the apex `example.net`) are allowed.',
  ),
  mutant(
    'root-string-prefix',
    'intersectRoots',
    (reference) => (requested, limit, ctx) =>
      keepDropped(reference(requested, limit, ctx), (root) => limit.some((q) => q !== '.' && root.startsWith(q))),
    ['L1-I3'],
    'Root containment is a string prefix: a ceiling root `src` lets a requested root `srcx` through.',
  ),
  mutant(
    'state-pointer-trailing-slash-stripped',
    'operationPath',
    (reference) => (path) => reference(typeof path === 'string' && path.length > 1 ? path.replace(/\/+$/, '') : path),
    ['L2-A5'],
    'Operation paths are trimmed of a trailing `/`: `replace /state/summary/` replaces the summary instead of failing the delta.',
  ),
  mutant(
    'subagent-allow-prefix-match',
    'delegationAllowed',
    () => (name, allow) => allow.some((a) => name.startsWith(a)),
    ['L3-B1'],
    '`subagents.allow` is matched by prefix: `allow: [help]` permits delegating to `helper`.',
  ),
  mutant(
    'agent-name-trailing-separator',
    'profileIssues',
    (reference) => (value, rules) => {
      const loose = new Set(
        agentNames(value)
          .filter((v) => typeof v.value === 'string' && /^[a-z0-9][a-z0-9._-]{0,63}$/.test(v.value))
          .map((v) => v.pointer),
      );
      return reference(value, rules).filter((i) => !(ofCategory(i, 'schema') && loose.has(i.pointer)));
    },
    ['L1-P2'],
    'The agent-name pattern drops its last-character class: names may end in `.`, `-` or `_`.',
  ),
  mutant(
    'version-prefix-match',
    'profileIssues',
    (reference) => (value, rules) => {
      const oap = isObject(value) ? value['oap'] : undefined;
      const issues = reference(value, rules);
      return typeof oap === 'string' && oap.startsWith('1.0') ? issues.filter((i) => !ofCategory(i, 'version-minor')) : issues;
    },
    ['L1-P4'],
    'The version check is `oap.startsWith("1.0")`: `1.01` and `1.05` are read as 1.0.',
  ),
  mutant(
    'absolute-roots-outside-workspace-when-permitted',
    'grantRoots',
    (reference) => (request, limits, ctx, rules) => {
      if (!ctx.allowAbsolute) return reference(request, limits, ctx, rules);
      const keys: RootKey[] = ['read_roots', 'write_roots'];
      const absolute = (key: RootKey) => (request[key] ?? []).map(String).filter((p) => isAbsolute(p));
      const pointers = new Set(
        keys.flatMap((key) =>
          (request[key] ?? []).flatMap((p, i) => (isAbsolute(String(p)) ? [`/spec/permissions/filesystem/${key}/${i}`] : [])),
        ),
      );
      const rest = (key: RootKey) => (request[key] ? { [key]: request[key].filter((p) => !isAbsolute(String(p))) } : {});
      const out = reference(
        { ...rest('read_roots'), ...rest('write_roots'), findings: request.findings.filter((f) => !pointers.has(f.pointer)) },
        limits,
        ctx,
        rules,
      );
      if ('errors' in out) return out;
      return {
        ...out,
        read_roots: [...out.read_roots, ...absolute('read_roots')],
        write_roots: [...out.write_roots, ...absolute('write_roots')],
      };
    },
    ['L1-I3'],
    'Where the policy permits absolute paths, an absolute root is taken as written, also outside the workspace (past the policy roots).',
  ),

  // ---------------------------------------------------------------- wildcards
  mutant(
    'grant-star-crosses-segments',
    'policyGrants',
    () => (grant, tool) => grant.some((g) => naiveGlob(g).test(tool)),
    ['L1-I3', 'L1-I2'],
    "The policy's grant globs are compiled to `.*` regular expressions: grant `*` also grants `git/diff` and `mcp/x/y` (L1-I3), and `git/**` no longer grants `git`, which the §3.4 table then misses (L1-I2).",
  ),
  mutant(
    'grant-braces-expanded',
    'policyGrants',
    (reference) => (grant, tool) => reference(grant.flatMap(expandBraces), tool),
    ['L1-I3'],
    "The policy's grant globs are brace-expanded like a shell's: `{read,shell}` grants both.",
  ),
  mutant(
    'policy-scopes-as-globs',
    'memoryScopes',
    (reference) => (requested, ceiling, ctx) =>
      requested === undefined ? reference(requested, ceiling, ctx) : requested.filter((s) => ceiling.some((c) => globMatch(c, s))),
    ['L1-I3'],
    'Ceiling scopes are matched as globs: a policy scope `project:*` permits `project:secret`.',
  ),

  // ---------------------------------------------------------------- escaping
  mutant(
    'pointer-read-as-uri-path',
    'operationPath',
    () => (path) => {
      if (typeof path !== 'string') return { error: 'operation path is not a string' };
      const tokens = decodePointer(path);
      if (tokens === undefined || tokens[0] !== 'state' || tokens.some((t) => t === '.' || t === '..'))
        return { error: `operation path ${path} is outside /state` };
      let decoded = path;
      try {
        decoded = decodeURIComponent(path);
      } catch {
        // Not percent-encoded text: taken as written.
      }
      return { path: normalizeAsFilePath(decoded) };
    },
    ['L2-A2'],
    'An operation path is checked as written, then read as a URI path: percent-decoded and dot segments removed, so `/state/%2e%2e/spec/role/instructions` writes the instructions.',
  ),
  mutant(
    'id-token-unescaped-before-split',
    'operationTokens',
    () => (path) => path.replace(/~1/g, '/').replace(/~0/g, '~').slice(1).split('/'),
    ['L2-A14'],
    'The applicator decodes `~1` before splitting the path: `/state/facts/id:a~1b/text` looks up entry `a`, so an entry with id `a/b` cannot be addressed.',
  ),

  // ---------------------------------------------------------------- duplicates
  mutant(
    'prompt-lines-deduplicated',
    'promptSections',
    (reference) => (steps) => {
      const seen = new Set<string>();
      return reference(
        steps.map((s) => {
          const lines = s.content.split('\n');
          const kept = lines.filter((l) => l.trim() === '' || !seen.has(l));
          for (const l of lines) seen.add(l);
          return { kind: s.kind, content: kept.join('\n') };
        }),
      );
    },
    ['L1-I1'],
    'The prompt is de-duplicated line by line to save tokens: a line that an earlier section already holds is dropped, so a constraint written like an objective is no longer in the constraints section.',
  ),
  mutant(
    'collision-within-one-encoding-only',
    'withinRootCollision',
    (reference) => (name, found) => {
      const loader = (p: string) => (/\.ya?ml$/.test(p) ? '.yaml' : extname(p));
      const perLoader = new Map<string, number>();
      for (const f of found) perLoader.set(loader(f.path), (perLoader.get(loader(f.path)) ?? 0) + 1);
      return [...perLoader.values()].some((n) => n > 1) ? reference(name, found) : found[found.length - 1];
    },
    ['L1-D2'],
    "Each encoding's loader keeps its own name index and the indexes are merged last-wins: `twin.agent.yaml` and `twin.agent.json` in one root are no collision.",
  ),
  mutant(
    'denylist-allow-overrides-deny',
    'selectTools',
    (reference) => (request, from, ctx) =>
      reference(
        request.policy === 'denylist' ? { ...request, deny: request.deny.filter((d) => !request.allow.includes(d)) } : request,
        from,
        ctx,
      ),
    ['L1-I2'],
    'Under `denylist`, names in `allow` are exceptions to `deny`: `allow: [shell], deny: [shell]` keeps shell.',
  ),
  mutant(
    'extends-duplicate-base-rejected',
    'refusesRepeatedBase',
    () => (names) => new Set(names).size !== names.length,
    ['L3-E1'],
    'An extends list naming one base twice is refused as a cycle (`new Set(names).size !== names.length`); diamonds still merge.',
  ),

  // ---------------------------------------------------------------- order and precedence
  mutant(
    'persona-before-instructions',
    'promptOrder',
    (reference) => () => reference().flatMap((k) => (k === 'persona' ? [] : k === 'instructions' ? ['persona', 'instructions'] : [k])),
    ['L1-I1'],
    "The persona is rendered first, as the agent's identity, before the instructions (step 4 before step 2).",
  ),
  mutant(
    'fallbacks-last-served-wins',
    'modelChoice',
    (reference) => (request, models) => {
      const choice = reference(request, models);
      const served = (request?.fallbacks ?? []).filter(servedBy(models.available, (s) => s));
      const last = served[served.length - 1];
      return choice.rule === 2 && last ? { provider: last.provider, id: last.id, rule: 2 } : choice;
    },
    ['L1-I12'],
    'The fallback loop has no `break`: the last served fallback is used, not the first.',
  ),
  mutant(
    'tier-before-fallbacks',
    'modelChoice',
    (reference) => (request, models) => {
      const choice = reference(request, models);
      return choice.rule === 2 ? (tierRoute(request, models) ?? choice) : choice;
    },
    ['L1-I12'],
    'Tier routing (rule 3) is tried before the fallbacks (rule 2).',
  ),
  mutant(
    'plugin-below-project',
    'discoveryRoots',
    (reference) => (roots, purpose) =>
      reference(roots, purpose).map((r) => (r.kind === 'plugin' ? { ...r, rank: 2 } : r.kind === 'project' ? { ...r, rank: 3 } : r)),
    ['L1-D3'],
    'The root precedence is managed < user < plugin < project: a project profile shadows a plugin profile of the same name.',
  ),
  mutant(
    'history-trim-keeps-oldest',
    'keptHistory',
    () => (history, retention) => historyByRevision(history).slice(0, retention.max_history ?? DEFAULT_MAX_HISTORY),
    ['L2-A11'],
    'History is trimmed from the wrong end: the oldest entries are kept and the newest dropped.',
  ),

  // ---------------------------------------------------------------- links
  mutant(
    'subagent-deny-paths-not-inherited',
    'subagentCeiling',
    (reference) => (parent) => ({ ...reference(parent), deny_paths: [] }),
    ['L3-B1'],
    "A subagent's ceiling takes the parent's effective roots but not its deny paths.",
  ),
  mutant(
    'id-pointer-prefix-match',
    'entryWithId',
    () => (entries, id) => entries.findIndex((e) => isObject(e) && typeof e['id'] === 'string' && e['id'].startsWith(id)),
    ['L2-A14'],
    '`id:<x>` names the first entry whose id starts with `x`: `id:f1` edits `f10` when it comes first.',
  ),
  mutant(
    'mcp-launch-trust-from-file',
    'mcpLaunch',
    (reference) => (trust, autoLaunch, ctx) => reference(typeof ctx.claimed === 'string' ? (ctx.claimed as Trust) : trust, autoLaunch, ctx),
    ['L3-M2'],
    'Launch gating reads `metadata.trust` from the file, not the trust the harness assigned: a project profile claiming `managed` auto-launches its servers (the reported trust stays right).',
  ),
];

/**
 * The mutants no case catches yet, each with the catalogue class or schema bound whose case it waits
 * for (issue 20: the grammar-boundary cases of part 3, the catalogue's generated cases of part 2;
 * since part 2 every one of them has its case, so the list is empty).
 * The sweep holds each to failing nothing beyond its IDs and fails once a case catches it, so an
 * entry leaves this list when its case comes and the list only gets shorter.
 */
const AWAITING_CASES: Readonly<Record<string, string>> = {};

export const BOUNDARY_MUTANTS: readonly Mutant[] = DEFINED.map((m) => {
  const awaiting = AWAITING_CASES[m.name];
  return awaiting === undefined ? m : { ...m, awaiting };
});

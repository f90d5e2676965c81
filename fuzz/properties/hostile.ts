/**
 * Hostile documents. Attribution:
 * - traversal (L1-I5): a context.files path that escapes the workspace (lexically, absolutely or
 *   through a symlink created in the workspace) must make instantiate fail;
 * - secrets (L1-I6): any non-reference value in mcp_servers[].env / headers must make instantiate fail;
 * - delta-scope (L2-A2): an operation whose RFC 6901 path is outside /state must be rejected with
 *   the file byte-identical; a pointer that only looks like it leaves /state (`/state/../spec`,
 *   `id:` tricks, escaped tokens) must never change /spec or /metadata;
 * - reserved-ops (L2-A1): a schema-invalid delta (move/copy/test, remove with value, ...) must be
 *   rejected with the file byte-identical;
 * - hostile-parse (L1-P2): invalid documents (YAML duplicate keys, non-finite numbers, strings
 *   over maxLength) must be refused by validate; JSON duplicate keys may be accepted or refused but
 *   must be answered without the adapter throwing. How long an answer takes is not L1-P2's question;
 * - hostile-parse-time (ADV-hostile-parse-time, an advisory): every hostile document above, and
 *   bombs, deep nesting and huge strings, must be answered, valid or not, within the hostile time
 *   budget and the per-request timeout; a late one is a finding (the input saved as a finding file);
 * - faker (L1-P1): a random document the oracle finds valid must be accepted in an encoding the
 *   adapter claims. Refusing a valid document is not an L1-P2 failure (P2 is about refusing
 *   invalid ones); it means the claimed encoding is not actually accepted.
 *
 * Every property whose expected answer is a refusal first runs a positive control, once per case:
 * the benign twin of its hostile input (the profile without the hostile path, with a reference in
 * place of the literal, before the mutation; one valid delta operation; a benign document) must be
 * accepted. When the control is refused the hostile input is not judged, so a harness that refuses
 * everything passes none of these properties.
 */
import { readFileSync, symlinkSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import type { HarnessPolicyT, InstantiateOutcomeT } from '../../protocol/messages.js';
import { parseDocument, specDigestInput } from '../../spec/document/index.js';
import { inStateScope, normalizeRoot, parsePointer, physicalRoot, valueAt } from '../../spec/semantics/index.js';
import { catalogueValues } from '../gen/catalogue-values.js';
import { AdapterCrashed, AdapterNotImplemented, AdapterProtocolError, AdapterSkipped, AdapterTimeout } from '../../protocol/errors.js';
import { serializeDocument } from '../../suites/kit/workspace.js';
import type { Encoding } from '../../suites/kit/types.js';
import { fakerDocument, fakerProblem } from '../gen/faker.js';
import { control, firstUndefined, inputEncoding, instantiateIn, rejectedBy, writeRunProfile, type Doc } from '../harness.js';
import { oracleIssues } from '../oracle-gate.js';
import { HOLDS, malformedInput, notJudged, violated, type ExecEnv, type FuzzProperty, type Verdict } from './types.js';
import { HOSTILE_TIME_BUDGET_MS, minimalProfile, permissivePolicy, timedValidate, tooLate } from '../../suites/support/index.js';

// ---------------------------------------------------------------- L1-I5 traversal

export interface TraversalInput {
  profile: Doc;
  policy: HarnessPolicyT;
  /** Index into spec.context.files of the hostile path. */
  index: number;
  encoding: Encoding;
}

const ESCAPES = ['..', '../..', 'a/../..', './..', './/..', 'link', 'link/sub', 'rootlink/etc', 'src/../../..', '/etc', '/tmp', '//etc'];
/** The symlinks `layoutTraversal` creates at the top of the run directory, both pointing outside it. */
const OUTWARD_LINKS = ['link', 'rootlink'];

function traversalArb(): fc.Arbitrary<TraversalInput> {
  return fc
    .record({
      prefix: fc.array(fc.constantFrom('.', 'src', ''), { maxLength: 2 }),
      escape: fc.constantFrom(...ESCAPES),
      suffix: fc.constantFrom('', 'passwd', 'notes/x.md'),
      others: fc.subarray(['README.md', 'docs/guide.md', 'src/main.ts']),
      index: fc.nat(3),
      mode: fc.constantFrom('always' as const, 'on_demand' as const),
      encoding: fc.constantFrom('yaml' as const, 'json' as const, 'md' as const),
    })
    .map(({ prefix, escape: escapeSegment, suffix, others, index, mode, encoding }) => {
      // A prefix that descends (`src`) climbs back before the escape, so every path escapes from
      // the workspace root, however it is spelled (`src/../..`, `./src/../link`).
      const climb = prefix.filter((s) => s === 'src').map(() => '..');
      const hostile = escapeSegment.startsWith('/')
        ? [escapeSegment, suffix].filter(Boolean).join('/')
        : [...prefix, ...climb, escapeSegment, suffix].filter((s, i, a) => s !== '' || i < a.length - 1).join('/');
      const files = others.map((path) => ({ path }));
      const at = Math.min(index, files.length);
      files.splice(at, 0, { path: hostile, mode } as { path: string });
      return { profile: minimalProfile('fz-main', { context: { files } }), policy: permissivePolicy(), index: at, encoding };
    });
}

/** Lay out the run directory: benign files, `link` to a directory outside it, `rootlink` to /. */
function layoutTraversal(dir: string): void {
  const outside = `${dir}-outside`;
  mkdirSync(join(outside, 'sub'), { recursive: true });
  writeFileSync(join(outside, 'passwd'), 'outside\n');
  for (const f of ['README.md', 'docs/guide.md', 'src/main.ts']) {
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    writeFileSync(join(dir, f), 'benign\n');
  }
  symlinkSync(outside, join(dir, 'link'));
  symlinkSync('/', join(dir, 'rootlink'));
}

/**
 * Does `p` leave `dir`: lexically (the spec model's normal form climbs out or is absolute), or on
 * disk, resolved segment by segment as the spec model's physicalRoot reads it (a `..` after a
 * symlink climbs from its target: security.md T6)?
 */
function escapesWorkspace(dir: string, p: string): boolean {
  return normalizeRoot(p) === undefined || isAbsolute(physicalRoot(dir, p));
}

/**
 * `escapesWorkspace` over the layout `layoutTraversal` makes, without the disk: for the input's own
 * contract. The same segment-by-segment walk: `..` above the workspace leaves it, and so does
 * entering one of the outward links at its top (a later `..` climbs from the link's target, which
 * is outside; the execution checks every input on disk as well).
 */
function escapesLayout(p: string): boolean {
  if (normalizeRoot(p) === undefined) return true;
  const at: string[] = [];
  for (const segment of p.split(/[\\/]+/)) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (at.pop() === undefined) return true;
    } else if (at.length === 0 && OUTWARD_LINKS.includes(segment)) return true;
    else at.push(segment);
  }
  return false;
}

const filesOf = (profile: Doc): { path: string }[] => (profile.spec as { context: { files: { path: string }[] } }).context.files;

/** The profile with its hostile path replaced by a benign file of the layout: the positive control. */
function benignTwin(input: TraversalInput): Doc {
  const benign = structuredClone(input.profile);
  filesOf(benign)[input.index]!.path = 'README.md';
  return benign;
}

export const traversalProperty: FuzzProperty<TraversalInput> = {
  name: 'traversal',
  requirement: 'L1-I5',
  clauses: ['L1-I5.reject-outside'],
  title: 'context.files paths that escape the workspace (lexically, absolutely, via symlinks) are rejected',
  weight: 1,
  runsPerCase: 20,
  arbitrary: traversalArb,
  malformed(input) {
    const hostile = filesOf(input.profile)[input.index]?.path;
    if (hostile === undefined) return `no context.files entry at index ${input.index}`;
    if (!escapesLayout(hostile)) return `context.files[${input.index}].path ${JSON.stringify(hostile)} does not escape the workspace`;
    return firstUndefined([benignTwin(input)], 'the profile without its hostile path');
  },
  async execute(env, input) {
    const hostile = filesOf(input.profile)[input.index]!.path;
    const refused = await control(env, JSON.stringify([benignTwin(input), input.encoding]), async () => {
      const dir = env.freshDir();
      layoutTraversal(dir);
      const { outcome } = await instantiateIn(env, benignTwin(input), input.policy, { encoding: input.encoding, dir });
      return outcome.status === 'rejected' ? rejectedBy('control (the same profile without the hostile path)', outcome.errors) : undefined;
    });
    if (refused) return refused;
    const dir = env.freshDir();
    layoutTraversal(dir);
    if (!escapesWorkspace(dir, hostile)) return malformedInput(`${JSON.stringify(hostile)} does not escape the laid-out workspace`);
    const { outcome } = await instantiateIn(env, input.profile, input.policy, { encoding: input.encoding, dir });
    if (outcome.status === 'rejected') return HOLDS;
    return violated(
      `context.files[${input.index}].path ${JSON.stringify(hostile)} escapes the workspace but the profile was instantiated`,
      { status: 'rejected', category: 'path-escape' },
      { status: 'instantiated' },
    );
  },
};

// ---------------------------------------------------------------- L1-I6 secrets

export interface SecretInput {
  profile: Doc;
  policy: HarnessPolicyT;
  /** Where the literal sits, e.g. /spec/tools/mcp_servers/1/headers/Authorization. */
  pointer: string;
  encoding: Encoding;
}

const LITERALS = [
  'sk-live-abc123',
  'hunter2',
  'TOKEN',
  '$TOKEN',
  '${token}',
  '${TOKEN}x',
  'x${TOKEN}',
  '${ TOKEN }',
  '${TOKEN',
  ' ${TOKEN}',
  '${TOKEN} ',
  '${TOKEN}\n',
  '$${TOKEN}',
  '${{ vars.TOKEN }}',
  '\uFF04{TOKEN}',
  'Bearer sk-live-abc123',
  'bearer ${TOKEN}',
  'Bearer  ${TOKEN}',
  'Basic dXNlcjpwYXNzd29yZA==',
  '',
];

function secretsArb(): fc.Arbitrary<SecretInput> {
  return fc
    .record({
      literal: fc.constantFrom(...LITERALS),
      place: fc.constantFrom('env' as const, 'headers' as const),
      servers: fc.integer({ min: 1, max: 3 }),
      at: fc.nat(2),
      encoding: fc.constantFrom('yaml' as const, 'json' as const, 'md' as const),
    })
    .map(({ literal, place, servers, at, encoding }) => {
      const idx = Math.min(at, servers - 1);
      const list = Array.from({ length: servers }, (_, i) =>
        i % 2 === 0
          ? { name: `srv${i}`, transport: 'stdio', command: 'mcp-server', env: { TOKEN: '${TOKEN}' } }
          : { name: `srv${i}`, transport: 'http', url: 'https://mcp.example.com', headers: { Authorization: 'Bearer ${TOKEN}' } },
      ) as Record<string, unknown>[];
      const s = list[idx]!;
      const key = place === 'env' ? 'API_KEY' : 'X-Api-Key';
      s[place] = { ...((s[place] as Record<string, string>) ?? {}), [key]: literal };
      return {
        profile: minimalProfile('fz-main', {
          tools: { allow: ['read', ...list.map((x) => `mcp/${String(x.name)}/*`)], mcp_servers: list },
        }),
        policy: permissivePolicy({ env: { TOKEN: 't', API_KEY: 'k' } }),
        pointer: `/spec/tools/mcp_servers/${idx}/${place}/${key}`,
        encoding,
      };
    });
}

/** The profile with its literal replaced by the same-name reference: the positive control. */
function referenceTwin(input: SecretInput): Doc {
  const twin = structuredClone(input.profile);
  const tokens = parsePointer(input.pointer);
  const node = valueAt(twin, tokens.slice(0, -1)) as Record<string, unknown>;
  const key = tokens[tokens.length - 1]!;
  node[key] = `\${${SECRET_VARIABLE}}`;
  return twin;
}

/** The variable the literal's key names (env) and the header references: the policy provides it. */
const SECRET_VARIABLE = 'API_KEY';

export const secretsProperty: FuzzProperty<SecretInput> = {
  name: 'secrets',
  requirement: 'L1-I6',
  clauses: ['L1-I6.env', 'L1-I6.headers'],
  title: 'Literal values in mcp_servers[].env and headers are rejected, whatever their shape',
  weight: 1,
  runsPerCase: 20,
  arbitrary: secretsArb,
  malformed(input) {
    // The literal must be one the oracle refuses, and only there, or the input proves nothing.
    const errors = oracleIssues(input.profile);
    if (errors.length === 0) return 'the oracle accepts the value: it is not a literal';
    const elsewhere = errors.find((e) => e.pointer !== input.pointer);
    if (elsewhere) return `the oracle also refuses ${elsewhere.code} at ${elsewhere.pointer || '/'}`;
    return firstUndefined([referenceTwin(input)], 'the profile with a reference in place of the literal');
  },
  async execute(env, input) {
    const twin = referenceTwin(input);
    const refused = await control(env, JSON.stringify([twin, input.encoding]), async () => {
      const { outcome } = await instantiateIn(env, twin, input.policy, { encoding: input.encoding });
      return outcome.status === 'rejected' ? rejectedBy('control (the same profile with a reference)', outcome.errors) : undefined;
    });
    if (refused) return refused;
    const { outcome } = await instantiateIn(env, input.profile, input.policy, { encoding: input.encoding });
    if (outcome.status === 'rejected') return HOLDS;
    return violated(
      `literal value at ${input.pointer} was accepted: the profile instantiated`,
      { status: 'rejected', category: 'secret-literal', pointer: input.pointer },
      { status: 'instantiated' },
    );
  },
};

// ---------------------------------------------------------------- deltas

export interface DeltaInput {
  profile: Doc;
  encoding: 'yaml' | 'json';
  delta: Record<string, unknown>;
  /** 'outside': RFC 6901 path leaves /state; 'disguised': in /state but shaped to escape; 'invalid': schema-invalid delta. */
  expect: 'outside' | 'disguised' | 'invalid';
}

const OUTSIDE_PATHS = [
  '/statex/summary',
  '/State/summary',
  '/STATE/summary',
  '/spec/role/instructions',
  '/spec/tools/allow/-',
  '/metadata/name',
  '/metadata/trust',
  '',
  '/',
  '/state~1summary',
  '/%73tate/summary',
  ' /state/summary',
  '/ state/summary',
  '/../spec/role/instructions',
  '/sta\u200Bte/summary',
  '/\u0455tate/summary',
  '/state\u0000/summary',
  'state/summary',
  '/history/-',
  '#/state/summary',
];
const DISGUISED_PATHS = [
  ...new Set([
    // The catalogue's operation paths inside /state (`..` tokens, percent-encoding, `~` escapes, `id:` pointers, whole state).
    ...catalogueValues('delta.operation-path', 'delta:/operations/0').flatMap((op) => {
      const path = (op as { path?: unknown }).path;
      return typeof path === 'string' && inStateScope(path) ? [path] : [];
    }),
    '/state/../spec/role/instructions',
    '/state/./../spec/role/instructions',
    '/state/%2e%2e/spec/role/instructions',
    '/state/..%2fspec/role/instructions',
    '/state/~1..~1spec~1role~1instructions',
    '/state/facts/id:../../spec/role/instructions',
    '/state/facts/id:..%2F..%2Fspec',
    '/state/facts/0/../../../spec/role/instructions',
    '/state/../metadata/name',
  ]),
];

function stateProfile(): Doc {
  return minimalProfile(
    'fz-main',
    { lifecycle: { writeback: 'auto' }, tools: { allow: ['read'] } },
    { state: { summary: 'Original summary.', facts: [{ id: 'f1', text: 'A fact.' }] } },
  );
}

const validOp = { op: 'add', path: '/state/facts/-', value: { id: 'f2', text: 'Another fact.' } };

function deltaDoc(ops: unknown[]): Record<string, unknown> {
  return { oap: '1.0', kind: 'AgentStateDelta', target: { name: 'fz-main', revision: 1 }, session: { id: 'sess-fz' }, operations: ops };
}

function scopeArb(): fc.Arbitrary<DeltaInput> {
  const value = fc.constantFrom('pwned: shell allowed', 'root-agent');
  return fc
    .record({
      outside: fc.boolean(),
      o: fc.constantFrom(...OUTSIDE_PATHS),
      d: fc.constantFrom(...DISGUISED_PATHS),
      op: fc.constantFrom('add', 'replace', 'remove'),
      value,
      withValid: fc.boolean(),
      encoding: fc.constantFrom('yaml' as const, 'json' as const),
    })
    .map(({ outside, o, d, op, value, withValid, encoding }) => {
      const bad: Record<string, unknown> = { op, path: outside ? o : d, ...(op === 'remove' ? {} : { value }) };
      return {
        profile: stateProfile(),
        encoding,
        delta: deltaDoc(withValid ? [validOp, bad] : [bad]),
        expect: outside ? ('outside' as const) : ('disguised' as const),
      };
    });
}

function invalidDeltaArb(): fc.Arbitrary<DeltaInput> {
  const bad = fc.constantFrom<Record<string, unknown>>(
    { op: 'move', from: '/spec/role/instructions', path: '/state/summary' },
    { op: 'copy', from: '/spec/role/instructions', path: '/state/summary' },
    { op: 'test', path: '/state/summary', value: 'Original summary.' },
    { op: 'move', from: '/state/facts/0', path: '/state/summary' },
    { op: 'remove', path: '/state/summary', value: 'x' },
    { op: 'add', path: '/state/summary' },
    { op: 'replace', path: '/state/summary', value: 'x', from: '/spec' },
    { op: 'ADD', path: '/state/summary', value: 'x' },
    { path: '/state/summary', value: 'x' },
    { op: 'add', path: '/state/summary', value: 'x', confidence: 7 },
  );
  return fc
    .record({ bad, withValid: fc.boolean(), encoding: fc.constantFrom('yaml' as const, 'json' as const) })
    .map(({ bad, withValid, encoding }) => ({
      profile: stateProfile(),
      encoding,
      delta: deltaDoc(withValid ? [validOp, bad] : [bad]),
      expect: 'invalid' as const,
    }));
}

/** The file as a document, read the way the oracle reads it; undefined when it does not parse. */
function parseFile(text: string, encoding: Encoding): Record<string, unknown> | undefined {
  const parsed = parseDocument(text, encoding);
  return parsed.ok && parsed.value !== null && typeof parsed.value === 'object' ? (parsed.value as Record<string, unknown>) : undefined;
}

/** What a session may never change: spec and metadata minus applicator- and resolver-owned fields (SPEC §2.2). */
function authored(doc: Record<string, unknown> | undefined): unknown {
  try {
    return doc ? specDigestInput(doc) : undefined;
  } catch {
    return doc;
  }
}

/** What a delta input claims: a valid target profile and control delta, and a hostile operation of the named kind. */
function deltaMalformed(input: DeltaInput): string | undefined {
  const invalid = firstUndefined([input.profile, deltaDoc([validOp])], 'the target profile or the control delta');
  if (invalid) return invalid;
  const ops = input.delta.operations as Record<string, unknown>[];
  const last = ops.length - 1;
  const path = ops[last]?.path;
  const issues = oracleIssues(input.delta);
  if (input.expect === 'disguised') {
    // RFC 6901: the first token is `state`, so the pointer names something inside /state however it looks.
    return typeof path === 'string' && inStateScope(path) ? undefined : `${JSON.stringify(path)} is not a pointer into /state`;
  }
  if (input.expect === 'outside') {
    return issues.some((i) => i.pointer === `/operations/${last}/path`)
      ? undefined
      : `the oracle finds no problem with the operation path ${JSON.stringify(path)}`;
  }
  return issues.length > 0 ? undefined : 'the oracle accepts the delta';
}

/** Apply `delta` with approval to `path`. */
async function applyTo(env: ExecEnv, path: string, delta: Record<string, unknown>) {
  env.stats.adapterCalls++;
  return env.ctx.adapter.call('apply_delta', {
    profile_path: path,
    delta,
    approval: { operations: true, approver: 'fuzzer' },
    actor: 'oap-conform-fuzz',
    now: '2026-01-01T00:00:00Z',
  });
}

async function judgeDelta(env: ExecEnv, input: DeltaInput): Promise<Verdict> {
  const encoding = inputEncoding(env, input.encoding);
  // The control: the valid operation alone applies to the same profile, so a rejection of the
  // hostile delta is a judgement on its hostile operation and not a refusal of every delta.
  const refused = await control(env, JSON.stringify([input.profile, encoding]), async () => {
    const r = await applyTo(env, writeRunProfile(env.freshDir(), input.profile, encoding), deltaDoc([validOp]));
    if (r.outcome === 'applied') return undefined;
    return r.outcome === 'rejected'
      ? rejectedBy('control delta (one valid operation)', r.errors, 'delta')
      : notJudged('rejected', `control delta (one valid operation) ${r.outcome}`);
  });
  if (refused) return refused;
  const path = writeRunProfile(env.freshDir(), input.profile, encoding);
  const before = readFileSync(path);
  const r = await applyTo(env, path, input.delta);
  const after = readFileSync(path);
  const ops = (input.delta.operations as { path?: string }[]).map((o) => o.path);
  if (input.expect === 'disguised') {
    const a = authored(parseFile(before.toString('utf8'), encoding));
    const b = authored(parseFile(after.toString('utf8'), encoding));
    if (isDeepStrictEqual(a, b)) return HOLDS;
    return violated(
      `delta operation ${JSON.stringify(ops[ops.length - 1])} (${r.outcome}) changed /spec or /metadata`,
      { spec_and_metadata: 'unchanged' },
      { outcome: r.outcome, before: a, after: b },
    );
  }
  const identical = before.equals(after);
  if (r.outcome === 'rejected' && identical) return HOLDS;
  const what =
    input.expect === 'outside' ? `operation path ${JSON.stringify(ops[ops.length - 1])} is outside /state` : 'the delta is schema-invalid';
  return violated(
    `${what}, but apply_delta answered ${r.outcome}${identical ? '' : ' and the profile file changed'}`,
    { outcome: 'rejected', file: 'byte-identical' },
    { outcome: r.outcome, file: identical ? 'byte-identical' : 'changed', errors: r.errors },
  );
}

export const deltaScopeProperty: FuzzProperty<DeltaInput> = {
  name: 'delta-scope',
  requirement: 'L2-A2',
  clauses: ['L2-A2.outside-state-rejected'],
  title: 'Delta operations outside /state, plain or disguised, never touch the profile contract',
  weight: 1,
  runsPerCase: 20,
  arbitrary: scopeArb,
  malformed: deltaMalformed,
  execute: judgeDelta,
};

export const reservedOpsProperty: FuzzProperty<DeltaInput> = {
  name: 'reserved-ops',
  requirement: 'L2-A1',
  clauses: ['L2-A1.validated-first'],
  title: 'Schema-invalid deltas (reserved ops, malformed operations) are rejected before anything is applied',
  weight: 1,
  runsPerCase: 15,
  arbitrary: invalidDeltaArb,
  malformed: deltaMalformed,
  execute: judgeDelta,
};

// ---------------------------------------------------------------- L1-P2 hostile parsing

export interface ParseInput {
  /** What kind of hostility, and whether the spec requires refusal. */
  attack: string;
  mustReject: boolean;
  encoding: Encoding;
  /** Generator parameters (the text is rebuilt from them, so findings stay small). */
  params: Record<string, number | string>;
}

const YAML_HEAD = 'oap: "1.0"\nkind: AgentProfile\nmetadata:\n  name: fz-main\n  description: Hostile document.\n';

function yamlDoc(extraSpec: string, extraTop = ''): string {
  return `${YAML_HEAD}spec:\n  role:\n    instructions: You are fz-main.\n${extraSpec}${extraTop}`;
}

/** Build the document text for `input` (pure, so a finding needs only the parameters). */
function hostileText(input: ParseInput): string {
  const p = input.params;
  const n = Number(p.n ?? 1);
  switch (input.attack) {
    case 'yaml-dup-key': {
      const where = String(p.where);
      if (where === 'top') return `${yamlDoc('')}kind: AgentProfile\n`;
      if (where === 'metadata')
        return yamlDoc('').replace('  description: Hostile document.\n', '  description: Hostile document.\n  name: other-name\n');
      if (where === 'permissions') return yamlDoc('  permissions:\n    shell: deny\n    shell: allow\n');
      return yamlDoc('  role:\n    instructions: Second role.\n');
    }
    case 'json-dup-key':
      return `{"oap":"1.0","kind":"AgentProfile","metadata":{"name":"fz-main","description":"Hostile document."},"spec":{"role":{"instructions":"You are fz-main."},"permissions":{"shell":"deny","shell":"${p.value}"}}}`;
    case 'non-finite': {
      const where = String(p.where);
      if (input.encoding === 'json') {
        const num = String(p.json);
        return where === 'runtime'
          ? `{"oap":"1.0","kind":"AgentProfile","metadata":{"name":"fz-main","description":"Hostile document."},"spec":{"role":{"instructions":"x"},"runtime":{"max_cost_usd":${num}}}}`
          : `{"oap":"1.0","kind":"AgentProfile","metadata":{"name":"fz-main","description":"Hostile document."},"spec":{"role":{"instructions":"x"}},"state":{"metrics":{"total_cost_usd":${num}}}}`;
      }
      const num = String(p.yaml);
      return where === 'runtime'
        ? yamlDoc(`  runtime:\n    max_cost_usd: ${num}\n`)
        : yamlDoc('', `state:\n  metrics:\n    total_cost_usd: ${num}\n`);
    }
    case 'over-length': {
      const field = String(p.field);
      const long = (len: number): string => 'a'.repeat(len);
      const doc: {
        [key: string]: unknown;
        metadata: { name: string; description: string };
        spec: { role: { instructions: string } };
      } = {
        oap: '1.0',
        kind: 'AgentProfile',
        metadata: { name: 'fz-main', description: 'Hostile document.' },
        spec: { role: { instructions: 'x' } },
      };
      if (field === 'instructions') doc.spec.role.instructions = long(100001);
      else if (field === 'description') doc.metadata.description = long(501);
      else if (field === 'name') doc.metadata.name = long(65);
      else if (field === 'summary') doc.state = { summary: long(8001) };
      else doc.state = { facts: [{ id: 'f', text: long(4001) }] };
      return serializeDocument(doc, input.encoding);
    }
    case 'bomb': {
      // n levels of 9-fold aliasing: 9^n leaves once expanded.
      let s = 'x0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
      for (let i = 1; i <= n; i++) s += `        x${i}: &a${i} [${Array.from({ length: 9 }, () => `*a${i - 1}`).join(',')}]\n`;
      return yamlDoc(
        `  tools:\n    bindings:\n      - name: read\n        config:\n          ${s.trimStart().replace(/\n {8}/g, '\n          ')}`,
      );
    }
    case 'deep': {
      const open = String(p.shape) === 'array' ? '['.repeat(n) : '{"a":'.repeat(n);
      const close = String(p.shape) === 'array' ? ']'.repeat(n) : '}'.repeat(n);
      const nested = `${open}1${close}`;
      if (input.encoding === 'json')
        return `{"oap":"1.0","kind":"AgentProfile","metadata":{"name":"fz-main","description":"Hostile document."},"spec":{"role":{"instructions":"x"},"tools":{"bindings":[{"name":"read","config":{"v":${nested}}}]}}}`;
      return yamlDoc(`  tools:\n    bindings:\n      - name: read\n        config:\n          v: ${nested}\n`);
    }
    case 'huge-string': {
      const s = 'A'.repeat(n);
      if (input.encoding === 'json')
        return `{"oap":"1.0","kind":"AgentProfile","metadata":{"name":"fz-main","description":"Hostile document."},"spec":{"role":{"instructions":"x"},"tools":{"bindings":[{"name":"read","config":{"v":"${s}"}}]}}}`;
      return yamlDoc(`  tools:\n    bindings:\n      - name: read\n        config:\n          v: ${s}\n`);
    }
    default:
      throw new Error(`unknown hostile attack ${input.attack}`);
  }
}

/**
 * Hostile documents: without `withTimeOnlyAttacks`, the attacks whose answer L1-P2 judges (refused, or
 * answered without throwing); with true, also those whose answer may be anything and only the time
 * it takes is judged (bombs, deep nesting, huge strings).
 */
function parseArb(withTimeOnlyAttacks: boolean): fc.Arbitrary<ParseInput> {
  const yamlOrJson = fc.constantFrom('yaml' as const, 'json' as const);
  const refusals: fc.Arbitrary<ParseInput>[] = [
    fc.record({
      attack: fc.constant('yaml-dup-key'),
      mustReject: fc.constant(true),
      encoding: fc.constant('yaml' as const),
      params: fc.record({ where: fc.constantFrom('top', 'metadata', 'permissions', 'spec') }),
    }),
    fc.record({
      attack: fc.constant('json-dup-key'),
      mustReject: fc.constant(false),
      encoding: fc.constant('json' as const),
      params: fc.record({ value: fc.constantFrom('allow', 'deny', 'ask') }),
    }),
    fc.record({
      attack: fc.constant('non-finite'),
      mustReject: fc.constant(true),
      encoding: yamlOrJson,
      params: fc.record({
        where: fc.constantFrom('runtime', 'metrics'),
        yaml: fc.constantFrom('.inf', '.Inf', '+.inf', '.NaN', '-.inf'),
        json: fc.constantFrom('1e400', '1E999', '-1e400', '123456789e999'),
      }),
    }),
    fc.record({
      attack: fc.constant('over-length'),
      mustReject: fc.constant(true),
      encoding: yamlOrJson,
      params: fc.record({ field: fc.constantFrom('instructions', 'description', 'name', 'summary', 'fact') }),
    }),
  ];
  if (!withTimeOnlyAttacks) return fc.oneof(...refusals);
  return fc.oneof(
    ...refusals,
    fc.record({
      attack: fc.constant('bomb'),
      mustReject: fc.constant(false),
      encoding: fc.constant('yaml' as const),
      params: fc.record({ n: fc.integer({ min: 2, max: 9 }) }),
    }),
    fc.record({
      attack: fc.constant('deep'),
      mustReject: fc.constant(false),
      encoding: yamlOrJson,
      params: fc.record({ n: fc.integer({ min: 50, max: 20000 }), shape: fc.constantFrom('array', 'object') }),
    }),
    fc.record({
      attack: fc.constant('huge-string'),
      mustReject: fc.constant(false),
      encoding: yamlOrJson,
      params: fc.record({ n: fc.integer({ min: 100_000, max: 4_500_000 }) }),
    }),
  );
}

const FRAMEWORK_ERRORS = [AdapterCrashed, AdapterNotImplemented, AdapterProtocolError, AdapterSkipped, AdapterTimeout];

/** The encodings each attack can be written in (a YAML alias bomb has no JSON form, a JSON duplicate key no YAML one). */
const ATTACK_ENCODINGS: Record<string, readonly Encoding[]> = {
  'yaml-dup-key': ['yaml'],
  'json-dup-key': ['json'],
  'non-finite': ['yaml', 'json'],
  'over-length': ['yaml', 'json', 'md'],
  bomb: ['yaml'],
  deep: ['yaml', 'json'],
  'huge-string': ['yaml', 'json'],
};

/** The encoding to send `input` in: its own when the harness claims it, else another form of the attack the harness claims. */
function parseEncoding(env: ExecEnv, input: ParseInput): Encoding | undefined {
  const forms = ATTACK_ENCODINGS[input.attack] ?? [input.encoding];
  const claimed = env.ctx.handshake.encodings;
  return claimed.includes(input.encoding) && forms.includes(input.encoding) ? input.encoding : forms.find((e) => claimed.includes(e));
}

/** Does the oracle refuse `text` (parse problems, schema or any rule)? */
function oracleRefusesText(text: string, encoding: Encoding): boolean {
  const parsed = parseDocument(text, encoding);
  return !parsed.ok || oracleIssues(parsed.value).length > 0;
}

/** The benign document the hostile ones are variations of: the control every harness must accept. */
const BENIGN_PARSE_DOC: Doc = {
  oap: '1.0',
  kind: 'AgentProfile',
  metadata: { name: 'fz-main', description: 'Hostile document.' },
  spec: { role: { instructions: 'You are fz-main.' } },
};

export const hostileParseProperty: FuzzProperty<ParseInput> = {
  name: 'hostile-parse',
  requirement: 'L1-P2',
  clauses: ['L1-P2.validate'],
  title: 'Invalid documents are refused; hostile but well-formed ones are answered without crashing',
  // Half of the former share: the other half is hostile-parse-time's, so no other property's budget moves.
  weight: 0.5,
  runsPerCase: 15,
  arbitrary: () => parseArb(false),
  malformed(input) {
    const forms = ATTACK_ENCODINGS[input.attack];
    if (!forms) return `unknown attack ${input.attack}`;
    if (!forms.includes(input.encoding)) return `a ${input.attack} document has no ${input.encoding} form`;
    if (!input.mustReject) return undefined;
    const accepted = forms.find((e) => !oracleRefusesText(hostileText({ ...input, encoding: e }), e));
    return accepted ? `the oracle accepts the ${accepted} form of a ${input.attack} document that must be refused` : undefined;
  },
  async execute(env, input) {
    const encoding = parseEncoding(env, input);
    if (!encoding)
      return notJudged(
        'unclaimed',
        `a ${input.attack} document exists only in ${ATTACK_ENCODINGS[input.attack]!.join('/')}, which the harness does not claim`,
      );
    const refused = await control(env, encoding, async () => {
      env.stats.adapterCalls++;
      const r = await env.ctx.adapter.call('validate', { document: { content: serializeDocument(BENIGN_PARSE_DOC, encoding), encoding } });
      return r.valid ? undefined : rejectedBy(`control (a benign ${encoding} document) validate`, r.errors);
    });
    if (refused) return refused;
    const content = hostileText({ ...input, encoding });
    env.stats.adapterCalls++;
    let answer: Awaited<ReturnType<typeof env.ctx.adapter.call<'validate'>>>;
    try {
      answer = await env.ctx.adapter.call('validate', { document: { content, encoding } });
    } catch (err) {
      // Typed adapter errors keep their own status; anything else is the adapter throwing on input.
      if (FRAMEWORK_ERRORS.some((E) => err instanceof E)) throw err;
      return violated(
        `validate threw on a ${input.attack} document (${content.length} chars): ${(err as Error).message}`,
        { answer: 'valid or invalid' },
        { threw: String(err) },
      );
    }
    if (input.mustReject && answer.valid) {
      return violated(
        `a ${input.attack} document (${JSON.stringify(input.params)}) is invalid but validate accepted it`,
        { valid: false },
        { valid: true, warnings: answer.warnings },
      );
    }
    return HOLDS;
  },
};

export const hostileParseTimeProperty: FuzzProperty<ParseInput> = {
  name: 'hostile-parse-time',
  requirement: 'ADV-hostile-parse-time',
  clauses: ['ADV-hostile-parse-time.in-time'],
  title: `Hostile documents are answered, valid or not, within ${HOSTILE_TIME_BUDGET_MS} ms and the per-request timeout`,
  weight: 0.5,
  runsPerCase: 15,
  arbitrary: () => parseArb(true),
  // The same documents as hostile-parse (and the bombs): malformed exactly when that property's are.
  malformed: (input) => hostileParseProperty.malformed(input),
  async execute(env, input) {
    // After a late answer the adapter may still be busy, or its connection gone after a timeout:
    // later inputs of this case are not judged, so the late one stays the counterexample.
    if (env.memo.has('late')) return notJudged('rejected', 'an earlier input of this case was answered late');
    const encoding = parseEncoding(env, input);
    if (!encoding)
      return notJudged(
        'unclaimed',
        `a ${input.attack} document exists only in ${ATTACK_ENCODINGS[input.attack]!.join('/')}, which the harness does not claim`,
      );
    env.stats.adapterCalls++;
    const t = await timedValidate(env.ctx, hostileText({ ...input, encoding }), encoding);
    if (!tooLate(t)) return HOLDS;
    env.memo.set('late', true);
    return violated(
      `validate ${t.timedOut ? 'did not answer before the per-request timeout' : `answered after ${Math.round(t.elapsedMs)} ms`} for a ${input.attack} document (${JSON.stringify(input.params)})`,
      { within_ms: HOSTILE_TIME_BUDGET_MS },
      { elapsed_ms: Math.round(t.elapsedMs), timed_out: t.timedOut },
    );
  },
};

// ---------------------------------------------------------------- L1-P1 random schema-valid documents

export interface FakerInput {
  seed: number;
  encoding: 'yaml' | 'json';
  /** The document; regenerated from `seed` by the arbitrary, stored whole so replays need no faker. */
  document: Doc;
}

export const fakerProperty: FuzzProperty<FakerInput> = {
  name: 'faker',
  requirement: 'L1-P1',
  clauses: ['L1-P1.accept'],
  title: 'Random documents the oracle finds valid are accepted in every encoding the adapter claims',
  weight: 0.5,
  runsPerCase: 4,
  arbitrary: () =>
    fc
      .record({ seed: fc.noShrink(fc.integer({ min: 1, max: 0x7fffffff })), encoding: fc.constantFrom('yaml' as const, 'json' as const) })
      .map(({ seed, encoding }) => ({ seed, encoding, document: fakerDocument(seed) })),
  // Shrink candidates are malformed whenever a removal breaks a rule: they are then not judged and not taken.
  malformed: (input) => fakerProblem(input.document),
  async execute(env, input) {
    const encoding = inputEncoding(env, input.encoding);
    env.stats.adapterCalls++;
    const r = await env.ctx.adapter.call('validate', { document: { content: serializeDocument(input.document, encoding), encoding } });
    if (r.valid) return HOLDS;
    // A valid document refused is itself the evidence (L1-P1: the claimed encoding is not accepted).
    return violated(
      `a document the oracle finds valid was refused in the claimed ${encoding} encoding: ${r.errors[0]?.category ?? 'no issue reported'} at ${r.errors[0]?.pointer || '/'}`,
      { valid: true },
      { valid: false, errors: r.errors.slice(0, 5) },
    );
  },
  shrink: (input) => removalCandidates(input.document).map((document) => ({ ...input, document })),
};

/** Documents with one optional member or array element removed (required members are left alone). */
function removalCandidates(doc: Doc): Doc[] {
  const out: Doc[] = [];
  const keep = new Set([
    'oap',
    'kind',
    'metadata',
    'spec',
    'name',
    'description',
    'role',
    'instructions',
    'transport',
    'command',
    'url',
    'id',
    'text',
    'term',
    'definition',
    'title',
    'path',
    'uri',
    'hook',
    'decision',
    'revision',
    'at',
    'input',
    'output',
    'provider',
  ]);
  const walk = (node: unknown, path: (string | number)[]): void => {
    if (Array.isArray(node)) {
      node.forEach((v, i) => {
        out.push(without(doc, [...path, i]));
        walk(v, [...path, i]);
      });
    } else if (node !== null && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) {
        if (!keep.has(k)) out.push(without(doc, [...path, k]));
        walk(v, [...path, k]);
      }
    }
  };
  walk(doc, []);
  return out;
}

function without(doc: Doc, path: (string | number)[]): Doc {
  const copy = structuredClone(doc);
  // Every step of `path` names an object or array of `doc` (the walk above only records those).
  const node = valueAt(copy, path.slice(0, -1).map(String)) as Record<string, unknown>;
  const last = path[path.length - 1]!;
  if (Array.isArray(node)) node.splice(Number(last), 1);
  else delete node[last];
  return copy;
}

// ---------------------------------------------------------------- L1-P2 invalid documents never instantiate

export interface InvalidInput {
  profile: Doc;
  policy: HarnessPolicyT;
  /** The schema-breaking mutation applied to an otherwise valid profile. */
  mutation: string;
  encoding: Encoding;
  /** That valid profile, unmutated: the positive control (findings written before it existed use the minimal profile). */
  control?: Doc;
}

/** The parts of a `profileDoc` document the mutations reach into. */
interface MutableProfile {
  [key: string]: unknown;
  metadata: Record<string, unknown>;
  spec: { [key: string]: unknown; role?: Record<string, unknown> };
}

/** One schema violation each; every one is plainly invalid under agent-profile.schema.json. */
const MUTATIONS: Record<string, (d: MutableProfile) => void> = {
  'unknown-top-level': (d) => (d.permissions = { shell: 'allow' }),
  'unknown-spec-key': (d) => (d.spec.capabilities = ['shell']),
  'unknown-permission-key': (d) => (d.spec.permissions = { ...(d.spec.permissions ?? {}), sudo: 'allow' }),
  'bad-decision': (d) => (d.spec.permissions = { ...(d.spec.permissions ?? {}), shell: 'always' }),
  'bad-tools-policy': (d) => (d.spec.tools = { ...(d.spec.tools ?? {}), policy: 'everything' }),
  'allow-not-array': (d) => (d.spec.tools = { ...(d.spec.tools ?? {}), allow: '*' }),
  'missing-role': (d) => delete d.spec.role,
  'empty-instructions': (d) => (d.spec.role!.instructions = ''),
  'missing-description': (d) => delete d.metadata.description,
  'bad-name': (d) => (d.metadata.name = 'Fz Main!'),
  'negative-budget': (d) => (d.spec.runtime = { ...(d.spec.runtime ?? {}), max_turns: 0 }),
  'zero-cost': (d) => (d.spec.runtime = { ...(d.spec.runtime ?? {}), max_cost_usd: 0 }),
  'depth-over-cap': (d) => (d.spec.runtime = { ...(d.spec.runtime ?? {}), subagents: { max_depth: 9 } }),
  'string-budget': (d) => (d.spec.context = { budget: { max_state_tokens: '100' } }),
  'bad-memory-mode': (d) => (d.spec.memory = { mode: 'admin' }),
};

function invalidArb(): fc.Arbitrary<InvalidInput> {
  return fc
    .record({
      base: fc.constantFrom(
        {},
        { tools: { allow: ['read'] }, permissions: { shell: 'deny' as const } },
        { memory: { mode: 'read_only' as const }, runtime: { max_turns: 5 } },
      ),
      mutation: fc.constantFrom(...Object.keys(MUTATIONS)),
      encoding: fc.constantFrom('yaml' as const, 'json' as const, 'md' as const),
    })
    .map(({ base, mutation, encoding }) => {
      const control = minimalProfile('fz-main', structuredClone(base));
      const profile = structuredClone(control);
      MUTATIONS[mutation]!(profile as MutableProfile);
      return { profile, policy: permissivePolicy(), mutation, encoding, control };
    });
}

export const invalidInstantiateProperty: FuzzProperty<InvalidInput> = {
  name: 'invalid-instantiate',
  requirement: 'L1-P2',
  clauses: ['L1-P2.refuse-invalid'],
  title: 'A schema-invalid profile is never instantiated',
  weight: 0.5,
  runsPerCase: 15,
  arbitrary: invalidArb,
  malformed(input) {
    if (oracleIssues(input.profile).length === 0) return `mutation ${input.mutation} left the profile valid`;
    return firstUndefined([input.control ?? minimalProfile('fz-main')], 'the unmutated profile');
  },
  async execute(env, input) {
    // Markdown cannot carry a document without instructions in the body; use YAML for that one.
    const encoding = input.mutation === 'missing-role' || input.mutation === 'empty-instructions' ? 'yaml' : input.encoding;
    const twin = input.control ?? minimalProfile('fz-main');
    const refused = await control(env, JSON.stringify([twin, encoding]), async () => {
      const { outcome } = await instantiateIn(env, twin, input.policy, { encoding });
      return outcome.status === 'rejected' ? rejectedBy('control (the profile before the mutation)', outcome.errors) : undefined;
    });
    if (refused) return refused;
    let outcome: InstantiateOutcomeT;
    try {
      ({ outcome } = await instantiateIn(env, input.profile, input.policy, { encoding }));
    } catch (err) {
      // An invalid value carried into the contract makes the result protocol-invalid; a malformed
      // result with an /effective (or /prompt, /session) part is still an instantiation.
      if (err instanceof AdapterProtocolError && /^\/(effective|prompt|session)(\/|$)/.test(err.pointer)) {
        return violated(
          `a profile made schema-invalid by "${input.mutation}" was instantiated (its contract is not even protocol-valid: ${err.message})`,
          { status: 'rejected', category: 'schema' },
          { status: 'instantiated', protocol_error: err.pointer },
        );
      }
      throw err;
    }
    if (outcome.status === 'rejected') return HOLDS;
    return violated(
      `a profile made schema-invalid by "${input.mutation}" was instantiated`,
      { status: 'rejected', category: 'schema' },
      { status: 'instantiated' },
    );
  },
};

/**
 * Resolve-time refusals: L1-I5 (context paths escaping the workspace, behavioural test 3), the
 * advisory ADV-working-directory-escape (the same escapes for `context.working_directory`, which no
 * ID names: security.md T6), L1-I6 (literal values in MCP env and headers, behavioural test 4), the
 * advisory ADV-env-same-name (an env reference of another name: no literal, so not L1-I6's;
 * INTERPRETATIONS.md#a-reference-of-another-name) and L1-I7 (a required skill or memory store that
 * is unavailable).
 *
 * Each case pairs the hostile profile with a control that differs only in the offending value and
 * must instantiate, so an adapter that refuses everything, or refuses the whole feature, does not
 * pass (the inside paths, of context files and of the working directory, are cases of controls alone). The refusal is judged on `instantiate` (resolve time), the category is recorded as a note.
 */
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { HarnessPolicyT } from '../../protocol/messages.js';
import { fail } from '../kit/assert.js';
import type { CaseContext, CaseDef } from '../kit/types.js';
import { briefIssues, instantiatePath, minimalProfile, permissivePolicy, requireSession, writeProjectProfile } from '../support/index.js';

async function expectRefused(ctx: CaseContext, doc: Record<string, unknown>, policy: HarnessPolicyT, what: string): Promise<void> {
  const out = await instantiatePath(ctx, writeProjectProfile(ctx, doc), policy);
  if (out.status !== 'rejected') {
    fail(
      `${what}: instantiated instead of rejected at resolve time`,
      { status: 'rejected' },
      { status: out.status, tools: out.effective.tools },
    );
  }
  ctx.note('refusal', briefIssues(out.errors));
}

async function expectControl(ctx: CaseContext, doc: Record<string, unknown>, policy: HarnessPolicyT, what: string): Promise<void> {
  requireSession(await instantiatePath(ctx, writeProjectProfile(ctx, doc), policy, { role: 'control' }), `control (${what})`);
}

// ---------------------------------------------------------------- L1-I5

/** A workspace with docs/guide.md inside and a secret file outside it. */
function prepareTree(ctx: CaseContext): void {
  ctx.workspace.writeFile(join(ctx.workspace.dir, 'docs', 'guide.md'), '# Guide\n');
  ctx.workspace.writeFile(join(ctx.workspace.root, 'outside', 'secret.txt'), 'not for the agent\n');
}

interface EscapeCase {
  slug: string;
  title: string;
  path: (ctx: CaseContext) => string;
  setup?: (ctx: CaseContext) => void;
}

const ESCAPES: EscapeCase[] = [
  { slug: 'dotdot-etc-passwd', title: 'Behavioural test 3: ../../etc/passwd', path: () => '../../etc/passwd' },
  { slug: 'absolute-path', title: 'An absolute path (the policy does not permit absolute paths)', path: () => '/etc/passwd' },
  {
    slug: 'absolute-path-inside-workspace',
    title: 'An absolute path even when it names a file inside the workspace',
    path: (ctx) => join(ctx.workspace.dir, 'docs', 'guide.md'),
  },
  {
    slug: 'dotdot-after-subdirectory',
    title: 'docs/../../outside/secret.txt escapes after a real subdirectory',
    path: () => 'docs/../../outside/secret.txt',
  },
  { slug: 'dot-segments-then-escape', title: './docs/./../../outside/secret.txt', path: () => './docs/./../../outside/secret.txt' },
  { slug: 'single-dotdot', title: '.. alone names the workspace’s parent', path: () => '..' },
  {
    slug: 'backslash-dotdot',
    title: '..\\..\\outside\\secret.txt (a separator on Windows)',
    path: () => '..\\..\\outside\\secret.txt',
  },
  {
    slug: 'symlink-out-of-workspace',
    title: 'A path through a symlink inside the workspace that points outside it (resolved before the check)',
    path: () => 'linked/secret.txt',
    setup: (ctx) => {
      mkdirSync(join(ctx.workspace.root, 'outside'), { recursive: true });
      symlinkSync(join(ctx.workspace.root, 'outside'), join(ctx.workspace.dir, 'linked'), 'dir');
    },
  },
  // Issue 14: a file symlink, and a .. after a symlink (the file system climbs from the link's target).
  {
    slug: 'file-symlink-out-of-workspace',
    title: 'A file in the workspace that is a symlink to a file outside it (resolved before the check)',
    path: () => 'notes.md',
    setup: (ctx) => symlinkSync(join(ctx.workspace.root, 'outside', 'secret.txt'), join(ctx.workspace.dir, 'notes.md'), 'file'),
  },
  {
    slug: 'dotdot-after-symlink',
    title: 'linked/../secret.txt where linked points to outside/sub: lexically inside, on disk outside/secret.txt',
    path: () => 'linked/../secret.txt',
    setup: (ctx) => {
      mkdirSync(join(ctx.workspace.root, 'outside', 'sub'), { recursive: true });
      symlinkSync(join(ctx.workspace.root, 'outside', 'sub'), join(ctx.workspace.dir, 'linked'), 'dir');
    },
  },
];

function escapeCase(e: EscapeCase): CaseDef {
  return {
    id: `L1-I5/${e.slug}`,
    requirements: ['L1-I5'],
    clauses: ['L1-I5.reject-outside'],
    title: `context.files path escaping the workspace rejected: ${e.title}`,
    expectation: { instantiate: 'rejected', control: 'instantiated' },
    async run(ctx) {
      prepareTree(ctx);
      e.setup?.(ctx);
      const files = (path: string) => ({ context: { files: [{ path, mode: 'always' }] } });
      await expectControl(ctx, minimalProfile('context-inside', files('docs/guide.md')), permissivePolicy(), 'docs/guide.md');
      await expectRefused(
        ctx,
        minimalProfile('context-escape', files(e.path(ctx))),
        permissivePolicy(),
        `context.files path ${e.path(ctx)}`,
      );
    },
  };
}

/** Context files inside the workspace whose names a hasty containment check refuses. */
const UNICODE_FILE = 'docs/caf\u00e9-\u{1F600}.md';
const DOTDOT_INSIDE_FILE = 'docs/../notes/todo.md';

/**
 * Both files exist, and the one document lists both: refusing either would be refusing the field,
 * not the escape (a refusal citing `path-escape` is L1-I5's own and fails the case).
 */
const insidePathsAccepted: CaseDef = {
  id: 'L1-I5/inside-paths-accepted',
  requirements: ['L1-I5'],
  clauses: ['L1-I5.reject-outside'],
  title: 'context.files paths inside the workspace instantiate: a non-ASCII and astral file name, and a .. that stays inside',
  expectation: { instantiate: 'instantiated', paths: [UNICODE_FILE, DOTDOT_INSIDE_FILE] },
  async run(ctx) {
    prepareTree(ctx);
    ctx.workspace.writeFile(join(ctx.workspace.dir, UNICODE_FILE), '# Caf\u00e9\n');
    ctx.workspace.writeFile(join(ctx.workspace.dir, 'notes', 'todo.md'), '# To do\n');
    const files = [UNICODE_FILE, DOTDOT_INSIDE_FILE].map((path) => ({ path, mode: 'always' }));
    await expectControl(
      ctx,
      minimalProfile('context-inside', { context: { files } }),
      permissivePolicy(),
      files.map((f) => f.path).join(', '),
    );
  },
};

// ---------------------------------------------------------------- ADV-working-directory-escape

/**
 * security.md T6 names `context.working_directory` beside `context.files`, but no requirement ID
 * does (INTERPRETATIONS.md, ADV-working-directory-escape): the same escapes as L1-I5's, for a
 * directory. Every directory named exists, so a refusal is never about a missing one.
 */
const UNICODE_DIRECTORY = 'docs/caf\u00e9-\u{1F600}';

function prepareDirectories(ctx: CaseContext): void {
  prepareTree(ctx);
  for (const dir of ['notes', UNICODE_DIRECTORY]) mkdirSync(join(ctx.workspace.dir, dir), { recursive: true });
}

const WORKING_DIRECTORY_ESCAPES: EscapeCase[] = [
  { slug: 'dotdot-etc', title: '../../etc', path: () => '../../etc' },
  { slug: 'single-dotdot', title: '.. alone names the workspace’s parent', path: () => '..' },
  { slug: 'dotdot-after-subdirectory', title: 'docs/../../outside escapes after a real subdirectory', path: () => 'docs/../../outside' },
  { slug: 'dot-segments-then-escape', title: './docs/./../../outside', path: () => './docs/./../../outside' },
  { slug: 'absolute-path', title: 'An absolute path (the policy does not permit absolute paths)', path: () => '/etc' },
  {
    slug: 'absolute-path-inside-workspace',
    title: 'An absolute path even when it names a directory inside the workspace',
    path: (ctx) => join(ctx.workspace.dir, 'docs'),
  },
  { slug: 'backslash-dotdot', title: '..\\..\\outside (a separator on Windows)', path: () => '..\\..\\outside' },
  {
    slug: 'symlink-out-of-workspace',
    title: 'A directory symlink inside the workspace that points outside it (resolved before the check)',
    path: () => 'linked',
    setup: (ctx) => symlinkSync(join(ctx.workspace.root, 'outside'), join(ctx.workspace.dir, 'linked'), 'dir'),
  },
  {
    slug: 'dotdot-after-symlink',
    title: 'linked/.. where linked points to outside/sub: lexically the workspace, on disk outside',
    path: () => 'linked/..',
    setup: (ctx) => {
      mkdirSync(join(ctx.workspace.root, 'outside', 'sub'), { recursive: true });
      symlinkSync(join(ctx.workspace.root, 'outside', 'sub'), join(ctx.workspace.dir, 'linked'), 'dir');
    },
  },
];

const workingDirectory = (path: string) => ({ context: { working_directory: path } });

function workingDirectoryEscapeCase(e: EscapeCase): CaseDef {
  return {
    id: `ADV-working-directory-escape/${e.slug}`,
    requirements: ['ADV-working-directory-escape'],
    clauses: ['ADV-working-directory-escape.reject-outside'],
    title: `context.working_directory escaping the workspace rejected: ${e.title}`,
    expectation: { instantiate: 'rejected', control: 'instantiated' },
    async run(ctx) {
      prepareDirectories(ctx);
      e.setup?.(ctx);
      await expectControl(ctx, minimalProfile('workdir-inside', workingDirectory('docs')), permissivePolicy(), 'docs');
      await expectRefused(
        ctx,
        minimalProfile('workdir-escape', workingDirectory(e.path(ctx))),
        permissivePolicy(),
        `context.working_directory ${e.path(ctx)}`,
      );
    },
  };
}

interface InsideCase {
  slug: string;
  title: string;
  paths: readonly string[];
}

/** Directories inside the workspace: refusing them would be refusing the field, not the escape. */
const WORKING_DIRECTORIES_INSIDE: InsideCase[] = [
  { slug: 'workspace-itself-accepted', title: '`.` and the empty path name the workspace itself', paths: ['.', ''] },
  { slug: 'unicode-name-accepted', title: 'a directory with non-ASCII and astral characters in its name', paths: [UNICODE_DIRECTORY] },
  { slug: 'dotdot-inside-accepted', title: 'docs/../notes climbs and stays inside', paths: ['docs/../notes'] },
];

function workingDirectoryInsideCase(c: InsideCase): CaseDef {
  return {
    id: `ADV-working-directory-escape/${c.slug}`,
    requirements: ['ADV-working-directory-escape'],
    clauses: ['ADV-working-directory-escape.reject-outside'],
    title: `context.working_directory inside the workspace instantiates: ${c.title}`,
    expectation: { instantiate: 'instantiated' },
    async run(ctx) {
      prepareDirectories(ctx);
      for (const path of c.paths) {
        await expectControl(ctx, minimalProfile('workdir-inside', workingDirectory(path)), permissivePolicy(), JSON.stringify(path));
      }
    },
  };
}

// ---------------------------------------------------------------- L1-I6

interface SecretCase {
  slug: string;
  title: string;
  server: Record<string, unknown>;
  control: Record<string, unknown>;
  /** The same-name rule, which no ID's text covers (INTERPRETATIONS.md#a-reference-of-another-name). */
  advisory?: 'ADV-env-same-name';
}

const stdio = { name: 'tracker', transport: 'stdio', command: 'tracker-mcp', args: ['--readonly'] };
const http = { name: 'search', transport: 'http', url: 'https://mcp.example.com/search' };

const SECRETS: SecretCase[] = [
  {
    slug: 'env-literal-sk-live',
    title: 'Behavioural test 4: env.TOKEN "sk-live-abc123"',
    server: { ...stdio, env: { TOKEN: 'sk-live-abc123' } },
    control: { ...stdio, env: { TOKEN: '${TOKEN}' } },
  },
  {
    slug: 'env-bare-dollar',
    title: 'env value "$TOKEN" (not a ${VAR} reference) is a literal',
    server: { ...stdio, env: { TOKEN: '$TOKEN' } },
    control: { ...stdio, env: { TOKEN: '${TOKEN}' } },
  },
  {
    slug: 'env-reference-with-suffix',
    title: 'env value "${TOKEN}-prod" mixes a reference with literal text',
    server: { ...stdio, env: { TOKEN: '${TOKEN}-prod' } },
    control: { ...stdio, env: { TOKEN: '${TOKEN}' } },
  },
  {
    slug: 'env-reference-of-another-name',
    title: 'env FILES_TOKEN "${HOME_TOKEN}": a reference, but not the same-name one (SPEC 3.4)',
    server: { ...stdio, env: { FILES_TOKEN: '${HOME_TOKEN}' } },
    control: { ...stdio, env: { FILES_TOKEN: '${FILES_TOKEN}' } },
    advisory: 'ADV-env-same-name',
  },
  {
    slug: 'env-reference-trailing-newline',
    title: 'env value "${TOKEN}\\n": the reference followed by a newline is not a whole reference',
    server: { ...stdio, env: { TOKEN: '${TOKEN}\n' } },
    control: { ...stdio, env: { TOKEN: '${TOKEN}' } },
  },
  {
    slug: 'header-bearer-literal',
    title: 'headers.Authorization "Bearer sk-live-abc123"',
    server: { ...http, headers: { Authorization: 'Bearer sk-live-abc123' } },
    control: { ...http, headers: { Authorization: 'Bearer ${TOKEN}' } },
  },
  {
    slug: 'header-plain-literal',
    title: 'headers.X-Api-Key "abc123" without any reference',
    server: { ...http, headers: { 'X-Api-Key': 'abc123' } },
    control: { ...http, headers: { 'X-Api-Key': '${TOKEN}' } },
  },
  {
    slug: 'header-bearer-lower-case',
    title: 'headers.Authorization "bearer ${API_TOKEN}": the prefix is `Bearer`, as written',
    server: { ...http, headers: { Authorization: 'bearer ${API_TOKEN}' } },
    control: { ...http, headers: { Authorization: 'Bearer ${API_TOKEN}' } },
  },
  {
    slug: 'header-reference-trailing-newline',
    title: 'headers.Authorization "Bearer ${API_TOKEN}\\n" (header references may name any variable; a trailing newline makes a literal)',
    server: { ...http, headers: { Authorization: 'Bearer ${API_TOKEN}\n' } },
    control: { ...http, headers: { Authorization: 'Bearer ${API_TOKEN}' } },
  },
];

function secretCase(s: SecretCase): CaseDef {
  return {
    id: `${s.advisory ?? 'L1-I6'}/${s.slug}`,
    requirements: [s.advisory ?? 'L1-I6'],
    clauses: [s.advisory ? 'ADV-env-same-name.same-name' : 'headers' in s.server ? 'L1-I6.headers' : 'L1-I6.env'],
    title: s.advisory ? `MCP env reference of another name refused: ${s.title}` : `Literal MCP secret rejected: ${s.title}`,
    expectation: { instantiate: 'rejected', control: 'instantiated' },
    async run(ctx) {
      // The variables exist, so the control's reference resolves; the literal must still be refused.
      const value = 'value-from-the-environment';
      const policy = permissivePolicy({
        env: { TOKEN: value, FILES_TOKEN: value, HOME_TOKEN: value, API_TOKEN: value },
        mcp: { catalog: { tracker: ['list'], search: ['query'] }, auto_launch: false },
      });
      await expectControl(
        ctx,
        minimalProfile('mcp-reference', { tools: { mcp_servers: [s.control] } }),
        policy,
        'same server with ${TOKEN}',
      );
      await expectRefused(ctx, minimalProfile('mcp-literal', { tools: { mcp_servers: [s.server] } }), policy, s.title);
    },
  };
}

// ---------------------------------------------------------------- L1-I7

const requiredSkillMissing: CaseDef = {
  id: 'L1-I7/required-skill-missing',
  requirements: ['L1-I7'],
  clauses: ['L1-I7.skill'],
  title: 'A required skill that is not installed fails instantiation; the same skill optional does not',
  expectation: { required: 'rejected', optional: 'instantiated' },
  async run(ctx) {
    const policy = permissivePolicy({ skills: [{ name: 'changelog-style' }] });
    const skills = (required: boolean) => ({ tools: { skills: [{ name: 'changelog-style' }, { name: 'pdf-forms', required }] } });
    await expectControl(ctx, minimalProfile('skill-optional', skills(false)), policy, 'missing skill not required');
    await expectRefused(ctx, minimalProfile('skill-required', skills(true)), policy, 'required skill pdf-forms is not installed');
  },
};

const requiredStoreUnreachable: CaseDef = {
  id: 'L1-I7/required-store-unreachable',
  requirements: ['L1-I7'],
  clauses: ['L1-I7.memory-store'],
  title: 'A required memory store that cannot be reached fails instantiation; the same store optional does not',
  expectation: { required: 'rejected', optional: 'instantiated' },
  async run(ctx) {
    const policy = permissivePolicy({
      memory: {
        mode: 'read_write',
        scopes: ['project:acme'],
        store_kinds: ['oap-state', 'vector'],
        stores: [{ name: 'team-index', kind: 'vector', reachable: false }],
      },
    });
    const memory = (required: boolean) => ({ memory: { mode: 'read_only', stores: [{ name: 'team-index', kind: 'vector', required }] } });
    await expectControl(ctx, minimalProfile('store-optional', memory(false)), policy, 'unreachable store not required');
    await expectRefused(ctx, minimalProfile('store-required', memory(true)), policy, 'required store team-index is unreachable');
  },
};

const requiredStoreUnknownKind: CaseDef = {
  id: 'L1-I7/required-store-kind-unsupported',
  requirements: ['L1-I7'],
  clauses: ['L1-I7.memory-store'],
  title: 'A required memory store of a kind the harness does not implement fails instantiation',
  expectation: { required: 'rejected', optional: 'instantiated' },
  async run(ctx) {
    const policy = permissivePolicy();
    const memory = (required: boolean) => ({
      memory: { mode: 'read_only', stores: [{ name: 'org-graph', kind: 'maggraph', uri: 'maggraph://org/main', required }] },
    });
    await expectControl(ctx, minimalProfile('graph-optional', memory(false)), policy, 'unsupported store not required');
    await expectRefused(ctx, minimalProfile('graph-required', memory(true)), policy, 'required store of kind maggraph is unavailable');
  },
};

export const resolveRejectionCases: CaseDef[] = [
  ...ESCAPES.map(escapeCase),
  insidePathsAccepted,
  ...WORKING_DIRECTORY_ESCAPES.map(workingDirectoryEscapeCase),
  ...WORKING_DIRECTORIES_INSIDE.map(workingDirectoryInsideCase),
  ...SECRETS.map(secretCase),
  requiredSkillMissing,
  requiredStoreUnreachable,
  requiredStoreUnknownKind,
];

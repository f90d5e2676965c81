/**
 * The package as a newcomer installs it, proved from the tarball `npm pack` makes: installed into a
 * fresh project outside the checkout (dependencies from the npm registry, npm's cache inside the
 * temporary directory), `npx oap-conform init --lang ts` and `--lang python`, `smoke` of both
 * starters, then the TypeScript starter completed as sdk/WRITING.md says (its handlers wired
 * to a harness: here oap-conform's own reference harness, searching the project root only) passes
 * smoke and reaches Level 1, its cross-root collision cases (L1-D3) ending not-applicable after the
 * probe, so that requirement passes vacuously. Nothing in the project refers to the checkout.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../../results/model.js';
import { fromRoot } from '../../spec/package-root.js';
import { ensureBuilt } from '../engine/helpers.js';

const root = mkdtempSync(join(tmpdir(), 'oap-package-'));
const project = join(root, 'project');
const version = (pkg: string) =>
  (JSON.parse(readFileSync(fromRoot('node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;

/**
 * The environment of a user's shell: none of what `npm test` says about the checkout (npm_package_*,
 * npm_lifecycle_*, its prefix), the machine's registry settings kept, npm's cache in the temp dir.
 */
const KEEP = new Set(['npm_config_registry', 'npm_config_userconfig', 'npm_config_globalconfig']);
const env = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => (!k.startsWith('npm_') || KEEP.has(k)) && k !== 'INIT_CWD')),
  npm_config_cache: join(root, 'npm-cache'),
  npm_config_update_notifier: 'false',
  npm_config_fund: 'false',
  npm_config_audit: 'false',
  CI: 'true',
};

function sh(cmd: string, args: string[], cwd = project): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', timeout: 240_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
const npx = (...args: string[]) => sh('npx', ['oap-conform', ...args]);
/**
 * What `npx oap-conform` and `npx tsc` run once npm has found them: the project's own bin links.
 * npx itself (about 0.4 s of npm per call) is proved once, by `npx oap-conform --version`.
 */
const bin = (name: string, ...args: string[]) => sh(join(project, 'node_modules', '.bin', name), args);
const oap = (...args: string[]) => bin('oap-conform', ...args);

/** The starter, completed: every operation Level 1 needs goes to the harness, over the project root only. */
const COMPLETED = `import { PROTOCOL_VERSION, RPC_ERROR, RpcError, defineAdapter, isMain, serveStdio, type MethodName, type Params, type Result } from 'oap-conform/sdk';
import { createReferenceAdapter } from 'oap-conform/reference';

export default function createAdapter() {
  // The harness under test. This one searches only the project root, whatever roots it is offered.
  const harness = createReferenceAdapter();
  const call = <M extends MethodName>(method: M, params: Params<M>) => harness.handle(method, params) as Promise<Result<M>>;
  const projectOnly = <P extends { roots: Params<'discover'>['roots'] }>(p: P): P => ({ ...p, roots: p.roots.project === undefined ? {} : { project: p.roots.project } });
  return defineAdapter({
    initialize: async (params) => {
      if (!params.protocol_versions.includes(PROTOCOL_VERSION)) {
        throw new RpcError(RPC_ERROR.UNSUPPORTED_PROTOCOL_VERSION, \`protocol \${PROTOCOL_VERSION} only\`);
      }
      return {
        protocol_version: PROTOCOL_VERSION,
        implementation: { name: 'my-harness', version: '0.0.1', language: 'typescript' },
        level: 1,
        encodings: ['yaml', 'json', 'md'],
        discovery_roots: ['project'],
        unimplemented: [],
      };
    },
    validate: (p) => call('validate', p),
    discover: (p) => call('discover', projectOnly(p)),
    instantiate: (p) => call('instantiate', projectOnly(p)),
    describe_session: (p) => call('describe_session', p),
    write_back: (p) => call('write_back', p),
  });
}

if (isMain(import.meta.url)) await serveStdio(createAdapter());
`;

beforeAll(() => {
  ensureBuilt();
  // --ignore-scripts: dist/ is already built (npm test's pretest); packing must not rebuild it under running tests.
  const packed = execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', root], {
    cwd: fromRoot(),
    env,
    encoding: 'utf8',
  }).trim();
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    `${JSON.stringify({ name: 'my-harness-adapter', version: '0.0.1', private: true }, null, 2)}\n`,
  );
  const installed = sh('npm', [
    'install',
    '--save-dev',
    '--ignore-scripts',
    join(root, packed.split('\n').at(-1)!),
    `typescript@${version('typescript')}`,
    `@types/node@${version('@types/node')}`,
  ]);
  if (installed.status !== 0) throw new Error(`npm install failed: ${installed.stderr}`);
}, 300_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the packed package, installed in a fresh project', () => {
  it('ships the CLI, the SDK entry point with its types, and nothing of the tests', () => {
    const pkg = join(project, 'node_modules', 'oap-conform');
    const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
    expect(Object.keys(manifest.exports)).toEqual(['./sdk', './reference', './package.json']);
    for (const f of ['dist/sdk/ts/index.d.ts', 'dist/harnesses/reference/index.d.ts', 'sdk/WRITING.md', 'spec/requirements.ts'])
      expect(() => readFileSync(join(pkg, f)), f).not.toThrow();
    expect(readdirSync(pkg)).not.toContain('tests');
    expect(readFileSync(join(project, 'package-lock.json'), 'utf8')).not.toContain(fromRoot());
    const own = JSON.parse(readFileSync(fromRoot('package.json'), 'utf8')) as { version: string };
    expect(npx('--version').stdout.trim()).toBe(own.version);
  });

  it('init --lang python writes a starter whose smoke passes the handshake and declines the rest', () => {
    const init = oap('init', '--lang', 'python', '--dir', 'py');
    expect(init.status, init.stderr).toBe(0);
    expect(init.stdout).toContain(`guide: ${join(project, 'node_modules', 'oap-conform', 'sdk', 'WRITING.md')}`);
    const smoke = oap('smoke', '--adapter', 'python3 py/my_adapter.py');
    expect(smoke.status).toBe(1);
    expect(smoke.stdout).toMatch(/✓ initialize: my-harness 0\.0\.1 \(python\)/);
    expect(smoke.stdout).toMatch(/smoke: 4 of 5 steps failed/);
  });

  it('init --lang ts: the starter compiles against oap-conform/sdk, smokes, and once completed reaches Level 1 with a project-only root', () => {
    const init = oap('init', '--lang', 'ts');
    expect(init.status, init.stderr).toBe(0);
    expect(init.stdout).not.toMatch(/not installed|note:|\.d\.ts/);
    // The starter compiles against the installed package's declarations. That the uncompleted
    // starter smokes (handshake passes, the rest declined) is proved in tests/engine/init.test.ts.
    expect(bin('tsc').status).toBe(0);

    // Completed as WRITING.md says: every Level 1 operation wired to the harness.
    writeFileSync(join(project, 'my-adapter.mts'), COMPLETED);
    // Not yet compiled: the run warns that dist/ is older than the source.
    const past = new Date(Date.now() - 60_000);
    utimesSync(join(project, 'dist', 'my-adapter.mjs'), past, past);
    const stale = oap('smoke', '--adapter', './my-adapter.mts');
    expect(stale.stderr).toMatch(/warning: dist\/my-adapter\.mjs is older than my-adapter\.mts: .*recompile \(npx tsc\)/);
    const built = bin('tsc');
    expect(built.status, built.stdout).toBe(0);
    const smoke = oap('smoke', '--adapter', './my-adapter.mts', '--check-protocol');
    expect(smoke.stdout, smoke.stderr).toMatch(/smoke: all 5 steps passed/);
    expect(smoke.stderr).not.toContain('warning');

    const run = oap('run', '--adapter', './my-adapter.mts', '--fuzz', '0', '--out', 'results', '--quiet', '--allow-dirty');
    expect(run.stdout, run.stderr).toContain('Attained level: 1');
    expect(run.status, run.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(project, 'results', 'report.json'), 'utf8')) as RunReport;
    const d3 = report.cases.filter((c) => c.requirements.includes('L1-D3'));
    expect(d3.length).toBeGreaterThan(0);
    for (const c of d3) {
      expect(c.status).toBe('not-applicable');
      if (c.status === 'not-applicable')
        expect(c.probe).toMatch(/discover did not list a profile placed only in the (user|managed|plugin) root/);
    }
    const result = JSON.parse(readFileSync(join(project, 'results', 'result.json'), 'utf8')) as { passed: string[]; notes: string[] };
    expect(result.passed).toContain('L1-D3');
    expect(result.notes.some((n) => n.startsWith('vacuous:L1-D3'))).toBe(true);
    expect(relative(fromRoot(), project).startsWith('..')).toBe(true);
  });
});

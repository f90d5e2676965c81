/**
 * `oap-conform init`, followed the way sdk/WRITING.md tells a newcomer to: in a directory
 * outside this repository, write the starter, smoke it unchanged (the handshake passes, the rest is
 * declined), implement validate and instantiate with the SDK the starter uses, and pass smoke and
 * the suite's session-record requirement. For TypeScript the project is compiled with `strict`
 * against the package's own SDK entry point, `oap-conform/sdk`, and its declarations.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fromRoot } from '../../spec/package-root.js';
import { runCli } from '../support/cli.js';
import { ensureBuilt, tempDir } from './helpers.js';

const CLI = fromRoot('bin', 'oap-conform.js');
const TSC = fromRoot('node_modules', 'typescript', 'bin', 'tsc');

beforeAll(() => ensureBuilt(), 120_000);

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

/** A fresh directory outside the repository. */
function fresh(prefix: string): string {
  const dir = tempDir(prefix);
  roots.push(dir);
  expect(relative(fromRoot(), dir).startsWith('..')).toBe(true);
  return dir;
}

/**
 * A TypeScript project with oap-conform, typescript, @types/node and canonicalize (the JCS library
 * its harness digests with) "installed" (linked to ours).
 */
function tsProject(prefix: string): string {
  const dir = fresh(prefix);
  mkdirSync(join(dir, 'node_modules', '@types'), { recursive: true });
  symlinkSync(fromRoot(), join(dir, 'node_modules', 'oap-conform'));
  symlinkSync(fromRoot('node_modules', 'typescript'), join(dir, 'node_modules', 'typescript'));
  symlinkSync(fromRoot('node_modules', 'canonicalize'), join(dir, 'node_modules', 'canonicalize'));
  symlinkSync(fromRoot('node_modules', '@types', 'node'), join(dir, 'node_modules', '@types', 'node'));
  return dir;
}

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** The CLI in this process (tests/support/cli.ts), in `cwd`: init and the adapter commands read it. */
const cli = (args: string[], cwd: string): Promise<Ran> => runCli(args, { cwd });

/**
 * The CLI as its own process, for a module adapter (`./my-adapter.mts`): the runner imports the
 * module into its process, and a module once imported stays cached, so after the starter is
 * rewritten and recompiled only a fresh process loads the new one (as it does for the user).
 */
async function spawnCli(args: string[], cwd: string): Promise<Ran> {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function tsc(project: string): Ran {
  const r = spawnSync(process.execPath, [TSC, '-p', project], { encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function expectDeclinedStarter(r: Ran): void {
  expect(r.status, r.stdout + r.stderr).toBe(1);
  expect(r.stdout).toMatch(/✓ initialize: my-harness 0\.0\.1/);
  expect(r.stdout.match(/declined: not implemented \(TODO/g)).toHaveLength(4);
  expect(r.stdout).toMatch(/smoke: 4 of 5 steps failed/);
}

function expectSmokePassed(r: Ran): void {
  expect(r.stdout + r.stderr).toMatch(/smoke: all 5 steps passed/);
  expect(r.stdout).toMatch(/✓ instantiate rejected profile by path: rejected: version-major at "\/oap"/);
  expect(r.status).toBe(0);
}

/** A run of the session-record requirement: the spec digest the harness computes is the one the suite expects. */
async function expectSessionRecordPasses(adapter: string, cwd: string): Promise<void> {
  const out = join(fresh('oap-init-results-'), 'results');
  const r = await (adapter.endsWith('.mts') ? spawnCli : cli)(
    ['run', '--adapter', adapter, '--filter', 'L1-I8', '--out', out, '--quiet'],
    cwd,
  );
  expect(r.stdout, r.stderr).toMatch(/L1-I8\s+MUST\s+pass\s+[1-9]/);
  expect(existsSync(join(out, 'report.html'))).toBe(true);
}

// ---------------------------------------------------------------- Python

/** validate and instantiate for a JSON-reading "harness", written the way WRITING.md §3-4 describe. */
const PY_IMPLEMENTATION = `
import hashlib, json, os, uuid


def spec_digest(doc):
    # SPEC 2.2, this harness's own: sorted compact JSON is JCS for the documents it reads (integers,
    # keys inside the BMP); a harness with fractional numbers needs a full JCS (harnesses/examples/python).
    metadata = {k: v for k, v in doc["metadata"].items() if k not in ("revision", "updated_at", "trust")}
    text = json.dumps({"metadata": metadata, "spec": doc["spec"]}, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def load(source):
    text = open(source["path"], encoding="utf-8").read() if "path" in source else source["content"]
    try:
        doc = json.loads(text)
    except ValueError as e:
        return None, [{"category": "parse", "pointer": "", "message": str(e)}]
    if not str(doc.get("oap", "")).startswith("1."):
        return None, [{"category": "version-major", "pointer": "/oap", "message": "major version not implemented"}]
    return doc, []


@adapter.method("validate")
def validate(params):
    doc, errors = load(params["document"])
    return dict({"valid": not errors, "errors": errors, "warnings": []}, **({"kind": doc["kind"]} if doc else {}))


@adapter.method("instantiate")
def instantiate(params):
    selector, path, trust = params["profile"], None, "imported"
    if "path" in selector:
        path = selector["path"]
    else:
        agents = os.path.join(params["roots"]["project"], ".agents")
        for name in sorted(os.listdir(agents)):
            doc, _ = load({"path": os.path.join(agents, name)})
            if doc and doc["metadata"]["name"] == selector["name"]:
                path, trust = os.path.join(agents, name), "project"
    doc, errors = load({"path": path}) if path else (None, [{"category": "io", "pointer": "", "message": "not found"}])
    if errors:
        return {"status": "rejected", "errors": errors, "warnings": []}
    policy, perms = params["policy"], params["policy"]["permissions"]
    d = perms["default"]
    prompt = (PromptBuilder()
              .section("preamble", "Harness preamble.", True)
              .section("instructions", doc["spec"]["role"]["instructions"], True)
              .section("postamble", "Harness rules.", True)
              .build(included=[], elided=[], notice=None))
    return {
        "status": "instantiated",
        "session_id": str(uuid.uuid4()),
        "session": {"name": doc["metadata"]["name"], "revision": doc["metadata"].get("revision", 1),
                    "spec_digest": spec_digest(doc), "trust": trust, "path": path},
        "effective": {
            "tools": [],
            "permissions": {"default": d, "shell": perms.get("shell", d), "edit": perms.get("edit", d), "network": perms.get("network", d)},
            "rules": [dict({"tool": "*", "action": "*", "target": "*"}, **r) for r in perms.get("rules", [])],
            "filesystem": {"read_roots": policy["filesystem"]["read_roots"], "write_roots": policy["filesystem"]["write_roots"], "deny_paths": []},
            "hosts": [],
            "memory": {"mode": "off", "scopes": [], "stores": []},
            "budgets": {k: policy["budgets"].get(k) for k in ("max_turns", "max_tool_calls", "timeout_seconds", "max_cost_usd",
                                                           "max_context_tokens", "max_state_tokens", "max_state_bytes")},
            "model": dict(policy["models"]["default"], rule=4),
            "mcp_servers": [],
            "skills": [],
            "subagents": {"allow": [], "max_depth": policy["subagents"]["max_depth"], "max_concurrent": policy["subagents"]["max_concurrent"]},
            "writeback": "propose",
        },
        "prompt": prompt,
        "adjustments": [],
        "warnings": [],
    }


`;

function implementPython(dir: string): void {
  const path = join(dir, 'my_adapter.py');
  const starter = readFileSync(path, 'utf8');
  const from = starter.indexOf('@adapter.method("validate")');
  const to = starter.indexOf('if __name__ == "__main__":');
  expect(from).toBeGreaterThan(0);
  // WRITING.md §2: tell the truth in initialize; this harness reads JSON.
  const head = starter.slice(0, from).replace('"encodings": ["yaml"]', '"encodings": ["json"]');
  writeFileSync(path, head + PY_IMPLEMENTATION + starter.slice(to));
}

describe('init --lang python, outside the repository', () => {
  test('starter + copied SDK: smoke declines, then passes once implemented, from any working directory', async () => {
    const dir = fresh('oap-init-py-');
    const init = await cli(['init', '--lang', 'python'], dir);
    expect(init.status, init.stderr).toBe(0);
    expect(init.stdout).toContain('wrote my_adapter.py');
    expect(init.stdout).toContain('wrote oap_adapter.py');
    // No copy is installed here, so the next step names this one rather than `npx oap-conform`,
    // which would fetch the name from the registry.
    expect(init.stdout).toContain(`node ${CLI} smoke --adapter "python3 my_adapter.py"`);
    expect(init.stdout).not.toContain('npx oap-conform');
    expect(init.stdout).toContain(`guide: ${fromRoot('sdk', 'WRITING.md')}`);
    expect(statSync(join(dir, 'my_adapter.py')).mode & 0o111).not.toBe(0);
    expect(readFileSync(join(dir, 'oap_adapter.py'), 'utf8')).toBe(readFileSync(fromRoot('sdk', 'python', 'oap_adapter.py'), 'utf8'));

    expectDeclinedStarter(await cli(['smoke', '--adapter', 'python3 my_adapter.py'], dir));

    implementPython(dir);
    expectSmokePassed(await cli(['smoke', '--adapter', 'python3 my_adapter.py', '--check-protocol'], dir));
    // The SDK is found next to the script, not in the working directory.
    expectSmokePassed(await cli(['smoke', '--adapter', `python3 ${join(dir, 'my_adapter.py')}`], fresh('oap-init-elsewhere-')));
    await expectSessionRecordPasses('python3 my_adapter.py', dir);
  });
});

// ---------------------------------------------------------------- TypeScript

const TS_IMPLEMENTATION = `import { createHash, randomUUID } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import canonicalize from 'canonicalize';
import { PROTOCOL_VERSION, PromptBuilder, defineAdapter, isMain, serveStdio, type AdapterIssueT, type Params, type Result } from 'oap-conform/sdk';

type Profile = { oap: string; kind: string; metadata: { name: string; revision?: number; [k: string]: unknown }; spec: { role: { instructions: string } } };

/** SPEC 2.2, this harness's own: JCS (the canonicalize package) of {metadata without revision, updated_at, trust; spec}. */
function specDigest(doc: Profile): string {
  const metadata = Object.fromEntries(Object.entries(doc.metadata).filter(([k]) => !['revision', 'updated_at', 'trust'].includes(k)));
  return \`sha256:\${createHash('sha256').update(canonicalize({ metadata, spec: doc.spec }) ?? '').digest('hex')}\`;
}

function load(source: Params<'validate'>['document']): { doc?: Profile; errors: AdapterIssueT[] } {
  const text = 'path' in source ? readFileSync(source.path, 'utf8') : source.content;
  let doc: Profile;
  try {
    doc = JSON.parse(text) as Profile;
  } catch (err) {
    return { errors: [{ category: 'parse', pointer: '', message: String(err) }] };
  }
  if (!String(doc.oap).startsWith('1.')) return { errors: [{ category: 'version-major', pointer: '/oap', message: 'major version not implemented' }] };
  return { doc, errors: [] };
}

function instantiate(p: Params<'instantiate'>): Result<'instantiate'> {
  let path: string | undefined;
  let trust: 'project' | 'imported' = 'imported';
  if ('path' in p.profile) path = p.profile.path;
  else {
    const agents = join(p.roots.project ?? p.workspace, '.agents');
    for (const f of readdirSync(agents).sort()) {
      if (load({ path: join(agents, f) }).doc?.metadata.name === p.profile.name) {
        path = join(agents, f);
        trust = 'project';
      }
    }
  }
  if (!path) return { status: 'rejected', errors: [{ category: 'io', pointer: '', message: 'not found' }], warnings: [] };
  const { doc, errors } = load({ path });
  if (!doc) return { status: 'rejected', errors, warnings: [] };
  const { permissions: perms, budgets: b } = p.policy;
  const d = perms.default;
  return {
    status: 'instantiated',
    session_id: randomUUID(),
    session: { name: doc.metadata.name, revision: doc.metadata.revision ?? 1, spec_digest: specDigest(doc), trust, path },
    effective: {
      tools: [],
      permissions: { default: d, shell: perms.shell ?? d, edit: perms.edit ?? d, network: perms.network ?? d },
      rules: (perms.rules ?? []).map((r) => ({ tool: r.tool ?? '*', action: r.action ?? '*', target: r.target ?? '*', decision: r.decision })),
      filesystem: { read_roots: p.policy.filesystem.read_roots, write_roots: p.policy.filesystem.write_roots, deny_paths: [] },
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
      model: { ...p.policy.models.default, rule: 4 },
      mcp_servers: [],
      skills: [],
      subagents: { allow: [], max_depth: p.policy.subagents.max_depth, max_concurrent: p.policy.subagents.max_concurrent },
      writeback: 'propose',
    },
    prompt: new PromptBuilder().section('preamble', 'Harness preamble.', true).section('instructions', doc.spec.role.instructions, true).section('postamble', 'Harness rules.', true).build(),
    adjustments: [],
    warnings: [],
  };
}

export default function createAdapter() {
  return defineAdapter({
    initialize: () => ({
      protocol_version: PROTOCOL_VERSION,
      implementation: { name: 'my-harness', version: '0.0.1', language: 'typescript' },
      level: 1,
      encodings: ['json'],
      discovery_roots: ['project'],
      unimplemented: [],
    }),
    validate: (p) => {
      const { doc, errors } = load(p.document);
      return { valid: errors.length === 0, ...(doc ? { kind: doc.kind } : {}), errors, warnings: [] };
    },
    instantiate,
  });
}

if (isMain(import.meta.url)) await serveStdio(createAdapter());
`;

describe('init --lang ts, outside the repository', () => {
  test("starter compiles with strict against the SDK entry point's types; smoke declines, then passes once implemented (in-process and over stdio)", async () => {
    const dir = tsProject('oap-init-ts-');
    const init = await cli(['init', '--lang', 'ts'], dir);
    expect(init.status, init.stderr).toBe(0);
    for (const f of ['my-adapter.mts', 'tsconfig.json']) expect(init.stdout).toContain(`wrote ${f}`);
    expect(init.stdout).not.toContain('.d.ts');
    expect(readFileSync(join(dir, 'my-adapter.mts'), 'utf8')).toContain("from 'oap-conform/sdk'");
    expect(init.stdout).not.toMatch(/not installed|note:/);
    expect(init.stdout).toContain('compile: npx tsc');
    expect(init.stdout).toContain('npx oap-conform smoke --adapter ./my-adapter.mts');
    expect(init.stdout).toContain('npx oap-conform smoke --adapter "node dist/my-adapter.mjs"');
    // No package.json at all: .mts is an ES module whatever the package type.
    expect(existsSync(join(dir, 'package.json'))).toBe(false);

    const built = tsc(dir);
    expect(built.status, built.stdout).toBe(0);
    expectDeclinedStarter(await spawnCli(['smoke', '--adapter', './my-adapter.mts'], dir));
    expectDeclinedStarter(await cli(['smoke', '--adapter', 'node dist/my-adapter.mjs'], dir));

    writeFileSync(join(dir, 'my-adapter.mts'), TS_IMPLEMENTATION);
    const rebuilt = tsc(dir);
    expect(rebuilt.status, rebuilt.stdout).toBe(0);
    expectSmokePassed(await spawnCli(['smoke', '--adapter', './my-adapter.mts', '--check-protocol'], dir));
    expectSmokePassed(await cli(['smoke', '--adapter', 'node dist/my-adapter.mjs', '--check-protocol'], dir));
    await expectSessionRecordPasses('./my-adapter.mts', dir);

    // The types are real, not `any`: a result missing a member of the effective contract, or an
    // issue category outside the vocabulary, does not compile.
    writeFileSync(
      join(dir, 'my-adapter.mts'),
      TS_IMPLEMENTATION.replace("      writeback: 'propose',\n", '').replace("category: 'io'", "category: 'not-found'"),
    );
    const broken = tsc(dir);
    expect(broken.status).not.toBe(0);
    expect(broken.stdout).toMatch(/writeback/);
    expect(broken.stdout).toMatch(/not-found/);
  });

  test('--sdk-only is for python: the TypeScript SDK is the installed package (exit 2, one line)', async () => {
    const dir = tsProject('oap-init-sdk-only-');
    const r = await cli(['init', '--lang', 'ts', '--sdk-only'], dir);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^oap-conform: usage: --sdk-only is for python: .*import from 'oap-conform\/sdk'/);
  });
});

// ---------------------------------------------------------------- options and messages

describe('init: directories, refusals and next steps', () => {
  test('--dir is created if missing and the printed commands work from the current directory', async () => {
    const cwd = fresh('oap-init-dir-');
    const r = await cli(['init', '--lang', 'python', '--dir', 'adapters/oap'], cwd);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('wrote adapters/oap/my_adapter.py');
    const printed = /oap-conform(?:\.js)? smoke --adapter "([^"]+)"/.exec(r.stdout)?.[1];
    expect(printed).toBe('python3 adapters/oap/my_adapter.py');
    expectDeclinedStarter(await cli(['smoke', '--adapter', printed!], cwd));
  });

  test('refuses to overwrite and says what to do instead (exit 2)', async () => {
    const dir = fresh('oap-init-clash-');
    expect((await cli(['init', '--lang', 'python'], dir)).status).toBe(0);
    const again = await cli(['init', '--lang', 'python'], dir);
    expect(again.status).toBe(2);
    expect(again.stderr).toMatch(
      /refusing to overwrite my_adapter\.py, oap_adapter\.py in .*: move them away, or choose another directory with --dir/,
    );
  });

  test('--sdk-only refreshes just the SDK file after an upgrade', async () => {
    const dir = fresh('oap-init-sdk-');
    writeFileSync(join(dir, 'my_adapter.py'), '# my adapter\n');
    const r = await cli(['init', '--lang', 'python', '--sdk-only'], dir);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('wrote oap_adapter.py');
    expect(readFileSync(join(dir, 'my_adapter.py'), 'utf8')).toBe('# my adapter\n');
  });

  test('ts: an existing tsconfig.json is kept with what the starter needs; missing packages are named with the install command', async () => {
    const dir = fresh('oap-init-ts-bare-');
    writeFileSync(join(dir, 'tsconfig.json'), '{"compilerOptions":{"module":"commonjs"}}\n');
    const r = await cli(['init', '--lang', 'ts'], dir);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('wrote tsconfig.json');
    expect(readFileSync(join(dir, 'tsconfig.json'), 'utf8')).toBe('{"compilerOptions":{"module":"commonjs"}}\n');
    expect(r.stdout).toMatch(/kept the existing tsconfig\.json: the starter needs "module": "NodeNext"/);
    expect(r.stdout).toContain('npm install --save-dev oap-conform typescript @types/node');
    // Not yet published: the name alone must not be the only way offered.
    expect(r.stdout).toMatch(/oap-conform is not on the npm registry yet: .*npm install --save-dev \//);
  });

  test('ts: a project whose oap-conform is another copy is warned (in-process declines need the same copy)', async () => {
    const dir = fresh('oap-init-ts-copy-');
    const other = join(dir, 'node_modules', 'oap-conform');
    mkdirSync(other, { recursive: true });
    writeFileSync(join(other, 'package.json'), '{"name":"oap-conform","version":"0.0.0"}\n');
    const r = await cli(['init', '--lang', 'ts'], dir);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/note: \. uses the oap-conform in node_modules\/oap-conform, not this one/);
  });
});

/**
 * Resolution (SPEC §5.2): parse, validate, apply `extends`, assign trust, substitute variables,
 * resolve MCP environment references, verify pins, check skills, stores and hooks, and reject
 * paths that escape the workspace. The result is the resolved profile plus everything a session
 * needs to report about it. Resolution reads files and nothing else: no file is created, nothing is
 * installed, nothing touches the network (L1-I11).
 *
 * Decisions taken here (also listed at the end of MUTANTS.md):
 * - An `extends` pin names the base's *spec digest* (SPEC §2.2: "what pinning SHOULD use"), which
 *   survives state writeback and trust assignment; a profile digest in a pin does not match.
 *   `ref.revision`, when given, must equal the base's current revision.
 * - The schema gives MCP servers no `required` field, so no server is required: a server whose
 *   `${VAR}` is not set in the harness environment is dropped with a warning and an adjustment
 *   (SPEC §5.2 step 6, "otherwise the server is dropped with a warning").
 * - A skill pinned by digest must be installed with that digest; a pinned skill whose installed
 *   digest is unknown cannot be verified and counts as a mismatch.
 * - A memory store is available when its kind is one the harness implements and the harness
 *   reports the named store reachable; `oap-state` is the profile's own state and always is.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AdapterIssueT, AdjustmentT, HarnessPolicyT, Params } from '../../protocol/messages.js';
import { discover } from './discovery.js';
import {
  digestsOf,
  errorsOf,
  isObject,
  readDocumentFile,
  validateProfile,
  type Digests,
  type Encoding,
  type JsonObject,
} from './document.js';
import { adapterIssue, fromOapIssue, Rejection } from './issues.js';
import { mergeLayers } from './merge.js';
import { DEFAULT_MEMORY_MODE, type MemoryMode } from '../../spec/semantics/index.js';
import { containPath, containPathLexically } from './paths.js';
import type { Quirks } from './quirks.js';
import { containingRoot, realOrResolved, TRUST_OF_ROOT, type DiscoveryRootsT, type RootKind, type Trust } from './roots.js';

const MAX_EXTENDS_DEPTH = 8;

export type ProfileSelectorT = Params<'instantiate'>['profile'];

export interface ResolveInput {
  workspace: string;
  roots: DiscoveryRootsT;
  selector: ProfileSelectorT;
  policy: HarnessPolicyT;
  quirks: Quirks;
}

interface SkillStatus {
  name: string;
  status: 'present' | 'missing';
}

interface StoreRequest {
  name: string;
  kind: string;
  mode: MemoryMode;
}

export interface ResolvedProfile {
  path: string;
  encoding: Encoding;
  /** The document exactly as loaded from its file (before extends and trust). */
  fileDoc: JsonObject;
  digests: Digests;
  /** Merged, trust-assigned, variable-substituted profile. */
  profile: JsonObject;
  name: string;
  revision: number;
  trust: Trust;
  root?: RootKind;
  /** The child's own `spec.permissions` when the profile used `extends` (undefined otherwise). */
  ownPermissions?: JsonObject;
  usesExtends: boolean;
  /** Indexes into spec.tools.mcp_servers that survived environment resolution. */
  keptServers: number[];
  skills: SkillStatus[];
  stores: StoreRequest[];
  /** Workspace-relative, normalized filesystem requests (undefined = not requested). */
  filesystem: { read_roots?: string[]; write_roots?: string[]; deny_paths: string[] };
  adjustments: AdjustmentT[];
  warnings: AdapterIssueT[];
}

export function resolveProfile(input: ResolveInput): ResolvedProfile {
  const { quirks } = input;
  const located = locate(input);
  const read = readDocumentFile(located.path, quirks);
  // The L1-I3 mutant copies filesystem roots into the session as written: not checked, not normalized, not narrowed.
  const rootsAsWritten = quirks.has('fs-roots-taken-as-written');
  const validated = read.value === undefined ? [] : validateProfile(read.value, quirks, { forInstantiation: true });
  const issues = [
    ...read.issues,
    ...validated.filter((i) => !(rootsAsWritten && /^\/spec\/permissions\/filesystem\/(read|write)_roots\//.test(i.pointer))),
  ];
  const errors = errorsOf(issues);
  const warnings: AdapterIssueT[] = issues.filter((i) => !errors.includes(i)).map((i) => fromOapIssue(i, located.path));
  if (errors.length > 0 || !isObject(read.value) || !read.encoding)
    throw new Rejection(
      errors.map((i) => fromOapIssue(i, located.path)),
      warnings,
    );
  const fileDoc = read.value;
  if (quirks.has('instantiates-schema-invalid')) fillLenientDefaults(fileDoc);

  const usesExtends = Array.isArray(fileDoc['extends']) && fileDoc['extends'].length > 0;
  const profile = usesExtends ? applyExtends(fileDoc, located.path, input, [realOrResolved(located.path)], 0) : structuredClone(fileDoc);
  if (usesExtends) {
    const merged = errorsOf(validateProfile(profile, quirks, { forInstantiation: true }));
    if (merged.length > 0)
      throw new Rejection(
        merged.map((i) => fromOapIssue(i, located.path)),
        warnings,
      );
  }

  const meta = profile['metadata'] as JsonObject;
  const fileMeta = fileDoc['metadata'] as JsonObject;
  const fileTrust = typeof fileMeta['trust'] === 'string' ? (fileMeta['trust'] as Trust) : undefined;
  const trust = quirks.has('trust-from-file') && fileTrust ? fileTrust : located.trust;
  meta['trust'] = trust;

  const spec = profile['spec'] as JsonObject;
  const adjustments: AdjustmentT[] = [];
  substituteVariables(spec, located.path, quirks);
  const keptServers = resolveMcpEnv(spec, input.policy, adjustments, warnings, located.path, quirks);
  const skills = checkSkills(spec, input.policy, adjustments, warnings, located.path, quirks, input.workspace);
  const stores = checkStores(spec, input.policy, adjustments, warnings, located.path, quirks);
  checkHooks(spec, input.policy, adjustments, warnings, located.path);
  const filesystem = checkPaths(spec, input, located.path, rootsAsWritten);

  if (quirks.has('writes-xdg-config-on-resolve') && process.env.XDG_CONFIG_HOME) {
    // The L1-I11 mutant remembers the last resolution in its own config directory.
    const dir = join(process.env.XDG_CONFIG_HOME, 'oap-reference');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'last-resolved.json'), JSON.stringify({ name: meta['name'], path: located.path }));
  }
  if (quirks.has('creates-cache-file-on-resolve')) {
    // The L1-I11 mutant memoizes resolutions next to the profile.
    writeFileSync(join(dirname(located.path), '.oap-resolve-cache.json'), JSON.stringify({ name: meta['name'], resolved_at: Date.now() }));
  }

  const digests = digestsOf(fileDoc);
  return {
    path: located.path,
    encoding: read.encoding,
    fileDoc,
    digests,
    profile,
    name: String(meta['name']),
    revision: typeof fileMeta['revision'] === 'number' ? fileMeta['revision'] : 1,
    trust,
    ...(located.root ? { root: located.root } : {}),
    ...(usesExtends
      ? {
          ownPermissions: isObject((fileDoc['spec'] as JsonObject)['permissions'])
            ? ((fileDoc['spec'] as JsonObject)['permissions'] as JsonObject)
            : {},
        }
      : {}),
    usesExtends,
    keptServers,
    skills,
    stores,
    filesystem,
    adjustments,
    warnings,
  };
}

// ---------------------------------------------------------------- locating the file

function locate(input: ResolveInput): { path: string; trust: Trust; root?: RootKind } {
  const { selector, roots, quirks } = input;
  if ('path' in selector) {
    const root = containingRoot(selector.path, roots, quirks);
    return { path: selector.path, trust: root ? TRUST_OF_ROOT[root.kind] : 'imported', ...(root ? { root: root.kind } : {}) };
  }
  const found = discover(roots, quirks, { includeProject: !quirks.has('ignores-project-root') });
  const hit = found.profiles.find((p) => p.name === selector.name);
  if (hit) return { path: hit.path, trust: hit.trust, root: hit.root };
  const collision = found.collisions.find((c) => c.name === selector.name && c.scope === 'within-root');
  if (collision)
    throw new Rejection([adapterIssue('collision', '/metadata/name', `profile "${selector.name}" is defined more than once in one root`)]);
  throw new Rejection([adapterIssue('io', '', `no profile named "${selector.name}" in any discovery root`)]);
}

// ---------------------------------------------------------------- extends (SPEC §4)

function applyExtends(doc: JsonObject, path: string, input: ResolveInput, chain: string[], depth: number): JsonObject {
  const refs = Array.isArray(doc['extends']) ? (doc['extends'] as JsonObject[]) : [];
  if (refs.length === 0) return structuredClone(doc);
  const { quirks } = input;
  const index = discover(input.roots, quirks);
  const bases: JsonObject[] = [];
  refs.forEach((ref, i) => {
    const pointer = `/extends/${i}`;
    const name = String(ref['name']);
    // Mutants: L3-E1 without a depth cap, or with the cap one level too low.
    const cap = quirks.has('extends-depth-capped-at-seven') ? MAX_EXTENDS_DEPTH - 1 : MAX_EXTENDS_DEPTH;
    if (depth + 1 > cap && !quirks.has('extends-depth-uncapped')) {
      throw new Rejection([adapterIssue('extends-depth', pointer, `extends chain deeper than ${MAX_EXTENDS_DEPTH}`, path)]);
    }
    const hit = index.profiles.find((p) => p.name === name);
    // The L3-E1 mutant skips a base it cannot find, as if the reference were optional.
    if (!hit && quirks.has('extends-missing-base-ignored')) return;
    if (!hit)
      throw new Rejection([adapterIssue('extends-missing', pointer, `base profile "${name}" not found in any discovery root`, path)]);
    const real = realOrResolved(hit.path);
    // The L3-E1 mutant has no cycle check: a cycle runs into the depth cap instead (extends-depth).
    if (chain.includes(real) && !quirks.has('extends-cycle-undetected'))
      throw new Rejection([adapterIssue('extends-cycle', pointer, `extends cycle through "${name}"`, path)]);
    const read = readDocumentFile(hit.path, quirks);
    const problems =
      read.value === undefined ? read.issues : [...read.issues, ...validateProfile(read.value, quirks, { forInstantiation: true })];
    const errs = errorsOf(problems);
    if (errs.length > 0 || !isObject(read.value)) throw new Rejection(errs.map((e) => fromOapIssue(e, hit.path)));
    const base = read.value;
    if (typeof ref['digest'] === 'string' && !quirks.has('extends-pin-unverified')) {
      // The L3-G2 mutant pins the file bytes, which no document digest (spec or profile) ever equals.
      const actual = quirks.has('extends-pin-over-file-bytes')
        ? `sha256:${createHash('sha256').update(readFileSync(hit.path)).digest('hex')}`
        : digestsOf(base).spec_digest;
      if (actual !== ref['digest']) {
        throw new Rejection([
          adapterIssue(
            'digest-mismatch',
            `${pointer}/digest`,
            `base "${name}" has spec digest ${actual}, the pin says ${String(ref['digest'])}`,
            path,
          ),
        ]);
      }
    }
    if (typeof ref['revision'] === 'number') {
      const baseMeta = base['metadata'] as JsonObject;
      const rev = typeof baseMeta['revision'] === 'number' ? baseMeta['revision'] : 1;
      if (rev !== ref['revision']) {
        throw new Rejection([
          adapterIssue(
            'extends-missing',
            `${pointer}/revision`,
            `base "${name}" is at revision ${rev}, revision ${ref['revision']} is not available`,
            path,
          ),
        ]);
      }
    }
    // The L3-E1 mutant keeps one visited set for the whole walk, so a shared ancestor reads as a cycle.
    let next: string[];
    if (quirks.has('extends-diamond-as-cycle')) {
      chain.push(real);
      next = chain;
    } else next = [...chain, real];
    bases.push(applyExtends(base, hit.path, input, next, depth + 1));
  });
  return mergeLayers(bases, doc, quirks);
}

// ---------------------------------------------------------------- variables (SPEC §3.6)

const VAR_REF = /\$\{\{\s*vars\.([A-Za-z0-9_.-]+)\s*\}\}/g;

/** `${{ vars.KEY }}` in instructions, objectives and constraints only; never in state. */
function substituteVariables(spec: JsonObject, path: string, quirks: Quirks): void {
  const role = spec['role'] as JsonObject;
  const context = isObject(spec['context']) ? spec['context'] : {};
  const vars = isObject(context['variables']) ? (context['variables'] as Record<string, string>) : {};
  const errors: AdapterIssueT[] = [];
  // The ADV-vars-undefined mutant replaces an undefined variable with the empty string.
  const undefinedIsEmpty = quirks.has('undefined-vars-empty');
  const sub = (text: string, pointer: string): string =>
    text.replace(VAR_REF, (whole, key: string) => {
      if (Object.hasOwn(vars, key)) return vars[key]!;
      if (undefinedIsEmpty) return '';
      errors.push(adapterIssue('variable-undefined', pointer, `variable "${key}" is not defined in spec.context.variables`, path));
      return whole;
    });
  role['instructions'] = sub(String(role['instructions']), '/spec/role/instructions');
  // The ADV-vars-role-fields mutant substitutes in instructions only.
  const fields = quirks.has('vars-instructions-only') ? [] : (['objectives', 'constraints'] as const);
  for (const field of fields) {
    const list = role[field];
    if (Array.isArray(list)) role[field] = list.map((t, i) => sub(String(t), `/spec/role/${field}/${i}`));
  }
  if (errors.length > 0) throw new Rejection(errors);
}

// ---------------------------------------------------------------- MCP environment (SPEC §5.2 step 6)

function resolveMcpEnv(
  spec: JsonObject,
  policy: HarnessPolicyT,
  adjustments: AdjustmentT[],
  warnings: AdapterIssueT[],
  path: string,
  quirks: Quirks,
): number[] {
  const tools = isObject(spec['tools']) ? spec['tools'] : {};
  const servers = Array.isArray(tools['mcp_servers']) ? (tools['mcp_servers'] as JsonObject[]) : [];
  const kept: number[] = [];
  servers.forEach((s, i) => {
    const refs = [...Object.values(isObject(s['env']) ? s['env'] : {}), ...Object.values(isObject(s['headers']) ? s['headers'] : {})]
      .map((v) => /\$\{([A-Z][A-Z0-9_]*)\}/.exec(String(v))?.[1])
      .filter((v): v is string => v !== undefined);
    const missing = refs.filter((v) => !Object.hasOwn(policy.env, v));
    // The L3-M1 mutant launches the server anyway, with the unresolved `${VAR}` text as the value.
    if (missing.length === 0 || quirks.has('mcp-env-unresolved')) {
      kept.push(i);
      return;
    }
    const pointer = `/spec/tools/mcp_servers/${i}`;
    const reason = `environment variable(s) ${missing.join(', ')} not set; server "${String(s['name'])}" dropped`;
    warnings.push(adapterIssue('env-missing', pointer, reason, path));
    adjustments.push({ pointer, action: 'dropped', reason, requested: s['name'] });
  });
  return kept;
}

// ---------------------------------------------------------------- skills (SPEC §3.4)

function checkSkills(
  spec: JsonObject,
  policy: HarnessPolicyT,
  adjustments: AdjustmentT[],
  warnings: AdapterIssueT[],
  path: string,
  quirks: Quirks,
  workspace: string,
): SkillStatus[] {
  const tools = isObject(spec['tools']) ? spec['tools'] : {};
  const skills = Array.isArray(tools['skills']) ? (tools['skills'] as JsonObject[]) : [];
  const errors: AdapterIssueT[] = [];
  const out = skills.map((s, i): SkillStatus => {
    const name = String(s['name']);
    const pointer = `/spec/tools/skills/${i}`;
    // The L3-K1 mutant never consults the harness's installed skills.
    const installed = quirks.has('installed-skills-unrecognized') ? undefined : policy.skills.find((k) => k.name === name);
    if (installed && typeof s['digest'] === 'string' && !quirks.has('skill-digest-unverified') && installed.digest !== s['digest']) {
      errors.push(
        adapterIssue(
          'digest-mismatch',
          `${pointer}/digest`,
          `skill "${name}" is installed with digest ${installed.digest ?? '(unknown)'}, the pin says ${String(s['digest'])}`,
          path,
        ),
      );
      return { name, status: 'missing' };
    }
    if (installed) return { name, status: 'present' };
    if (quirks.has('skill-installed-on-load') && installFromSource(s, workspace, path)) return { name, status: 'present' };
    const reason = `skill "${name}" is not installed; it is reported missing, never installed`;
    if (s['required'] === true && !quirks.has('required-skill-missing-ignored'))
      errors.push(adapterIssue('skill-missing', pointer, reason, path));
    else {
      warnings.push(adapterIssue('skill-missing', pointer, reason, path));
      adjustments.push({ pointer, action: 'dropped', reason, requested: name });
    }
    return { name, status: 'missing' };
  });
  if (errors.length > 0) throw new Rejection(errors, warnings);
  return out;
}

/**
 * The L3-K1 mutant "helpfully" installs a missing skill whose source is a directory in the
 * workspace: it copies the package next to the profile (<root>/skills/<name>/) and reports the
 * skill present. Remote sources are left alone (no network), so only the vendored case installs.
 */
function installFromSource(skill: JsonObject, workspace: string, profilePath: string): boolean {
  const source = skill['source'];
  if (typeof source !== 'string' || /^[a-z][a-z0-9+.-]*:/i.test(source)) return false;
  const from = containPath(workspace, source, false);
  if (!from.ok) return false;
  const dir = join(workspace, from.relative);
  if (!existsSync(dir)) return false;
  cpSync(dir, join(dirname(profilePath), 'skills', String(skill['name'])), { recursive: true });
  return true;
}

// ---------------------------------------------------------------- memory stores (SPEC §3.7)

function checkStores(
  spec: JsonObject,
  policy: HarnessPolicyT,
  adjustments: AdjustmentT[],
  warnings: AdapterIssueT[],
  path: string,
  quirks: Quirks,
): StoreRequest[] {
  const memory = isObject(spec['memory']) ? spec['memory'] : {};
  const stores = Array.isArray(memory['stores']) ? (memory['stores'] as JsonObject[]) : [];
  const errors: AdapterIssueT[] = [];
  const kept: StoreRequest[] = [];
  stores.forEach((s, i) => {
    const name = String(s['name']);
    const kind = String(s['kind']);
    const pointer = `/spec/memory/stores/${i}`;
    const problem = storeProblem(name, kind, policy, quirks);
    if (!problem) {
      kept.push({ name, kind, mode: (s['mode'] as StoreRequest['mode'] | undefined) ?? DEFAULT_MEMORY_MODE });
      return;
    }
    if (s['required'] === true && !quirks.has('required-store-missing-ignored'))
      errors.push(adapterIssue('store-missing', pointer, problem, path));
    else {
      warnings.push(adapterIssue('store-missing', pointer, problem, path));
      adjustments.push({ pointer, action: 'dropped', reason: problem, requested: { name, kind } });
    }
  });
  if (errors.length > 0) throw new Rejection(errors, warnings);
  return kept;
}

function storeProblem(name: string, kind: string, policy: HarnessPolicyT, quirks: Quirks): string | undefined {
  if (kind === 'oap-state') return undefined;
  // The L3-Y1 mutant implements no store kind beyond oap-state, whatever policy says.
  if (!policy.memory.store_kinds.includes(kind) || quirks.has('external-store-kinds-unsupported'))
    return `store kind "${kind}" is not implemented by this harness`;
  const known = policy.memory.stores.find((s) => s.name === name && s.kind === kind);
  if (!known?.reachable) return `store "${name}" (${kind}) cannot be reached`;
  return undefined;
}

// ---------------------------------------------------------------- hooks (SPEC §3.8)

function checkHooks(spec: JsonObject, policy: HarnessPolicyT, adjustments: AdjustmentT[], warnings: AdapterIssueT[], path: string): void {
  const lifecycle = isObject(spec['lifecycle']) ? spec['lifecycle'] : {};
  const errors: AdapterIssueT[] = [];
  for (const phase of ['on_start', 'on_end'] as const) {
    const hooks = Array.isArray(lifecycle[phase]) ? (lifecycle[phase] as JsonObject[]) : [];
    hooks.forEach((h, i) => {
      const hook = String(h['hook']);
      if (policy.hooks.includes(hook)) return;
      const pointer = `/spec/lifecycle/${phase}/${i}`;
      const reason = `hook "${hook}" is not registered with this harness`;
      if (h['required'] === true) errors.push(adapterIssue('other', pointer, reason, path));
      else {
        warnings.push(adapterIssue('other', pointer, reason, path));
        adjustments.push({ pointer, action: 'dropped', reason, requested: hook });
      }
    });
  }
  if (errors.length > 0) throw new Rejection(errors, warnings);
}

// ---------------------------------------------------------------- workspace paths (SPEC §5.2 step 8)

function checkPaths(spec: JsonObject, input: ResolveInput, path: string, rootsAsWritten: boolean): ResolvedProfile['filesystem'] {
  const allowAbsolute = input.policy.filesystem.allow_absolute ?? false;
  const errors: AdapterIssueT[] = [];
  const contain = (p: unknown, pointer: string, absoluteOk: boolean, lexicalOnly = false): string | undefined => {
    const r = lexicalOnly ? containPathLexically(String(p), absoluteOk) : containPath(input.workspace, String(p), absoluteOk);
    if (r.ok) return r.relative;
    errors.push(adapterIssue('path-escape', pointer, `${String(p)}: ${r.reason}`, path));
    return undefined;
  };
  const context = isObject(spec['context']) ? spec['context'] : {};
  if (!input.quirks.has('context-path-unchecked')) {
    const files = Array.isArray(context['files']) ? (context['files'] as JsonObject[]) : [];
    // Context files are always workspace-relative (schema: absolute paths MUST be rejected).
    // The L1-I5 mutant checks their text only: a symlink is never followed.
    const lexicalOnly = input.quirks.has('context-symlinks-not-resolved');
    files.forEach((f, i) => {
      contain(f['path'], `/spec/context/files/${i}/path`, false, lexicalOnly);
    });
  }
  if (typeof context['working_directory'] === 'string')
    contain(context['working_directory'], '/spec/context/working_directory', allowAbsolute);
  const perms = isObject(spec['permissions']) ? spec['permissions'] : {};
  const fs = isObject(perms['filesystem']) ? perms['filesystem'] : {};
  // The L1-I3 mutant checks filesystem roots by their text only and keeps that text: a symlink is never followed.
  const rootsByText = input.quirks.has('fs-root-symlinks-not-resolved');
  const list = (key: string, lexicalOnly = false): string[] | undefined => {
    const v = fs[key];
    if (!Array.isArray(v)) return undefined;
    if (rootsAsWritten && key !== 'deny_paths') return v.map(String);
    return v
      .map((p, i) => contain(p, `/spec/permissions/filesystem/${key}/${i}`, allowAbsolute, lexicalOnly))
      .filter((p): p is string => p !== undefined);
  };
  const read_roots = list('read_roots', rootsByText);
  const write_roots = list('write_roots', rootsByText);
  const deny_paths = list('deny_paths') ?? [];
  if (errors.length > 0) throw new Rejection(errors);
  return {
    ...(read_roots ? { read_roots } : {}),
    ...(write_roots ? { write_roots } : {}),
    deny_paths,
  };
}

/**
 * The L1-P2 mutant instantiates invalid documents the way a lenient harness would: missing
 * sections get empty defaults and out-of-vocabulary permission values are ignored.
 */
function fillLenientDefaults(doc: JsonObject): void {
  if (!isObject(doc['metadata'])) doc['metadata'] = {};
  const meta = doc['metadata'] as JsonObject;
  if (typeof meta['name'] !== 'string') meta['name'] = 'unnamed';
  if (!isObject(doc['spec'])) doc['spec'] = {};
  const spec = doc['spec'] as JsonObject;
  if (!isObject(spec['role'])) spec['role'] = {};
  const role = spec['role'] as JsonObject;
  if (typeof role['instructions'] !== 'string') role['instructions'] = '';
  for (const section of Object.keys(spec)) if (!isObject(spec[section])) delete spec[section];
  const perms = isObject(spec['permissions']) ? spec['permissions'] : {};
  for (const f of ['default', 'shell', 'edit', 'network'])
    if (perms[f] !== undefined && !['allow', 'ask', 'deny'].includes(String(perms[f]))) delete perms[f];
}

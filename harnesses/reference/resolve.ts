/**
 * Resolution (SPEC §5.2): parse, validate, apply `extends`, assign trust, substitute variables,
 * resolve MCP environment references, verify pins, check skills, stores and hooks, and reject
 * context files, the working directory and deny paths that escape the workspace (the filesystem
 * roots are the narrowing step's: the grantRoots rule checks, contains and narrows them in one
 * place, with the document findings at them that it is handed here). The result is the resolved
 * profile plus everything a session needs to report about it. Every decision is a rule (./rules.ts). Resolution reads files and nothing else: no file is created, nothing is
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
import type { AdapterIssueT, AdjustmentT, HarnessPolicyT, Params } from '../../protocol/messages.js';
import { profileDigest, specDigest } from '../../spec/document/index.js';
import type { OapIssue } from '../../spec/document/issue.js';
import { DEFAULT_MEMORY_MODE, type MemoryMode, storeUnavailable, trustOfRoot } from '../../spec/semantics/index.js';
import { discover } from './discovery.js';
import { readDocumentFile } from './document.js';
import { adapterIssue, fromOapIssue, Rejection } from './issues.js';
import { type Digests, type Encoding, errorsOf, isObject, type JsonObject } from './json.js';
import { mergeLayers } from './merge.js';
import { containPath } from './paths.js';
import { containingRoot, realOrResolved, type DiscoveryRootsT, type RootKind, type Trust } from './roots.js';
import type { RootsRequest, Rules } from './rules.js';
import { MAX_EXTENDS_DEPTH } from './rules/discovery.js';
import { ofCategory } from './rules/documents.js';

/** Findings at the items of the profile's filesystem roots: the roots rule acts on them (grantRoots). */
const ROOT_ITEM = /^\/spec\/permissions\/filesystem\/(read|write)_roots\//;

export type ProfileSelectorT = Params<'instantiate'>['profile'];

export interface ResolveInput {
  workspace: string;
  roots: DiscoveryRootsT;
  selector: ProfileSelectorT;
  policy: HarnessPolicyT;
  rules: Rules;
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
  usesExtends: boolean;
  /** Indexes into spec.tools.mcp_servers that survived environment resolution. */
  keptServers: number[];
  skills: SkillStatus[];
  stores: StoreRequest[];
  /** The filesystem roots requested, as written (the session's grant is the grantRoots rule's). */
  roots: RootsRequest;
  /** Workspace-relative, normalized deny paths. */
  denyPaths: string[];
  workspace: string;
  allowAbsolute: boolean;
  adjustments: AdjustmentT[];
  warnings: AdapterIssueT[];
}

export function resolveProfile(input: ResolveInput): ResolvedProfile {
  const { rules } = input;
  const located = locate(input);
  const read = readDocumentFile(located.path, rules);
  const loaded = read.value === undefined ? undefined : rules.instantiable(read.value, rules);
  const validated = loaded?.issues ?? [];
  // A root's own findings (`..`, absolute, encoded) are the grantRoots rule's to refuse; a root that
  // breaks the schema (too long, not a string) is refused here like any other schema error.
  const atRoots = (i: OapIssue): boolean => ROOT_ITEM.test(i.pointer) && errorsOf([i]).length > 0 && !ofCategory(i, 'schema');
  const issues = [...read.issues, ...validated.filter((i) => !atRoots(i))];
  const errors = errorsOf(issues);
  const warnings: AdapterIssueT[] = issues.filter((i) => !errors.includes(i)).map((i) => fromOapIssue(i, located.path));
  if (errors.length > 0 || !loaded || !isObject(loaded.profile) || !read.encoding)
    throw new Rejection(
      errors.map((i) => fromOapIssue(i, located.path)),
      warnings,
    );
  const fileDoc = loaded.profile;

  const usesExtends = Array.isArray(fileDoc['extends']) && fileDoc['extends'].length > 0;
  const profile = usesExtends ? applyExtends(fileDoc, located.path, input, [realOrResolved(located.path)], 0) : structuredClone(fileDoc);
  if (usesExtends) {
    const merged = errorsOf(rules.instantiable(profile, rules).issues);
    if (merged.length > 0)
      throw new Rejection(
        merged.map((i) => fromOapIssue(i, located.path)),
        warnings,
      );
  }

  const meta = profile['metadata'] as JsonObject;
  const fileMeta = fileDoc['metadata'] as JsonObject;
  const trust = rules.assignTrust(located.trust, fileMeta['trust']);
  meta['trust'] = trust;

  const spec = profile['spec'] as JsonObject;
  const adjustments: AdjustmentT[] = [];
  substituteVariables(spec, located.path, rules);
  const keptServers = resolveMcpEnv(spec, input.policy, adjustments, warnings, located.path, rules);
  const skills = checkSkills(spec, input.policy, adjustments, warnings, located.path, rules, input.workspace);
  const stores = checkStores(spec, input.policy, adjustments, warnings, located.path, rules);
  checkHooks(spec, input.policy, adjustments, warnings, located.path, rules);
  const denyPaths = checkPaths(spec, input, located.path, rules);
  rules.resolutionFootprint(meta['name'], located.path);

  const perms = isObject(spec['permissions']) ? spec['permissions'] : {};
  const fs = isObject(perms['filesystem']) ? perms['filesystem'] : {};
  const roots: RootsRequest = {
    ...(Array.isArray(fs['read_roots']) ? { read_roots: fs['read_roots'] } : {}),
    ...(Array.isArray(fs['write_roots']) ? { write_roots: fs['write_roots'] } : {}),
    findings: validated.filter(atRoots).map((i) => fromOapIssue(i, located.path)),
  };
  return {
    path: located.path,
    encoding: read.encoding,
    fileDoc,
    digests: { profile_digest: profileDigest(fileDoc), spec_digest: specDigest(fileDoc) },
    profile,
    name: String(meta['name']),
    revision: typeof fileMeta['revision'] === 'number' ? fileMeta['revision'] : 1,
    trust,
    ...(located.root ? { root: located.root } : {}),
    usesExtends,
    keptServers,
    skills,
    stores,
    roots,
    denyPaths,
    workspace: input.workspace,
    allowAbsolute: input.policy.filesystem.allow_absolute ?? false,
    adjustments,
    warnings,
  };
}

// ---------------------------------------------------------------- locating the file

function locate(input: ResolveInput): { path: string; trust: Trust; root?: RootKind } {
  const { selector, roots, rules } = input;
  if ('path' in selector) {
    const root = containingRoot(selector.path, rules.discoveryRoots(roots, 'locate'));
    return { path: selector.path, trust: trustOfRoot(root?.kind), ...(root ? { root: root.kind } : {}) };
  }
  const found = discover(roots, rules, 'select');
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
  const { rules } = input;
  const index = discover(input.roots, rules, 'extends');
  const names = refs.map((ref) => String(ref['name']));
  const again = names.findIndex((n, i) => names.indexOf(n) !== i);
  if (again >= 0 && rules.refusesRepeatedBase(names))
    throw new Rejection([adapterIssue('extends-cycle', `/extends/${again}`, `extends lists "${names[again]}" twice`, path)]);
  const bases: JsonObject[] = [];
  refs.forEach((ref, i) => {
    const pointer = `/extends/${i}`;
    const name = String(ref['name']);
    if (!rules.extendsDepthAllowed(depth + 1)) {
      throw new Rejection([adapterIssue('extends-depth', pointer, `extends chain deeper than ${MAX_EXTENDS_DEPTH}`, path)]);
    }
    const hit = index.profiles.find((p) => p.name === name);
    if (!hit) {
      const missing = rules.missingExtendsBase(name, pointer, path);
      if (missing) throw new Rejection([missing]);
      return;
    }
    const real = realOrResolved(hit.path);
    if (rules.extendsCycle(chain, real))
      throw new Rejection([adapterIssue('extends-cycle', pointer, `extends cycle through "${name}"`, path)]);
    const read = readDocumentFile(hit.path, rules);
    const problems = read.value === undefined ? read.issues : [...read.issues, ...rules.instantiable(read.value, rules).issues];
    const errs = errorsOf(problems);
    if (errs.length > 0 || !isObject(read.value)) throw new Rejection(errs.map((e) => fromOapIssue(e, hit.path)));
    const base = read.value;
    const actual = typeof ref['digest'] === 'string' ? rules.extendsPinMismatch(ref['digest'], base, hit.path) : undefined;
    if (actual !== undefined) {
      throw new Rejection([
        adapterIssue(
          'digest-mismatch',
          `${pointer}/digest`,
          `base "${name}" has spec digest ${actual}, the pin says ${String(ref['digest'])}`,
          path,
        ),
      ]);
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
    bases.push(applyExtends(base, hit.path, input, rules.extendsChain(chain, real), depth + 1));
  });
  return mergeLayers(bases, doc, rules);
}

// ---------------------------------------------------------------- variables (SPEC §3.6)

const VAR_REF = /\$\{\{\s*vars\.([A-Za-z0-9_.-]+)\s*\}\}/g;

/** `${{ vars.KEY }}` in instructions, objectives and constraints only; never in state. */
function substituteVariables(spec: JsonObject, path: string, rules: Rules): void {
  const role = spec['role'] as JsonObject;
  const context = isObject(spec['context']) ? spec['context'] : {};
  const vars = isObject(context['variables']) ? (context['variables'] as Record<string, string>) : {};
  const errors: AdapterIssueT[] = [];
  const targets = rules.substitutionTargets();
  const sub = (text: string, pointer: string): string =>
    text.replace(VAR_REF, (whole, key: string) => {
      const value = rules.definedVariable(vars, key);
      if (value !== undefined) return value;
      const replacement = rules.undefinedVariable(key);
      if (replacement !== undefined) return replacement;
      errors.push(adapterIssue('variable-undefined', pointer, `variable "${key}" is not defined in spec.context.variables`, path));
      return whole;
    });
  if (targets.includes('instructions')) role['instructions'] = sub(String(role['instructions']), '/spec/role/instructions');
  for (const field of ['objectives', 'constraints'] as const) {
    const list = role[field];
    if (targets.includes(field) && Array.isArray(list)) role[field] = list.map((t, i) => sub(String(t), `/spec/role/${field}/${i}`));
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
  rules: Rules,
): number[] {
  const tools = isObject(spec['tools']) ? spec['tools'] : {};
  const servers = Array.isArray(tools['mcp_servers']) ? (tools['mcp_servers'] as JsonObject[]) : [];
  const kept: number[] = [];
  servers.forEach((s, i) => {
    const refs = [...Object.values(isObject(s['env']) ? s['env'] : {}), ...Object.values(isObject(s['headers']) ? s['headers'] : {})]
      .map((v) => /\$\{([A-Z][A-Z0-9_]*)\}/.exec(String(v))?.[1])
      .filter((v): v is string => v !== undefined);
    const missing = refs.filter((v) => !Object.hasOwn(policy.env, v));
    if (rules.keepsMcpServer(missing, s)) {
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
  rules: Rules,
  workspace: string,
): SkillStatus[] {
  const tools = isObject(spec['tools']) ? spec['tools'] : {};
  const skills = Array.isArray(tools['skills']) ? (tools['skills'] as JsonObject[]) : [];
  const errors: AdapterIssueT[] = [];
  const out = skills.map((s, i): SkillStatus => {
    const name = String(s['name']);
    const pointer = `/spec/tools/skills/${i}`;
    const installed = rules.installedSkill(name, policy);
    if (installed && typeof s['digest'] === 'string' && !rules.skillPinMatches(s['digest'], installed)) {
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
    if (rules.acquireSkill(s, { workspace, profilePath: path })) return { name, status: 'present' };
    const reason = `skill "${name}" is not installed; it is reported missing, never installed`;
    if (rules.refusesMissing('skill', s['required'] === true)) errors.push(adapterIssue('skill-missing', pointer, reason, path));
    else {
      warnings.push(adapterIssue('skill-missing', pointer, reason, path));
      adjustments.push({ pointer, action: 'dropped', reason, requested: name });
    }
    return { name, status: 'missing' };
  });
  if (errors.length > 0) throw new Rejection(errors, warnings);
  return out;
}

// ---------------------------------------------------------------- memory stores (SPEC §3.7)

function checkStores(
  spec: JsonObject,
  policy: HarnessPolicyT,
  adjustments: AdjustmentT[],
  warnings: AdapterIssueT[],
  path: string,
  rules: Rules,
): StoreRequest[] {
  const memory = isObject(spec['memory']) ? spec['memory'] : {};
  const stores = Array.isArray(memory['stores']) ? (memory['stores'] as JsonObject[]) : [];
  const errors: AdapterIssueT[] = [];
  const kept: StoreRequest[] = [];
  stores.forEach((s, i) => {
    const name = String(s['name']);
    const kind = String(s['kind']);
    const pointer = `/spec/memory/stores/${i}`;
    const problem = storeProblem(name, kind, policy, rules);
    if (!problem) {
      rules.storeFootprint({ name, kind, ...(typeof s['uri'] === 'string' ? { uri: s['uri'] } : {}) });
      kept.push({ name, kind, mode: (s['mode'] as StoreRequest['mode'] | undefined) ?? DEFAULT_MEMORY_MODE });
      return;
    }
    if (rules.refusesMissing('store', s['required'] === true)) errors.push(adapterIssue('store-missing', pointer, problem, path));
    else {
      warnings.push(adapterIssue('store-missing', pointer, problem, path));
      adjustments.push({ pointer, action: 'dropped', reason: problem, requested: { name, kind } });
    }
  });
  if (errors.length > 0) throw new Rejection(errors, warnings);
  return kept;
}

/** Whether the harness implements the kind is the table's decision; the rest is the spec model's (spec/semantics/stores.ts). */
function storeProblem(name: string, kind: string, policy: HarnessPolicyT, rules: Rules): string | undefined {
  return storeUnavailable({ name, kind }, policy, rules.storeKindImplemented(kind, policy));
}

// ---------------------------------------------------------------- hooks (SPEC §3.8)

function checkHooks(
  spec: JsonObject,
  policy: HarnessPolicyT,
  adjustments: AdjustmentT[],
  warnings: AdapterIssueT[],
  path: string,
  rules: Rules,
): void {
  const lifecycle = isObject(spec['lifecycle']) ? spec['lifecycle'] : {};
  const errors: AdapterIssueT[] = [];
  for (const phase of ['on_start', 'on_end'] as const) {
    const hooks = Array.isArray(lifecycle[phase]) ? (lifecycle[phase] as JsonObject[]) : [];
    hooks.forEach((h, i) => {
      const hook = String(h['hook']);
      if (policy.hooks.includes(hook)) return;
      const pointer = `/spec/lifecycle/${phase}/${i}`;
      const reason = `hook "${hook}" is not registered with this harness`;
      if (rules.refusesMissing('hook', h['required'] === true)) errors.push(adapterIssue('other', pointer, reason, path));
      else {
        warnings.push(adapterIssue('other', pointer, reason, path));
        adjustments.push({ pointer, action: 'dropped', reason, requested: hook });
      }
    });
  }
  if (errors.length > 0) throw new Rejection(errors, warnings);
}

// ---------------------------------------------------------------- workspace paths (SPEC §5.2 step 8)

/** Context files, the working directory and deny paths inside the workspace; returns the normalized deny paths. */
function checkPaths(spec: JsonObject, input: ResolveInput, path: string, rules: Rules): string[] {
  const allowAbsolute = input.policy.filesystem.allow_absolute ?? false;
  const errors: AdapterIssueT[] = [];
  const refuse = (p: unknown, pointer: string, reason: string): void => {
    errors.push(adapterIssue('path-escape', pointer, `${String(p)}: ${reason}`, path));
  };
  const context = isObject(spec['context']) ? spec['context'] : {};
  const files = Array.isArray(context['files']) ? (context['files'] as JsonObject[]) : [];
  files.forEach((f, i) => {
    const r = rules.contextFile(String(f['path']), input.workspace);
    if (!r.ok) refuse(f['path'], `/spec/context/files/${i}/path`, r.reason);
  });
  if (typeof context['working_directory'] === 'string') {
    const r = rules.workingDirectory(context['working_directory'], input.workspace, allowAbsolute);
    if (!r.ok) refuse(context['working_directory'], '/spec/context/working_directory', r.reason);
  }
  const perms = isObject(spec['permissions']) ? spec['permissions'] : {};
  const fs = isObject(perms['filesystem']) ? perms['filesystem'] : {};
  const denyPaths = (Array.isArray(fs['deny_paths']) ? fs['deny_paths'] : []).flatMap((p, i) => {
    const r = containPath(input.workspace, String(p), allowAbsolute);
    if (r.ok) return [r.relative];
    refuse(p, `/spec/permissions/filesystem/deny_paths/${i}`, r.reason);
    return [];
  });
  if (errors.length > 0) throw new Rejection(errors);
  return denyPaths;
}

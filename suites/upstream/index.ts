/**
 * Upstream-layout replay: turns a directory laid out like the OAP specification repository into
 * cases with the expectations of conformance.md §5.1. The runner wires `--fixtures DIR` here.
 *
 * Case IDs are `upstream/<path relative to DIR>`. Requirements: YAML examples L1-P2, JSON and
 * Markdown examples L1-P1 (they need that encoding; a harness that disclaims it is not-applicable
 * after the probe), plus L3-E1 when they use `extends`; negative examples the requirement their
 * leading comment names (an explicit ID, else a keyword, else L1-P2); valid deltas L2-A1; negative
 * deltas likewise (else L2-A1).
 *
 * The whole fixture set is checked before anything runs (`loadUpstream`): a set that contradicts
 * itself or that oap-conform's oracle reads differently from what the folder promises is refused
 * with one line (UpstreamFixtureError, exit 2), so no verdict of a replay is ever the fixtures'.
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { HarnessPolicyT } from '../../protocol/messages.js';
import {
  canonicalJson,
  loadDocumentFile,
  profileDigest,
  specDigestInput,
  validateDocument,
  validationSubject,
  type OapIssue,
} from '../../spec/document/index.js';
import { decodePointer, inStateScope } from '../../spec/semantics/index.js';
import { type ClauseId, clausesOf } from '../../spec/requirements.js';
import { expectEqual, expectTrue, fail } from '../kit/assert.js';
import type { CaseContext, CaseDef, CaseNeeds, Encoding } from '../kit/types.js';
import { serializeDocument } from '../kit/workspace.js';
import { permissivePolicy, workingEncoding } from '../support/index.js';
import {
  FOLDERS,
  readUpstreamTree,
  type SkippedFile,
  UpstreamFixtureError,
  type UpstreamFile,
  type UpstreamFolder,
  type UpstreamTree,
} from '../../fixtures/upstream/layout.js';
import { namedDeltaRule, namedProfileRule, unknownIds } from '../../fixtures/upstream/rules.js';

export { UpstreamLayoutError } from '../../fixtures/upstream/layout.js';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function nameOfDoc(doc: Obj | undefined): string | undefined {
  const meta = doc?.['metadata'];
  return isObj(meta) && typeof meta['name'] === 'string' ? meta['name'] : undefined;
}

function revisionOfDoc(doc: Obj | undefined): number {
  const meta = doc?.['metadata'];
  return isObj(meta) && typeof meta['revision'] === 'number' ? meta['revision'] : 1;
}

function extendsNames(doc: Obj | undefined): string[] {
  return arr(doc?.['extends']).flatMap((r) => (isObj(r) && typeof r['name'] === 'string' ? [r['name']] : []));
}

function oracleErrors(doc: Obj): OapIssue[] {
  return validateDocument(validationSubject(doc)).issues.filter((i) => i.severity === 'error');
}

const firstIssue = (issues: readonly OapIssue[]): string =>
  issues[0] ? `${issues[0].code} at ${issues[0].pointer || '/'}: ${issues[0].message}` : 'no issue given';

/** An upstream tree, checked and turned into cases. */
export interface UpstreamReplay {
  root: string;
  digest: string;
  cases: CaseDef[];
  /** Cases built per folder. */
  counts: Record<UpstreamFolder, number>;
  /** Files read but not replayed, and why. */
  skipped: SkippedFile[];
}

// ---------------------------------------------------------------- the set, checked before the run

/** Examples by `metadata.name`: where deltas and `extends` find their profiles. */
function examplesByName(tree: UpstreamTree): Map<string, UpstreamFile[]> {
  const by = new Map<string, UpstreamFile[]>();
  for (const f of tree.examples) {
    const name = nameOfDoc(f.doc);
    if (name) by.set(name, [...(by.get(name) ?? []), f]);
  }
  return by;
}

/** The one example a reference by name means; several logically identical ones are one (any encoding). */
function resolveName(tree: UpstreamTree, by: Map<string, UpstreamFile[]>, name: string, who: string): UpstreamFile {
  const found = by.get(name) ?? [];
  if (found.length === 0)
    throw new UpstreamFixtureError(
      `${who} names profile "${name}", which no profile under examples/ defines (read: ${tree.examples.map((e) => basename(e.path)).join(', ')})`,
    );
  const distinct = new Set(found.map((f) => canonicalJson(f.doc)));
  if (distinct.size > 1)
    throw new UpstreamFixtureError(
      `${who} names profile "${name}", which ${found.map((f) => f.rel).join(' and ')} define differently, so the reference is ambiguous`,
    );
  return found[0]!;
}

/**
 * Refuse a fixture set that contradicts itself or that the oracle reads differently from what its
 * folder promises. The messages say what oap-conform read, so a reader defect is not taken for a
 * fixture defect.
 */
function checkSet(tree: UpstreamTree): Map<string, UpstreamFile> {
  const oracleNote = 'if the file is valid OAP 1.0.1, oap-conform reads it wrong: please report it';
  for (const f of [...tree.examples, ...tree.json]) {
    if (!f.doc) {
      const read = loadDocumentFile(f.path);
      throw new UpstreamFixtureError(`oap-conform cannot read ${f.rel} as a profile (${firstIssue(read.issues)}); ${oracleNote}`);
    }
    const errors = oracleErrors(f.doc);
    if (errors.length > 0)
      throw new UpstreamFixtureError(
        `oap-conform's oracle reads ${f.rel}, which ${f.folder}/ holds as valid, as invalid (${firstIssue(errors)}); ${oracleNote}`,
      );
  }
  const by = examplesByName(tree);
  for (const f of tree.examples) for (const base of extendsNames(f.doc)) resolveName(tree, by, base, `${f.rel} (extends)`);
  for (const f of tree.json) {
    const stem = basename(f.path).replace(/\.agent\.json$/, '');
    const twin = tree.examples.find((e) => basename(e.path).replace(/\.agent\.(ya?ml|md|json)$/, '') === stem && e.encoding !== 'json');
    if (twin && canonicalJson(f.doc) !== canonicalJson(twin.doc))
      throw new UpstreamFixtureError(
        `${f.rel} and ${twin.rel} must be the same logical document (conformance.md 5.1), and as oap-conform reads them they differ`,
      );
  }
  const targets = new Map<string, UpstreamFile>();
  for (const f of tree.deltas) {
    if (!f.doc) throw new UpstreamFixtureError(`oap-conform cannot read ${f.rel} as a delta document; ${oracleNote}`);
    const errors = validateDocument(f.doc).issues.filter((i) => i.severity === 'error');
    if (errors.length > 0)
      throw new UpstreamFixtureError(
        `oap-conform's oracle reads ${f.rel}, which tests/deltas/ holds as valid, as invalid (${firstIssue(errors)}); ${oracleNote}`,
      );
    const target = isObj(f.doc['target']) ? f.doc['target'] : {};
    const profile = resolveName(tree, by, String(target['name'] ?? ''), f.rel);
    if (typeof target['revision'] === 'number' && target['revision'] !== revisionOfDoc(profile.doc))
      throw new UpstreamFixtureError(
        `${f.rel} targets revision ${target['revision']} of "${nameOfDoc(profile.doc)}", which ${profile.rel} has at revision ${revisionOfDoc(profile.doc)}: it cannot apply cleanly`,
      );
    if (typeof target['digest'] === 'string' && target['digest'] !== profileDigest(profile.doc))
      throw new UpstreamFixtureError(
        `${f.rel} pins target.digest ${target['digest']}, and oap-conform computes ${profileDigest(profile.doc)} for ${profile.rel}: it cannot apply cleanly`,
      );
    targets.set(f.rel, profile);
  }
  for (const f of [...tree.invalid, ...tree.invalidDeltas]) {
    const unknown = unknownIds(f.comment);
    if (unknown.length > 0)
      throw new UpstreamFixtureError(
        `${f.rel} names ${unknown.join(', ')} in its leading comment, which conformance.md 1.0.1 does not define`,
      );
  }
  return targets;
}

// ---------------------------------------------------------------- staging

/**
 * A harness policy under which nothing the examples name is missing from this machine: their
 * skills installed (with the pinned digest), their MCP variables set, their stores reachable,
 * their hooks registered. Upstream examples are meant to instantiate, so the replay must not fail
 * them for lack of a local resource.
 */
function accommodatingPolicy(examples: UpstreamFile[]): HarnessPolicyT {
  const base = permissivePolicy();
  const skills = new Map<string, string | undefined>();
  const env: Record<string, string> = {};
  const catalog: Record<string, string[]> = {};
  const kinds = new Set(base.memory.store_kinds);
  const stores: HarnessPolicyT['memory']['stores'] = [];
  const hooks = new Set<string>();
  for (const f of examples) {
    const spec = isObj(f.doc?.['spec']) ? (f.doc['spec'] as Obj) : {};
    const tools = isObj(spec['tools']) ? spec['tools'] : {};
    for (const s of arr(tools['skills']))
      if (isObj(s) && typeof s['name'] === 'string') skills.set(s['name'], typeof s['digest'] === 'string' ? s['digest'] : undefined);
    for (const m of arr(tools['mcp_servers'])) {
      if (!isObj(m)) continue;
      if (typeof m['name'] === 'string') catalog[m['name']] = [];
      for (const v of [...Object.values(isObj(m['env']) ? m['env'] : {}), ...Object.values(isObj(m['headers']) ? m['headers'] : {})]) {
        const ref = typeof v === 'string' ? /\$\{([A-Z][A-Z0-9_]*)\}/.exec(v) : null;
        if (ref?.[1]) env[ref[1]] = 'upstream-replay-placeholder';
      }
    }
    const memory = isObj(spec['memory']) ? spec['memory'] : {};
    for (const s of arr(memory['stores'])) {
      if (!isObj(s) || typeof s['name'] !== 'string' || typeof s['kind'] !== 'string') continue;
      kinds.add(s['kind']);
      stores.push({ name: s['name'], kind: s['kind'], reachable: true });
    }
    const lifecycle = isObj(spec['lifecycle']) ? spec['lifecycle'] : {};
    for (const h of [...arr(lifecycle['on_start']), ...arr(lifecycle['on_end'])])
      if (isObj(h) && typeof h['hook'] === 'string') hooks.add(h['hook']);
  }
  return permissivePolicy({
    skills: [...skills].map(([name, digest]) => (digest ? { name, digest } : { name })),
    env,
    mcp: { catalog, auto_launch: false },
    memory: { ...base.memory, store_kinds: [...kinds], stores },
    hooks: [...hooks],
  });
}

/**
 * Copy `subject` into the project root with the examples it extends (transitively, so `extends` by
 * name resolves) and create the context files they name; returns the subject's path. Only what the
 * subject needs is staged, so no other example can collide with it.
 */
function stage(ctx: CaseContext, tree: UpstreamTree, subject: UpstreamFile): string {
  const by = examplesByName(tree);
  const own = nameOfDoc(subject.doc);
  const staged = new Set<UpstreamFile>([subject]);
  const queue = extendsNames(subject.doc);
  for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
    const f = by.get(name)?.[0];
    if (!f || staged.has(f) || name === own) continue;
    staged.add(f);
    queue.push(...extendsNames(f.doc));
  }
  let path = '';
  for (const f of staged) {
    const written = ctx.workspace.writeFile(join(ctx.workspace.projectAgents, basename(f.path)), f.text);
    if (f === subject) path = written;
    const spec = isObj(f.doc?.['spec']) ? (f.doc['spec'] as Obj) : {};
    const context = isObj(spec['context']) ? spec['context'] : {};
    for (const file of arr(context['files'])) {
      const p = isObj(file) && typeof file['path'] === 'string' ? file['path'] : undefined;
      if (p && !p.startsWith('/') && !p.split('/').includes('..'))
        ctx.workspace.writeFile(join(ctx.workspace.dir, p), `placeholder for ${p}\n`);
    }
  }
  return path;
}

function rootsOf(ctx: CaseContext): { project: string } {
  return { project: ctx.workspace.dir };
}

function brief(issues: ReadonlyArray<{ category: string; pointer: string }>): unknown {
  return issues.map((i) => ({ category: i.category, pointer: i.pointer }));
}

const needsOf = (encoding: Encoding | undefined): CaseNeeds | undefined => (encoding ? { encodings: [encoding] } : undefined);

/** Where a document puts a value: any of `spec.tools.<list>[].<field>` present. */
function anyEntryHas(doc: Obj | undefined, list: 'mcp_servers' | 'skills', field: string): boolean {
  const spec = doc?.['spec'];
  const tools = isObj(spec) ? spec['tools'] : undefined;
  return arr(isObj(tools) ? tools[list] : undefined).some((e) => isObj(e) && e[field] !== undefined);
}

/**
 * The clause a refused negative fixture observes, for each requirement its rule names: the
 * rejecting clause of that ID, read from the document where the ID has several (a literal in
 * `env` or in `headers`; a pin in `extends` or in `skills`). Another ID a comment names counts for
 * every clause it has: the comment names the ID, not the part of it the fixture breaks.
 */
function rejectionClauses(requirements: readonly string[], category: string, doc: Obj | undefined): ClauseId[] {
  const out: ClauseId[] = [];
  for (const id of requirements) {
    if (id === 'L1-P2') out.push('L1-P2.refuse-invalid');
    else if (id === 'L1-I6') {
      if (anyEntryHas(doc, 'mcp_servers', 'headers')) out.push('L1-I6.headers');
      if (anyEntryHas(doc, 'mcp_servers', 'env') || !anyEntryHas(doc, 'mcp_servers', 'headers')) out.push('L1-I6.env');
    } else if (id === 'L1-I7') out.push(anyEntryHas(doc, 'skills', 'required') ? 'L1-I7.skill' : 'L1-I7.memory-store');
    else if (id === 'L3-E1') out.push(category === 'extends-depth' ? 'L3-E1.depth-cap' : 'L3-E1.cycles');
    else if (id === 'L3-G1') out.push('L3-G1.md-both-rejected');
    else if (id === 'L3-G2') out.push(anyEntryHas(doc, 'skills', 'digest') ? 'L3-G2.pin-skills' : 'L3-G2.pin-extends');
    else if (id === 'L3-K1') out.push('L3-K1.verify-digest');
    else if (id === 'L2-A1') out.push('L2-A1.validated-first');
    else if (id === 'L2-A3') out.push('L2-A3.detect', 'L2-A3.no-blind-write');
    else out.push(...clausesOf(id).map((c) => c.id));
  }
  return out;
}

// ---------------------------------------------------------------- profiles

function exampleCase(tree: UpstreamTree, f: UpstreamFile, policy: HarnessPolicyT): CaseDef {
  const encoding = f.encoding as Encoding;
  const usesExtends = Array.isArray(f.doc?.['extends']);
  const own = encoding === 'yaml' ? 'L1-P2' : 'L1-P1';
  return {
    id: `upstream/${f.rel}`,
    requirements: usesExtends ? [own, 'L3-E1'] : [own],
    clauses: [own === 'L1-P2' ? 'L1-P2.validate' : 'L1-P1.accept', ...(usesExtends ? (['L3-E1.resolve'] as const) : [])],
    title: `Upstream example ${f.rel} validates and instantiates`,
    origin: 'replay',
    needs: { encodings: [encoding] },
    expectation: { validate: { valid: true }, instantiate: 'instantiated' },
    async run(ctx) {
      const v = await ctx.adapter.call('validate', { document: { content: f.text, encoding } });
      expectTrue(v.valid, `validate ${f.rel}`, { expected: { valid: true }, observed: { valid: v.valid, errors: brief(v.errors) } });
      const out = await ctx.adapter.call('instantiate', {
        workspace: ctx.workspace.dir,
        roots: rootsOf(ctx),
        profile: { path: stage(ctx, tree, f) },
        policy,
      });
      if (out.status !== 'instantiated')
        fail(`instantiate ${f.rel}`, { status: 'instantiated' }, { status: out.status, errors: brief(out.errors) });
      ctx.note(
        'adjustments',
        out.adjustments.map((a) => a.pointer),
      );
    },
  };
}

function jsonCase(f: UpstreamFile): CaseDef {
  const stem = basename(f.path).replace(/\.agent\.json$/, '');
  return {
    id: `upstream/${f.rel}`,
    requirements: ['L1-P1'],
    clauses: ['L1-P1.accept'],
    title: `Upstream JSON example ${f.rel} validates (the set was checked logically identical to examples/${stem}.agent.*)`,
    origin: 'replay',
    needs: { encodings: ['json'] },
    expectation: { validate: { valid: true } },
    async run(ctx) {
      const v = await ctx.adapter.call('validate', { document: { content: f.text, encoding: 'json' } });
      expectTrue(v.valid, `validate ${f.rel}`, { expected: { valid: true }, observed: { valid: v.valid, errors: brief(v.errors) } });
    },
  };
}

function invalidCase(tree: UpstreamTree, f: UpstreamFile, policy: HarnessPolicyT): CaseDef {
  const rule = namedProfileRule(f.comment, basename(f.path));
  const needs = needsOf(f.encoding);
  return {
    id: `upstream/${f.rel}`,
    requirements: rule.requirements,
    clauses: rejectionClauses(rule.requirements, rule.category, f.doc),
    title: `Upstream negative example ${f.rel} is rejected${f.comment ? ` (${f.comment.slice(0, 80)})` : ''}`,
    origin: 'replay',
    ...(needs ? { needs } : {}),
    expectation: {
      instantiate: 'rejected',
      validate: rule.resolveTime ? 'not judged (resolve-time rule)' : { valid: false },
      namedRule: { requirements: rule.requirements, by: rule.source, category: `${rule.category} (recorded, not required)` },
    },
    async run(ctx) {
      const path = stage(ctx, tree, f);
      const v = await ctx.adapter.call('validate', { document: { path } });
      const out = await ctx.adapter.call('instantiate', { workspace: ctx.workspace.dir, roots: rootsOf(ctx), profile: { path }, policy });
      const reported: string[] = [...v.errors, ...(out.status === 'rejected' ? out.errors : [])].map((e) => e.category);
      ctx.note('named-rule', { comment: f.comment, category: rule.category, matched: reported.includes(rule.category), reported });
      if (!rule.resolveTime)
        expectTrue(!v.valid, `validate must refuse ${f.rel}`, { expected: { valid: false }, observed: { valid: v.valid } });
      if (out.status !== 'rejected') fail(`instantiate must reject ${f.rel}`, { status: 'rejected' }, { status: out.status });
    },
  };
}

// ---------------------------------------------------------------- deltas

function targetOf(delta: Obj | undefined): { name?: string; revision?: number } {
  const t = delta?.['target'];
  if (!isObj(t)) return {};
  return {
    ...(typeof t['name'] === 'string' ? { name: t['name'] } : {}),
    ...(typeof t['revision'] === 'number' ? { revision: t['revision'] } : {}),
  };
}

/** The profile on disk after a delta, as the oracle reads it (layers with `extends` without their null directives). */
function readProfile(path: string): { doc?: Obj; errors: Array<{ code: string; pointer: string }> } {
  const read = loadDocumentFile(path);
  if (!isObj(read.value)) return { errors: read.issues.map((i) => ({ code: i.code, pointer: i.pointer })) };
  return { doc: read.value, errors: oracleErrors(read.value).map((i) => ({ code: i.code, pointer: i.pointer })) };
}

function deltaCase(tree: UpstreamTree, f: UpstreamFile, target: UpstreamFile): CaseDef {
  const writeback = (isObj(target.doc?.['spec']) && isObj(target.doc['spec']['lifecycle']) ? target.doc['spec']['lifecycle'] : {})[
    'writeback'
  ];
  const expected = writeback === 'off' ? 'discarded' : 'applied';
  return {
    id: `upstream/${f.rel}`,
    requirements: ['L2-A1'],
    clauses: ['L2-A1.validated-first'],
    title: `Upstream delta ${f.rel} applies cleanly to ${target.rel}`,
    origin: 'replay',
    needs: { encodings: [target.encoding as Encoding] },
    expectation: { outcome: expected, errors: [], profileAfter: 'valid' },
    async run(ctx) {
      const staged = stage(ctx, tree, target);
      const res = await ctx.adapter.call('apply_delta', {
        profile_path: staged,
        delta: f.doc as Obj,
        approval: { operations: true, approver: 'oap-conform upstream replay' },
        actor: 'oap-conform',
      });
      ctx.note('result', { outcome: res.outcome, revision: res.revision, proposals: res.proposals.length, warnings: brief(res.warnings) });
      expectEqual(res.outcome, expected, `outcome of applying ${f.rel} with approval`);
      expectEqual(brief(res.errors), [], 'errors');
      const after = readProfile(staged);
      expectTrue(after.doc !== undefined && after.errors.length === 0, 'the profile on disk is valid after the delta', {
        observed: after.errors,
      });
    },
  };
}

/** Operations whose only questionable part is a `..` token: RFC 6901 reads it as a member inside /state. */
function literalDotDotOnly(delta: Obj): boolean {
  const ops = arr(delta['operations']).filter(isObj);
  const paths = ops.map((o) => o['path']);
  return (
    paths.some((p) => typeof p === 'string' && (decodePointer(p) ?? []).includes('..')) &&
    paths.every((p) => typeof p === 'string' && inStateScope(p))
  );
}

function invalidDeltaCase(tree: UpstreamTree, f: UpstreamFile, by: Map<string, UpstreamFile[]>): CaseDef {
  const rule = namedDeltaRule(f.comment, basename(f.path));
  const { name, revision } = targetOf(f.doc);
  const example = name ? by.get(name)?.[0] : undefined;
  const literal = f.doc ? literalDotDotOnly(f.doc) : false;
  const accepted = rule.conflict ? ['rejected', 'conflict'] : ['rejected'];
  return {
    id: `upstream/${f.rel}`,
    requirements: rule.requirements,
    clauses: rejectionClauses(rule.requirements, rule.category, f.doc),
    title: `Upstream negative delta ${f.rel} is rejected${f.comment ? ` (${f.comment.slice(0, 80)})` : ''}`,
    origin: 'replay',
    ...(example ? { needs: { encodings: [example.encoding as Encoding] } } : {}),
    expectation: {
      outcome: rule.conflict ? 'rejected, or conflict (a rebase must leave a valid profile)' : 'rejected',
      profileBytes: 'unchanged',
      ...(literal ? { or: 'applied with `..` as a literal key inside /state: spec and metadata unchanged, profile valid' } : {}),
      namedRule: { requirements: rule.requirements, by: rule.source, category: `${rule.category} (recorded, not required)` },
    },
    async run(ctx) {
      let path: string;
      if (example) path = stage(ctx, tree, example);
      else {
        // The delta names no example (its target may be the defect): give it a small valid profile to be refused against.
        const slug = name && /^[a-z0-9](?:[a-z0-9._-]{0,62}[a-z0-9])?$/.test(name) ? name : 'upstream-target';
        const doc = {
          oap: '1.0',
          kind: 'AgentProfile',
          metadata: {
            name: slug,
            description: 'Stand-in target for an upstream negative delta.',
            revision: revision && revision >= 1 ? revision : 1,
          },
          spec: { role: { instructions: 'You are a stand-in.' } },
        };
        const encoding = workingEncoding(ctx.handshake);
        path = ctx.workspace.writeFile(join(ctx.workspace.projectAgents, `${slug}.agent.${encoding}`), serializeDocument(doc, encoding));
      }
      const before = readFileSync(path);
      const pre = readProfile(path).doc;
      const res = await ctx.adapter.call('apply_delta', {
        profile_path: path,
        delta: f.doc as Obj,
        approval: { operations: true, approver: 'oap-conform upstream replay' },
      });
      ctx.note('named-rule', {
        comment: f.comment,
        category: rule.category,
        matched: res.errors.some((e) => e.category === rule.category),
        reported: res.errors.map((e) => e.category),
      });
      const after = readProfile(path);
      if (literal && res.outcome === 'applied') {
        // SPEC 6.2: an RFC 6901 pointer has no relative steps; a harness may apply `..` as a key inside /state.
        expectTrue(after.doc !== undefined && after.errors.length === 0, 'the profile on disk is valid after the delta', {
          observed: after.errors,
        });
        const authored = (d: Obj | undefined): unknown => (d ? specDigestInput(d) : undefined);
        expectTrue(canonicalJson(authored(after.doc)) === canonicalJson(authored(pre)), `applying ${f.rel} changed spec or metadata`, {
          expected: authored(pre),
          observed: authored(after.doc),
        });
        return;
      }
      expectTrue(accepted.includes(res.outcome), `applying ${f.rel} must be refused`, { expected: accepted, observed: res.outcome });
      if (res.outcome === 'conflict' && res.conflict_resolution === 'rebased') {
        // SPEC 6.3 lets a stale delta be rebased when every operation still applies cleanly.
        expectTrue(after.doc !== undefined && after.errors.length === 0, 'the profile on disk is valid after the rebase', {
          observed: after.errors,
        });
        return;
      }
      expectTrue(readFileSync(path).equals(before), 'the profile file is unchanged after a refused delta', { expected: 'unchanged bytes' });
    },
  };
}

// ---------------------------------------------------------------- the replay

/**
 * Read, check and build the replay of DIR. Throws UpstreamLayoutError (`fixtures.layout`) when DIR
 * is not laid out like the specification repository, UpstreamFixtureError (`fixtures.set`) when its
 * fixture set cannot be replayed fairly; both carry a one-line message.
 */
export function loadUpstream(dir: string): UpstreamReplay {
  const tree = readUpstreamTree(dir);
  const targets = checkSet(tree);
  const by = examplesByName(tree);
  const policy = accommodatingPolicy(tree.examples);
  const skipped = [...tree.skipped];
  const invalidDeltas = tree.invalidDeltas.filter((f) => {
    if (f.doc) return true;
    skipped.push({ rel: f.rel, reason: 'does not parse to a mapping, and the protocol sends a delta as data' });
    return false;
  });
  const cases = [
    ...tree.examples.map((f) => exampleCase(tree, f, policy)),
    ...tree.json.map((f) => jsonCase(f)),
    ...tree.invalid.map((f) => invalidCase(tree, f, policy)),
    ...tree.deltas.map((f) => deltaCase(tree, f, targets.get(f.rel)!)),
    ...invalidDeltas.map((f) => invalidDeltaCase(tree, f, by)),
  ];
  const counts = Object.fromEntries(FOLDERS.map((folder) => [folder, 0])) as Record<UpstreamFolder, number>;
  const folderOf = new Map(
    [...tree.examples, ...tree.json, ...tree.invalid, ...tree.deltas, ...invalidDeltas].map((f) => [f.rel, f.folder]),
  );
  for (const c of cases) counts[folderOf.get(c.id.slice('upstream/'.length))!]++;
  return { root: tree.root, digest: tree.digest, cases, counts, skipped: skipped.sort((a, b) => (a.rel < b.rel ? -1 : 1)) };
}

/** The cases replaying DIR (see loadUpstream for what it throws). */
export function loadUpstreamCases(dir: string): CaseDef[] {
  return loadUpstream(dir).cases;
}

/** What a replay will run, for people: cases per folder, then each skipped file and why. */
export function describeUpstream(r: UpstreamReplay): string[] {
  const per = FOLDERS.map((f) => `${f} ${r.counts[f]}`).join(', ');
  const lines = [`upstream fixtures ${r.root}: ${r.cases.length} cases (${per}); digest ${r.digest}`];
  for (const s of r.skipped) lines.push(`upstream fixtures: skipped ${s.rel}: ${s.reason}`);
  return lines;
}

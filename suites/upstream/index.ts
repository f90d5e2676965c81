/**
 * Upstream-layout replay: turns a directory laid out like the OAP specification repository into
 * cases with the expectations of conformance.md §5.1. The engine wires `--fixtures DIR` here.
 *
 * Case IDs are `upstream/<path relative to DIR>`. Requirements: valid examples L1-P2 (plus L3-E1
 * when they use `extends`), JSON examples L1-P1 (they need the json encoding), negative examples
 * the requirement of the rule their leading comment names (L1-P2 when none is recognised), valid
 * deltas L2-A1, negative deltas L2-A1 or L2-A2.
 *
 * Fixture-set defects (a JSON example with no YAML twin, a delta naming a profile the examples do
 * not contain) are reported as case errors, not adapter failures.
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { HarnessPolicyT } from '../../adapters/protocol/messages.js';
import { canonicalJson, isValid, loadDocumentFile } from '../../spec/document/index.js';
import { expectEqual, expectTrue, fail } from '../framework/assert.js';
import { inconclusive, permissivePolicy } from '../support/index.js';
import type { CaseContext, CaseDef } from '../framework/types.js';
import { readUpstreamTree, type UpstreamFile, type UpstreamTree } from './layout.js';
import { namedDeltaRule, namedProfileRule } from './rules.js';

export { UpstreamLayoutError } from './layout.js';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function nameOfDoc(doc: Obj | undefined): string | undefined {
  const meta = doc?.['metadata'];
  return isObj(meta) && typeof meta['name'] === 'string' ? meta['name'] : undefined;
}

/**
 * A harness policy under which nothing the example names is missing from this machine: its skills
 * installed (with the pinned digest), its MCP variables set, its stores reachable, its hooks
 * registered. Upstream examples are meant to instantiate, so the replay must not fail them for
 * lack of a local resource.
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

/** Copy every example into the project root (so `extends` by name resolves) and create the context files they name. */
function stageExamples(ctx: CaseContext, tree: UpstreamTree): Map<string, string> {
  const staged = new Map<string, string>();
  for (const f of tree.examples) {
    staged.set(f.rel, ctx.workspace.writeFile(join(ctx.workspace.projectAgents, basename(f.path)), f.text));
    const spec = isObj(f.doc?.['spec']) ? (f.doc['spec'] as Obj) : {};
    const context = isObj(spec['context']) ? spec['context'] : {};
    for (const file of arr(context['files'])) {
      const p = isObj(file) && typeof file['path'] === 'string' ? file['path'] : undefined;
      if (p && !p.startsWith('/') && !p.split('/').includes('..'))
        ctx.workspace.writeFile(join(ctx.workspace.dir, p), `placeholder for ${p}\n`);
    }
  }
  return staged;
}

function rootsOf(ctx: CaseContext): { project: string } {
  return { project: ctx.workspace.dir };
}

function brief(issues: ReadonlyArray<{ category: string; pointer: string }>): unknown {
  return issues.map((i) => ({ category: i.category, pointer: i.pointer }));
}

// ---------------------------------------------------------------- profiles

function exampleCase(tree: UpstreamTree, f: UpstreamFile): CaseDef {
  const usesExtends = Array.isArray(f.doc?.['extends']);
  return {
    id: `upstream/${f.rel}`,
    requirements: usesExtends ? ['L1-P2', 'L3-E1'] : ['L1-P2'],
    title: `Upstream example ${f.rel} validates and instantiates`,
    origin: 'replay',
    needs: { encodings: ['yaml'] },
    expectation: { validate: { valid: true }, instantiate: 'instantiated' },
    async run(ctx) {
      const v = await ctx.adapter.call('validate', { document: { content: f.text, encoding: 'yaml' } });
      expectTrue(v.valid, `validate ${f.rel}`, { expected: { valid: true }, observed: { valid: v.valid, errors: brief(v.errors) } });
      const staged = stageExamples(ctx, tree);
      const out = await ctx.adapter.call('instantiate', {
        workspace: ctx.workspace.dir,
        roots: rootsOf(ctx),
        profile: { path: staged.get(f.rel) as string },
        policy: accommodatingPolicy(tree.examples),
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

function jsonCase(tree: UpstreamTree, f: UpstreamFile): CaseDef {
  const stem = basename(f.path).replace(/\.agent\.json$/, '');
  return {
    id: `upstream/${f.rel}`,
    requirements: ['L1-P1'],
    title: `Upstream JSON example ${f.rel} validates and is logically identical to examples/${stem}.agent.yaml`,
    origin: 'replay',
    needs: { encodings: ['json'] },
    expectation: { validate: { valid: true }, jcsEqualTo: `examples/${stem}.agent.yaml` },
    async run(ctx) {
      const twin = tree.examples.find((e) => basename(e.path).replace(/\.agent\.ya?ml$/, '') === stem);
      // The twin relation is a property of the fixture set, checked by the oracle; a broken set is an error, not an adapter failure.
      if (!twin) throw new Error(`fixture set: ${f.rel} has no examples/${stem}.agent.yaml twin`);
      if (!f.doc || !twin.doc || canonicalJson(f.doc) !== canonicalJson(twin.doc)) {
        throw new Error(`fixture set: ${f.rel} is not logically identical (JCS) to ${twin.rel}`);
      }
      const v = await ctx.adapter.call('validate', { document: { content: f.text, encoding: 'json' } });
      expectTrue(v.valid, `validate ${f.rel}`, { expected: { valid: true }, observed: { valid: v.valid, errors: brief(v.errors) } });
    },
  };
}

function invalidCase(tree: UpstreamTree, f: UpstreamFile): CaseDef {
  const rule = namedProfileRule(f.comment);
  return {
    id: `upstream/${f.rel}`,
    requirements: [rule.requirement],
    title: `Upstream negative example ${f.rel} is rejected${f.comment ? ` (${f.comment.slice(0, 80)})` : ''}`,
    origin: 'replay',
    needs: { encodings: ['yaml'] },
    expectation: {
      instantiate: 'rejected',
      validate: rule.resolveTime ? 'not judged (resolve-time rule)' : { valid: false },
      namedRule: rule.category,
    },
    async run(ctx) {
      const v = await ctx.adapter.call('validate', { document: { content: f.text, encoding: 'yaml' } });
      stageExamples(ctx, tree);
      const path = ctx.workspace.writeFile(join(ctx.workspace.projectAgents, basename(f.path)), f.text);
      const out = await ctx.adapter.call('instantiate', {
        workspace: ctx.workspace.dir,
        roots: rootsOf(ctx),
        profile: { path },
        policy: accommodatingPolicy(tree.examples),
      });
      if (!rule.resolveTime) {
        expectTrue(!v.valid, `validate must refuse ${f.rel}`, { expected: { valid: false }, observed: { valid: v.valid } });
      }
      if (out.status !== 'rejected') fail(`instantiate must reject ${f.rel}`, { status: 'rejected' }, { status: out.status });
      const reported: string[] = [...v.errors, ...out.errors].map((e) => e.category);
      ctx.note('named-rule', { comment: f.comment, category: rule.category, matched: reported.includes(rule.category), reported });
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

function deltaCase(tree: UpstreamTree, f: UpstreamFile): CaseDef {
  return {
    id: `upstream/${f.rel}`,
    requirements: ['L2-A1'],
    title: `Upstream delta ${f.rel} applies cleanly to the profile it names`,
    origin: 'replay',
    expectation: { outcome: 'applied (discarded under writeback: off)', errors: [], profileAfter: 'valid' },
    async run(ctx) {
      if (!f.doc) throw new Error(`fixture set: ${f.rel} does not parse to a mapping`);
      const { name } = targetOf(f.doc);
      const profile = tree.examples.find((e) => nameOfDoc(e.doc) === name);
      if (!profile) throw new Error(`fixture set: ${f.rel} names profile "${name ?? '?'}", which no examples/*.agent.yaml defines`);
      const staged = stageExamples(ctx, tree).get(profile.rel) as string;
      const spec = isObj(profile.doc?.['spec']) ? (profile.doc['spec'] as Obj) : {};
      const writeback = isObj(spec['lifecycle']) ? spec['lifecycle']['writeback'] : undefined;
      const res = await ctx.adapter.call('apply_delta', {
        profile_path: staged,
        delta: f.doc,
        approval: { operations: true, approver: 'oap-conform upstream replay' },
        actor: 'oap-conform',
      });
      ctx.note('result', { outcome: res.outcome, revision: res.revision, proposals: res.proposals.length, warnings: brief(res.warnings) });
      expectEqual(res.outcome, writeback === 'off' ? 'discarded' : 'applied', `outcome of applying ${f.rel} with approval`);
      expectEqual(brief(res.errors), [], 'errors');
      const after = loadDocumentFile(staged);
      expectTrue(after.value !== undefined && isValid(after.issues), 'the profile on disk is valid after the delta', {
        observed: after.issues.filter((i) => i.severity === 'error').map((i) => ({ code: i.code, pointer: i.pointer })),
      });
    },
  };
}

function invalidDeltaCase(tree: UpstreamTree, f: UpstreamFile): CaseDef {
  const rule = namedDeltaRule(f.comment);
  const conflictNamed = /revision|conflict|stale/i.test(f.comment);
  return {
    id: `upstream/${f.rel}`,
    requirements: [rule.requirement],
    title: `Upstream negative delta ${f.rel} is rejected${f.comment ? ` (${f.comment.slice(0, 80)})` : ''}`,
    origin: 'replay',
    expectation: { outcome: conflictNamed ? 'rejected or conflict' : 'rejected', profileBytes: 'unchanged' },
    async run(ctx) {
      if (!f.doc)
        return inconclusive(`${f.rel} does not parse to a mapping, so it cannot be sent as a delta`, `fixture ${f.rel} is not a mapping`);
      const { name, revision } = targetOf(f.doc);
      const staged = stageExamples(ctx, tree);
      const example = tree.examples.find((e) => nameOfDoc(e.doc) === name);
      let path: string;
      if (example) path = staged.get(example.rel) as string;
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
        path = ctx.workspace.writeDocument(join(ctx.workspace.root, 'targets'), `${slug}.agent.yaml`, doc, 'yaml');
      }
      const before = readFileSync(path);
      const res = await ctx.adapter.call('apply_delta', {
        profile_path: path,
        delta: f.doc,
        approval: { operations: true, approver: 'oap-conform upstream replay' },
      });
      ctx.note('named-rule', {
        comment: f.comment,
        category: rule.category,
        matched: res.errors.some((e) => e.category === rule.category),
        reported: res.errors.map((e) => e.category),
      });
      const accepted = conflictNamed ? ['rejected', 'conflict'] : ['rejected'];
      expectTrue(accepted.includes(res.outcome), `applying ${f.rel} must be refused`, { expected: accepted, observed: res.outcome });
      expectTrue(readFileSync(path).equals(before), 'the profile file is unchanged after a refused delta', { expected: 'unchanged bytes' });
    },
  };
}

/**
 * Cases replaying DIR. Throws an Error with `code: 'fixtures.layout'` and a one-line message when
 * DIR is not laid out like the specification repository.
 */
export function loadUpstreamCases(dir: string): CaseDef[] {
  const tree = readUpstreamTree(dir);
  return [
    ...tree.examples.map((f) => exampleCase(tree, f)),
    ...tree.json.map((f) => jsonCase(tree, f)),
    ...tree.invalid.map((f) => invalidCase(tree, f)),
    ...tree.deltas.map((f) => deltaCase(tree, f)),
    ...tree.invalidDeltas.map((f) => invalidDeltaCase(tree, f)),
  ];
}

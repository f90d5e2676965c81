/**
 * L2-A1, A2, A4, A6, A7, A8, A13, A14: what apply_delta does to the profile file. After every
 * apply the file is read back through the oracle; "refused" always means the file was not
 * written at all (same bytes, mtime and inode), not merely that the adapter said so.
 */
import { profileDigest, specDigestInput } from '../../spec/document/index.js';
import { DEFAULT_WRITEBACK, inStateScope, operationsOutcome, proposalWidens, type Writeback } from '../../spec/semantics/index.js';
import { expectEqual, expectTrue } from '../framework/assert.js';
import type { CaseContext, CaseDef } from '../framework/types.js';
import { addFact, delta, entry } from './support/builders.js';
import { APPROVED, NOT_APPROVED, applyTo, categories, collection, findEntry, ids, type Applied, type Approval } from './support/apply.js';
import { fixture, fixtures } from '../../fixtures/index.js';
import { clone, fixtureDoc, isObject, jcsEqual } from './support/common.js';
import { mustReadProfile, untouched } from './support/profile-io.js';
import { inconclusive, issuesCause } from '../support/index.js';

const BASE = 'l2-apply/base-rev4';

function base(patch?: (doc: Record<string, unknown>) => void): Record<string, unknown> {
  const doc = fixtureDoc(BASE);
  patch?.(doc);
  return doc;
}

function setWriteback(doc: Record<string, unknown>, wb: Writeback | undefined): void {
  const lifecycle = (doc.spec as Record<string, unknown>).lifecycle as Record<string, unknown>;
  if (wb === undefined) delete lifecycle.writeback;
  else lifecycle.writeback = wb;
}

/** Was the whole file left alone? Evidence carries only structured facts. */
function expectUntouched(a: Applied, what: string): void {
  expectTrue(untouched(a.before, a.after), `${what}: the profile file was written`, {
    expected: { sha256: a.before.sha256, ino: a.before.ino, mtimeMs: a.before.mtimeMs },
    observed: { sha256: a.after.sha256, ino: a.after.ino, mtimeMs: a.after.mtimeMs },
  });
}

/** The state change of a simple add-one-fact delta is on disk. */
function hasFact(a: Applied, id: string): boolean {
  return a.read.ok && findEntry(a.read.doc, 'facts', id) !== undefined;
}

/**
 * A control apply: the same kind of delta, valid, applied to the same kind of profile. Cases use
 * it so that "refused" is never observed from an adapter that refuses everything.
 */
async function control(ctx: CaseContext, what: string): Promise<void> {
  const a = await applyTo(ctx, base(), delta('l2-apply', [addFact(entry('fact-control', 'A valid delta applies.'))], { revision: 4 }), {
    dir: `${ctx.workspace.dir}/control`,
  });
  if (!(a.result.outcome === 'applied' && hasFact(a, 'fact-control'))) {
    inconclusive(
      `${what}: a valid control delta was not applied (outcome ${a.result.outcome}), so a refusal proves nothing`,
      issuesCause(`control delta ${a.result.outcome}`, a.result.errors),
    );
  }
}

/** The Level 2 fixture IDs with a prefix, sorted (stable case order). */
function fixtureIds(prefix: string): string[] {
  return fixtures('level-2')
    .map((f) => f.id)
    .filter((id) => id.startsWith(prefix))
    .sort();
}

// ------------------------------------------------------------------------------------------ A1

function a1(fixtureId: string): CaseDef {
  const meta = fixture('level-2', fixtureId);
  const cats: string[] = meta.expect.errorCategories ?? [];
  return {
    id: `L2-A1/invalid-delta-refused-${fixtureId.split('/')[1]}`,
    requirements: ['L2-A1'],
    title: `A schema-invalid delta (${(meta.description ?? fixtureId).replace(/^Schema-invalid delta: /, '').replace(/;.*$/, '')}) is refused before any write`,
    fixtures: [BASE, fixtureId],
    expectation: meta.expect,
    async run(ctx) {
      await control(ctx, 'A1');
      const a = await applyTo(ctx, base(), fixtureDoc(fixtureId));
      expectUntouched(a, 'invalid delta');
      expectEqual(a.result.outcome, 'rejected', 'outcome for an invalid delta');
      // The valid control shows the refusal is for the defect; its protocol category is recorded.
      const got = categories(a.result.errors);
      if (!got.some((c) => cats.includes(c))) ctx.note('category-differs', { expected: cats, observed: got });
    },
  };
}

// ------------------------------------------------------------------------------------------ A2

function a2(fixtureId: string): CaseDef {
  const meta = fixture('level-2', fixtureId);
  const d = fixtureDoc(fixtureId);
  const path = ((d.operations as Array<Record<string, unknown>>)[0]!.path as string) || '""';
  // SPEC §6.2: a `..` token is a member literally named `..`, so such a path stays inside /state.
  // The harness may refuse it or apply it as that key; only an effect outside /state fails A2.
  const literalKey = inStateScope(path);
  return {
    id: `L2-A2/outside-state-refused-${fixtureId.split('/')[1]}`,
    requirements: ['L2-A2'],
    title: literalKey
      ? `An operation on ${path} (a literal \`..\` key inside /state) never changes /spec or /metadata`
      : `An operation on ${path} is refused and nothing is written`,
    fixtures: [BASE, fixtureId],
    expectation: meta.expect,
    async run(ctx) {
      await control(ctx, 'A2');
      const pre = base();
      const a = await applyTo(ctx, pre, fixtureDoc(fixtureId));
      if (literalKey) {
        ctx.note('outcome', a.result.outcome);
        if (untouched(a.before, a.after)) return;
        const post = mustReadProfile(a.path, false, `after an operation on ${path}`);
        expectTrue(jcsEqual(post.spec, pre.spec), `an operation on ${path} changed spec on disk`, {
          expected: pre.spec,
          observed: post.spec,
        });
        expectTrue(jcsEqual(authored(post), authored(pre)), `an operation on ${path} changed metadata on disk`, {
          expected: authored(pre),
          observed: authored(post),
        });
        return;
      }
      expectUntouched(a, `operation on ${path}`);
      expectEqual(a.result.outcome, 'rejected', `outcome for an operation on ${path}`);
      // The valid control shows the refusal is for the path; its protocol category is recorded.
      const got = categories(a.result.errors);
      const cats: string[] = meta.expect.errorCategories ?? [];
      if (!got.some((c) => cats.includes(c))) ctx.note('category-differs', { expected: cats, observed: got });
    },
  };
}

// ------------------------------------------------------------------------------------------ A4

const a4: CaseDef = {
  id: 'L2-A4/target-digest-verified',
  requirements: ['L2-A4'],
  title: 'A delta whose target.digest does not match the profile is not applied; the matching digest applies',
  fixtures: [BASE],
  expectation: { wrongDigest: { outcome: 'not applied', file: 'untouched' }, rightDigest: { outcome: 'applied' } },
  async run(ctx) {
    // Keys sorted at every level, so any serializer agrees with JCS: this checks verification,
    // not canonicalisation (that is L3-G2).
    const pre = sortKeys(base());
    const right = profileDigest(pre);
    const wrongDoc = clone(pre);
    (wrongDoc.metadata as Record<string, unknown>).description = 'A different document.';
    const wrong = profileDigest(wrongDoc);
    const op = [addFact(entry('fact-digest', 'Applied only when the digest matches.'))];

    const bad = await applyTo(ctx, pre, delta('l2-apply', op, { revision: 4, digest: wrong }), { dir: `${ctx.workspace.dir}/wrong` });
    expectUntouched(bad, 'delta with a wrong target.digest');
    expectTrue(bad.result.outcome !== 'applied', 'a delta with a wrong target.digest was reported applied', {
      observed: bad.result.outcome,
    });

    const good = await applyTo(ctx, pre, delta('l2-apply', op, { revision: 4, digest: right }), { dir: `${ctx.workspace.dir}/right` });
    expectEqual(good.result.outcome, 'applied', 'outcome for the matching target.digest');
    expectTrue(hasFact(good, 'fact-digest'), 'the delta with the matching digest did not reach the file');
  },
};

function sortKeys<T>(v: T): T {
  if (Array.isArray(v)) return v.map(sortKeys) as T;
  if (isObject(v))
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeys(v[k])]),
    ) as T;
  return v;
}

// ------------------------------------------------------------------------------------------ A6

function a6(wb: Writeback | undefined, approval: Approval): CaseDef {
  const label = wb ?? 'absent';
  const expected = operationsOutcome(wb ?? DEFAULT_WRITEBACK, approval.operations);
  return {
    id: `L2-A6/writeback-${label}-${approval.operations ? 'approved' : 'unapproved'}-${expected}`,
    requirements: ['L2-A6'],
    title: `writeback ${label === 'absent' ? 'absent (default propose)' : label}, operations ${approval.operations ? 'approved' : 'not approved'}: ${expected}`,
    fixtures: [BASE],
    expectation: { outcome: expected, file: expected === 'applied' ? 'state operation present' : 'untouched' },
    async run(ctx) {
      const a = await applyTo(
        ctx,
        base((d) => setWriteback(d, wb)),
        delta('l2-apply', [addFact(entry('fact-gate', 'Learned in a session.'))], { revision: 4 }),
        { approval },
      );
      expectEqual(a.result.outcome, expected, 'apply_delta outcome');
      if (expected === 'applied') expectTrue(hasFact(a, 'fact-gate'), 'reported applied but the operation is not in the file');
      else expectUntouched(a, `writeback ${label}`);
    },
  };
}

// ------------------------------------------------------------------------------------------ A7

const a7: CaseDef = {
  id: 'L2-A7/proposals-pending-under-auto',
  requirements: ['L2-A7'],
  title: 'Behavioural test 9: under writeback auto with operations approved, no proposal reaches the file (shell not added)',
  fixtures: [BASE, 'l2-apply/proposal-gate'],
  expectation: {
    'spec.tools.allow': 'without shell',
    spec: 'unchanged',
    'metadata (minus revision, updated_at)': 'unchanged',
    proposals: 'all pending',
  },
  async run(ctx) {
    const pre = base();
    const d = fixtureDoc('l2-apply/proposal-gate');
    const a = await applyTo(ctx, pre, d, { approval: APPROVED });
    const n = (d.proposals as unknown[]).length;
    const appliedReported = a.result.proposals.filter((p) => p.status !== 'pending').map((p) => p.path);
    expectEqual(appliedReported, [], 'proposals reported as applied');
    // Whatever the outcome, no proposal may have reached the file (judged below when it changed).
    // A delta refused for another reason (a conflict, a validation problem) never reached the
    // proposal gate: that cannot show the gate works, and is not this ID's failure.
    const refused = a.result.outcome === 'rejected' || a.result.outcome === 'conflict';
    if (a.after.sha256 !== a.before.sha256) expectSpecUnchanged(a, pre);
    if (refused)
      inconclusive(
        `the delta was ${a.result.outcome} before its proposals reached the gate, so the gate was not exercised`,
        issuesCause(`proposal-gate delta ${a.result.outcome}`, a.result.errors),
      );
    // Non-vacuity: the applicator must have processed the proposals, not dropped them.
    expectEqual(a.result.proposals.map((p) => p.index).sort(), [...Array(n).keys()], 'proposals reported by apply_delta');
  },
};

/** No proposal of the behavioural-test-9 delta reached the file: spec and authored metadata as before. */
function expectSpecUnchanged(a: Applied, pre: Record<string, unknown>): void {
  const post = mustReadProfile(a.path, false, 'after a delta with proposals');
  const allow = ((post.spec as Record<string, unknown>).tools as Record<string, unknown> | undefined)?.allow;
  expectTrue(!(Array.isArray(allow) && allow.includes('shell')), 'shell was added to spec.tools.allow', { observed: allow });
  expectTrue(jcsEqual(post.spec, pre.spec), 'spec changed on disk', { expected: pre.spec, observed: post.spec });
  expectTrue(jcsEqual(authored(post), authored(pre)), 'metadata changed on disk', {
    expected: authored(pre),
    observed: authored(post),
  });
}

/** metadata minus the applicator-owned revision and updated_at and the resolver-owned trust (SPEC §2.2). */
function authored(doc: Record<string, unknown>): Record<string, unknown> {
  return specDigestInput(doc).metadata;
}

// ------------------------------------------------------------------------------------------ A8

interface RiskProbe {
  proposal: Record<string, unknown> & { path: string };
}

/** Proposals that widen a guarded section under any reading (spec/semantics/risk.ts checks each). */
const RISK_PROBES: RiskProbe[] = [
  { proposal: { path: '/spec/tools/allow/-', op: 'add', value: 'shell', risk: 'low', rationale: 'Needs to run tests.' } },
  {
    proposal: {
      path: '/spec/tools/allow',
      op: 'replace',
      value: ['read', 'search', 'edit', 'web/fetch'],
      risk: 'low',
      rationale: 'Needs the web.',
    },
  },
  {
    proposal: { path: '/spec/permissions/shell', op: 'replace', value: 'allow', risk: 'low', rationale: 'Shell is denied.' },
  },
  {
    proposal: { path: '/spec/memory/scopes/-', op: 'add', value: 'user:global', risk: 'low', rationale: 'Remember across projects.' },
  },
  {
    proposal: { path: '/spec/runtime/subagents/allow/-', op: 'add', value: 'deployer', risk: 'medium', rationale: 'Delegate deploys.' },
  },
  {
    proposal: {
      path: '/spec/permissions',
      op: 'replace',
      value: { shell: 'allow', network: 'allow' },
      risk: 'low',
      rationale: 'Too strict.',
    },
  },
];

const a8: CaseDef = {
  id: 'L2-A8/widening-proposals-high-risk',
  requirements: ['L2-A8'],
  title: 'Proposals widening tools, permissions, memory or subagents are classified high even when the document says low',
  fixtures: [BASE],
  expectation: { risk: RISK_PROBES.map((p) => ({ path: p.proposal.path, risk: 'high' })) },
  async run(ctx) {
    const pre = base((d) => {
      const spec = d.spec as Record<string, unknown>;
      spec.memory = { mode: 'read_only', scopes: ['project:acme'] };
      spec.runtime = { subagents: { allow: ['linter'] } };
    });
    const d = delta('l2-apply', [addFact(entry('fact-risk', 'Asked for more access.'))], {
      revision: 4,
      proposals: RISK_PROBES.map((p) => p.proposal),
    });
    const a = await applyTo(ctx, pre, d, { approval: NOT_APPROVED });
    const byIndex = new Map(a.result.proposals.map((p) => [p.index, p]));
    const wrong = RISK_PROBES.flatMap((p, i) => {
      if (!proposalWidens(p.proposal, pre)) throw new Error(`suite bug: risk probe ${p.proposal.path} does not widen`);
      const got = byIndex.get(i);
      return got?.risk === 'high' ? [] : [{ index: i, path: p.proposal.path, risk: got?.risk ?? 'not reported' }];
    });
    expectEqual(wrong, [], 'widening proposals not classified high');
  },
};

// ------------------------------------------------------------------------------------------ A13

const a13: CaseDef = {
  id: 'L2-A13/remove-missing-path-warns',
  requirements: ['L2-A13'],
  title: '`remove` on missing paths is a warning: the rest of the delta applies',
  fixtures: [BASE],
  expectation: { outcome: 'applied', errors: [], warnings: '>= 1', file: 'add applied' },
  async run(ctx) {
    const pre = base((d) => {
      delete (d.state as Record<string, unknown>).open_threads;
    });
    const d = delta(
      'l2-apply',
      [
        { op: 'remove', path: '/state/summary' },
        { op: 'remove', path: '/state/facts/7' },
        { op: 'remove', path: '/state/open_threads/0' },
        addFact(entry('fact-after-removes', 'Applied despite removes of missing paths.')),
      ],
      { revision: 4 },
    );
    const a = await applyTo(ctx, pre, d);
    expectEqual(a.result.outcome, 'applied', 'outcome with removes of missing paths');
    expectEqual(categories(a.result.errors), [], 'errors for removes of missing paths');
    expectTrue(a.result.warnings.length >= 1, 'no warning for removes of missing paths', { observed: a.result.warnings.length });
    expectTrue(hasFact(a, 'fact-after-removes'), 'the add after the removes is not in the file');
    expectEqual(ids(a.read.doc), [...ids(pre), 'fact-after-removes'], 'facts after the delta');
  },
};

// ------------------------------------------------------------------------------------------ A14

const a14: CaseDef = {
  id: 'L2-A14/id-pointers-resolved',
  requirements: ['L2-A14'],
  title: '/state/<collection>/id:<entry-id> pointers resolve to the entry at apply time',
  fixtures: [BASE],
  expectation: {
    'facts/id:fact-b/text': 'replaced',
    'facts/id:fact-a': 'removed',
    'open_threads/id:thread-a/status': 'done',
    'preferences/id:pref-a': 'replaced',
  },
  async run(ctx) {
    const d = delta(
      'l2-apply',
      [
        { op: 'replace', path: '/state/facts/id:fact-b/text', value: 'Production changes need two reviewers.' },
        { op: 'remove', path: '/state/facts/id:fact-a' },
        { op: 'replace', path: '/state/open_threads/id:thread-a/status', value: 'done' },
        { op: 'replace', path: '/state/preferences/id:pref-a', value: { id: 'pref-a', text: 'Prefer plans under 50 resources.' } },
      ],
      { revision: 4 },
    );
    const a = await applyTo(ctx, base(), d);
    expectEqual(a.result.outcome, 'applied', 'outcome for id: pointers');
    const post = mustReadProfile(a.path, false, 'after id: pointers');
    expectEqual(ids(post), ['fact-b'], 'facts after removing id:fact-a');
    expectEqual(findEntry(post, 'facts', 'fact-b')?.text, 'Production changes need two reviewers.', 'fact-b text');
    expectEqual(findEntry(post, 'open_threads', 'thread-a')?.status, 'done', 'thread-a status');
    expectEqual(findEntry(post, 'preferences', 'pref-a')?.text, 'Prefer plans under 50 resources.', 'pref-a text');
    expectEqual(collection(post, 'preferences').length, 1, 'preferences count');
  },
};

export const applicatorCases: CaseDef[] = [
  ...fixtureIds('l2-apply-invalid/').map(a1),
  ...fixtureIds('l2-apply-scope/').map(a2),
  a4,
  a6('off', APPROVED),
  a6('propose', NOT_APPROVED),
  a6('propose', APPROVED),
  a6(undefined, NOT_APPROVED),
  a6(undefined, APPROVED),
  a6('auto', NOT_APPROVED),
  a7,
  a8,
  a13,
  a14,
];

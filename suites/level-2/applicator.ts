/**
 * L2-A1, A2, A4, A6, A7, A8, A13, A14: what apply_delta does to the profile file. After every
 * apply the file is read back through the oracle; "refused" always means the file was not
 * written at all (same bytes, mtime and inode), not merely that the adapter said so.
 */
import { createHash } from 'node:crypto';
import { profileDigest, specDigestInput } from '../../spec/document/index.js';
import { DEFAULT_WRITEBACK, inStateScope, operationsOutcome, proposalWidens, valueAt, type Writeback } from '../../spec/semantics/index.js';
import { expectEqual, expectTrue } from '../kit/assert.js';
import type { CaseContext, CaseDef } from '../kit/types.js';
import { APPLY_NOW, addFact, delta, entry, profile } from './support/builders.js';
import {
  APPROVED,
  NOT_APPROVED,
  applyAt,
  expectNotRejected,
  expectOutcome,
  applyTo,
  categories,
  collection,
  expectEntryOnDisk,
  expectStateAfter,
  findEntry,
  ids,
  type Applied,
  type Approval,
} from './support/apply.js';
import { fixture, fixtures } from '../../fixtures/index.js';
import { clone, fixtureDoc, isObject, jcsEqual } from './support/common.js';
import { fingerprint, mustReadProfile, untouched, type Fingerprint } from './support/profile-io.js';
import { deltaRefusalCause, inconclusive, instantiatePath, mustInstantiate, readBack, writeProjectProfile } from '../support/index.js';

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

/** The state of `doc` with one fact appended: what a delta that adds it, and changes nothing else, leaves. */
function stateWith(doc: Record<string, unknown>, fact: object): Record<string, unknown> {
  const state = clone(isObject(doc.state) ? doc.state : {});
  return { ...state, facts: [...(Array.isArray(state.facts) ? state.facts : []), fact] };
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
    role: 'control',
  });
  if (!(a.result.outcome === 'applied' && hasFact(a, 'fact-control'))) {
    inconclusive(
      `${what}: a valid control delta was not applied (outcome ${a.result.outcome}), so a refusal proves nothing`,
      deltaRefusalCause('control delta', a.result),
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
    clauses: ['L2-A1.validated-first'],
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
    clauses: ['L2-A2.outside-state-rejected'],
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
  clauses: ['L2-A4.verify-digest'],
  title: 'A delta whose target.digest does not match the profile is not applied; the matching digest applies',
  about: ['pin'],
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
    expectOutcome(good, 'applied', 'outcome for the matching target.digest');
    expectEntryOnDisk(good, 'facts', 'fact-digest', 'the delta with the matching target.digest');
  },
};

/**
 * SPEC §2.2: the profile digest is the SHA-256 of the document serialized with JCS, whatever key
 * order the file has. The profile is written with its keys in reverse order at every level, so a
 * harness hashing the document as written (not canonicalized) computes another digest.
 */
const a4Canonical: CaseDef = {
  id: 'L2-A4/target-digest-canonical-form',
  requirements: ['L2-A4'],
  clauses: ['L2-A4.verify-digest'],
  title:
    'target.digest is compared in canonical (JCS) form: with keys in reverse order the JCS digest applies, the digest of the text as written is refused with an error',
  about: ['pin'],
  fixtures: [BASE],
  expectation: {
    jcsDigest: { outcome: 'applied' },
    asWrittenDigest: { outcome: 'not applied', file: 'untouched', errors: '>= 1' },
  },
  async run(ctx) {
    const pre = reverseKeys(
      base((d) => ((d.metadata as Record<string, unknown>).description = 'Revisa cambios de infraestructura: ñandú.')),
    );
    const canonical = profileDigest(pre);
    const asWritten = `sha256:${createHash('sha256').update(JSON.stringify(pre)).digest('hex')}`;
    if (canonical === asWritten) throw new Error('suite bug: the reversed document is already canonical');
    const op = [addFact(entry('fact-digest', 'Applied only when the digest matches.'))];

    const right = await applyTo(ctx, pre, delta('l2-apply', op, { revision: 4, digest: canonical }), { dir: `${ctx.workspace.dir}/jcs` });
    expectOutcome(right, 'applied', 'outcome for the JCS digest of a profile with unsorted keys');
    expectEntryOnDisk(right, 'facts', 'fact-digest', 'the delta with the JCS target.digest');

    const wrong = await applyTo(ctx, pre, delta('l2-apply', op, { revision: 4, digest: asWritten }), {
      dir: `${ctx.workspace.dir}/as-written`,
    });
    expectUntouched(wrong, 'delta whose target.digest is not the JCS digest');
    expectTrue(wrong.result.outcome !== 'applied', 'a delta whose target.digest hashes the non-canonical text was applied', {
      observed: wrong.result.outcome,
    });
    expectTrue(wrong.result.errors.length > 0, 'a target.digest mismatch was refused without an error', {
      expected: '>= 1 error',
      observed: { outcome: wrong.result.outcome, errors: 0 },
    });
  },
};

/** The same value with object keys in reverse code-point order at every level. */
function reverseKeys<T>(v: T): T {
  if (Array.isArray(v)) return v.map(reverseKeys) as T;
  if (isObject(v))
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .reverse()
        .map((k) => [k, reverseKeys(v[k])]),
    ) as T;
  return v;
}

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
    clauses: [wb === undefined ? 'L2-A6.default' : `L2-A6.${wb}`],
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
      expectOutcome(a, expected, 'apply_delta outcome');
      if (expected === 'applied') expectEntryOnDisk(a, 'facts', 'fact-gate', 'reported applied');
      else expectUntouched(a, `writeback ${label}`);
    },
  };
}

/**
 * SPEC §3.8: the value is `spec.lifecycle.writeback`. Members named `writeback` elsewhere (an
 * annotation, which SPEC §2.5 lets any harness write) are not it.
 */
const a6Location: CaseDef = {
  id: 'L2-A6/writeback-read-from-spec-lifecycle',
  requirements: ['L2-A6'],
  clauses: ['L2-A6.default'],
  title: 'writeback comes from spec.lifecycle alone: an annotation named writeback neither lifts off nor replaces the default propose',
  fixtures: [BASE],
  expectation: {
    'lifecycle off, annotation auto, approved': { outcome: 'discarded', file: 'untouched' },
    'lifecycle absent, annotation auto, not approved': { outcome: 'queued', file: 'untouched' },
  },
  async run(ctx) {
    const decoy = (d: Record<string, unknown>): void => {
      (d.metadata as Record<string, unknown>).annotations = { writeback: 'auto', 'example.org/writeback': 'auto' };
    };
    const op = [addFact(entry('fact-gate', 'Learned in a session.'))];
    const off = await applyTo(
      ctx,
      base((d) => {
        setWriteback(d, 'off');
        decoy(d);
      }),
      delta('l2-apply', op, { revision: 4 }),
      { approval: APPROVED, dir: `${ctx.workspace.dir}/off` },
    );
    expectOutcome(off, 'discarded', 'outcome under spec.lifecycle.writeback off (annotation writeback: auto)');
    expectUntouched(off, 'writeback off with a writeback annotation');
    const absent = await applyTo(
      ctx,
      base((d) => {
        setWriteback(d, undefined);
        decoy(d);
      }),
      delta('l2-apply', op, { revision: 4 }),
      { approval: NOT_APPROVED, dir: `${ctx.workspace.dir}/absent` },
    );
    expectOutcome(absent, 'queued', 'outcome with no spec.lifecycle.writeback (annotation writeback: auto), not approved');
    expectUntouched(absent, 'default propose with a writeback annotation');
  },
};

/** YAML 1.2 (SPEC §2.1): a plain `off` is the string "off", never the YAML 1.1 boolean false. */
const OFF_UNQUOTED_YAML = `oap: "1.0"
kind: AgentProfile
metadata:
  name: l2-apply
  description: Reviews infrastructure changes; writeback is an unquoted YAML off.
  revision: 4
spec:
  role:
    instructions: You review infrastructure changes.
  lifecycle:
    writeback: off
state:
  facts:
    - id: fact-a
      text: Terraform state lives in the ops bucket.
`;

const a6YamlOff: CaseDef = {
  id: 'L2-A6/writeback-off-unquoted-yaml-discarded',
  requirements: ['L2-A6'],
  clauses: ['L2-A6.off'],
  title: 'An unquoted YAML `writeback: off` is the string off (YAML 1.2), so an approved delta is discarded',
  needs: { encodings: ['yaml'] },
  expectation: { text: 'writeback: off (plain scalar)', outcome: 'discarded', file: 'untouched' },
  async run(ctx) {
    const path = ctx.workspace.writeFile(`${ctx.workspace.projectAgents}/l2-apply.agent.yaml`, OFF_UNQUOTED_YAML);
    const read = readBack(path);
    if (!read.ok || valueAt(read.doc, '/spec/lifecycle/writeback') !== 'off')
      throw new Error('suite bug: the YAML fixture does not read as off');
    const a = await applyAt(
      ctx,
      path,
      read.doc!,
      delta('l2-apply', [addFact(entry('fact-gate', 'Learned in a session.'))], { revision: 4 }),
      {
        approval: APPROVED,
      },
    );
    expectOutcome(a, 'discarded', 'outcome under an unquoted YAML writeback: off');
    expectUntouched(a, 'unquoted YAML writeback: off');
  },
};

/** A whole-state replacement is a state operation like any other: `off` discards it too. */
const a6StateReplace: CaseDef = {
  id: 'L2-A6/writeback-off-state-replace-discarded',
  requirements: ['L2-A6'],
  clauses: ['L2-A6.off'],
  title: 'Under writeback off an approved delta replacing the whole /state is discarded and nothing is written',
  fixtures: [BASE],
  expectation: { outcome: 'discarded', file: 'untouched' },
  async run(ctx) {
    const replace = { op: 'replace', path: '/state', value: { facts: [entry('fact-snapshot', 'A state snapshot from a session.')] } };
    const a = await applyTo(
      ctx,
      base((d) => setWriteback(d, 'off')),
      delta('l2-apply', [replace], { revision: 4 }),
      { approval: APPROVED },
    );
    expectOutcome(a, 'discarded', 'outcome of a /state replace under writeback off');
    expectUntouched(a, 'a /state replace under writeback off');
  },
};

/** End a session of the profile at `path` with one learned statement; the file's fingerprint around it. */
async function endSessionAround(ctx: CaseContext, path: string): Promise<{ before: Fingerprint; after: Fingerprint }> {
  const inst = mustInstantiate(await instantiatePath(ctx, path), 'writeback profile');
  const before = fingerprint(path);
  await ctx.adapter.call('end_session', {
    session_id: inst.session_id,
    evidence: [{ type: 'user_statement', about: 'fact', text: 'The deploy window is Tuesday morning.' }],
    outcome: 'completed',
    now: APPLY_NOW,
  });
  return { before, after: fingerprint(path) };
}

const a6EndSession: CaseDef = {
  id: 'L2-A6/writeback-off-end-session-writes-nothing',
  requirements: ['L2-A6'],
  clauses: ['L2-A6.off'],
  title: 'Under writeback off, ending a session that learned something leaves the profile file untouched',
  expectation: { profile: 'same bytes, mtime and inode after end_session' },
  async run(ctx) {
    // Control: under propose, end_session writes nothing (L2-G3). If it does, that is G3's finding.
    const control = writeProjectProfile(ctx, profile('l2-wb-end-control', { writeback: 'propose' }));
    const c = await endSessionAround(ctx, control);
    if (!untouched(c.before, c.after))
      inconclusive('end_session wrote the profile under writeback propose (judged by L2-G3)', 'end_session writes the profile');
    const off = writeProjectProfile(ctx, profile('l2-wb-end-off', { writeback: 'off' }));
    const o = await endSessionAround(ctx, off);
    expectTrue(untouched(o.before, o.after), 'end_session under writeback off wrote the profile file', {
      expected: { sha256: o.before.sha256, ino: o.before.ino, mtimeMs: o.before.mtimeMs },
      observed: { sha256: o.after.sha256, ino: o.after.ino, mtimeMs: o.after.mtimeMs },
    });
  },
};

// ------------------------------------------------------------------------------------------ A7

const a7: CaseDef = {
  id: 'L2-A7/proposals-pending-under-auto',
  requirements: ['L2-A7'],
  clauses: ['L2-A7.proposals-need-approval'],
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
        deltaRefusalCause('proposal-gate delta', a.result, d),
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
  // The catalogue's proposal.risk classes (spec/semantics/risk.catalogue.ts): op-absent (the default replace)
  { proposal: { path: '/spec/permissions/shell', value: 'allow', risk: 'low', rationale: 'No op: replace.' } },
  // subagent-limits-raised
  { proposal: { path: '/spec/runtime/subagents/max_depth', op: 'replace', value: 8, risk: 'low', rationale: 'Deeper trees.' } },
  // glob-added-to-allow
  { proposal: { path: '/spec/tools/allow/-', op: 'add', value: '*', risk: 'low', rationale: 'Every tool.' } },
  // remove-from-deny: an entry removed, and the list replaced with a subset
  { proposal: { path: '/spec/tools/deny/0', op: 'remove', risk: 'low', rationale: 'Shell is fine.' } },
  { proposal: { path: '/spec/tools/deny', op: 'replace', value: [], risk: 'low', rationale: 'No denies.' } },
];

const a8: CaseDef = {
  id: 'L2-A8/widening-proposals-high-risk',
  requirements: ['L2-A8'],
  clauses: ['L2-A8.tools', 'L2-A8.permissions', 'L2-A8.memory', 'L2-A8.subagents'],
  title:
    'Proposals widening tools, permissions, memory or subagents (a glob allowed, a deny removed, a limit raised, no op) are classified high even when the document says low',
  fixtures: [BASE],
  expectation: { risk: RISK_PROBES.map((p) => ({ path: p.proposal.path, risk: 'high' })) },
  async run(ctx) {
    const pre = base((d) => {
      const spec = d.spec as Record<string, unknown>;
      spec.memory = { mode: 'read_only', scopes: ['project:acme'] };
      spec.runtime = { subagents: { allow: ['linter'], max_depth: 2 } };
      (spec.tools as Record<string, unknown>).deny = ['shell'];
    });
    const d = delta('l2-apply', [addFact(entry('fact-risk', 'Asked for more access.'))], {
      revision: 4,
      proposals: RISK_PROBES.map((p) => p.proposal),
    });
    const a = await applyTo(ctx, pre, d, { approval: NOT_APPROVED });
    expectNotRejected(a, 'a delta carrying widening proposals');
    const byIndex = new Map(a.result.proposals.map((p) => [p.index, p]));
    const wrong = RISK_PROBES.flatMap((p, i) => {
      if (!proposalWidens(p.proposal, pre)) throw new Error(`suite bug: risk probe ${p.proposal.path} does not widen`);
      const got = byIndex.get(i);
      return got?.risk === 'high' ? [] : [{ index: i, path: p.proposal.path, risk: got?.risk ?? 'not reported' }];
    });
    expectEqual(wrong, [], 'widening proposals not classified high');
  },
};

/**
 * SPEC §6.4 "any proposal that widens `spec.tools`, `spec.permissions`, `spec.memory`, or
 * `spec.runtime.subagents`": replacing a parent replaces the guarded section inside it, so a
 * proposal on `/spec/runtime` or `/spec` whose value widens one is high risk too.
 */
const a8Parents: CaseDef = {
  id: 'L2-A8/parent-replacing-proposals-high-risk',
  requirements: ['L2-A8'],
  clauses: ['L2-A8.tools', 'L2-A8.permissions', 'L2-A8.memory', 'L2-A8.subagents'],
  title: 'Proposals replacing a parent of a guarded section (/spec/runtime, /spec) with a widening value are classified high',
  fixtures: [BASE],
  expectation: { risk: ['/spec/runtime', '/spec', '/spec'].map((path) => ({ path, risk: 'high' })) },
  async run(ctx) {
    const pre = base((d) => {
      const spec = d.spec as Record<string, unknown>;
      spec.memory = { mode: 'read_only', scopes: ['project:acme'] };
      spec.runtime = { max_turns: 40, subagents: { allow: ['linter'] } };
    });
    const spec = pre.spec as Record<string, unknown>;
    const probes: Array<Record<string, unknown> & { path: string }> = [
      {
        path: '/spec/runtime',
        op: 'replace',
        value: { max_turns: 40, subagents: { allow: ['linter', 'deployer'] } },
        risk: 'low',
        rationale: 'Delegate deploys too.',
      },
      {
        path: '/spec',
        op: 'replace',
        value: { ...clone(spec), tools: { allow: ['read', 'search', 'edit', 'shell'] } },
        risk: 'low',
        rationale: 'Tidy the spec.',
      },
      {
        path: '/spec',
        op: 'replace',
        value: { ...clone(spec), permissions: { shell: 'allow' } },
        risk: 'medium',
        rationale: 'Shell is denied.',
      },
    ];
    for (const p of probes) if (!proposalWidens(p, pre)) throw new Error(`suite bug: risk probe ${p.path} does not widen`);
    const d = delta('l2-apply', [addFact(entry('fact-risk', 'Asked for more access.'))], { revision: 4, proposals: probes });
    const a = await applyTo(ctx, pre, d, { approval: NOT_APPROVED });
    expectNotRejected(a, 'a delta carrying widening proposals');
    const byIndex = new Map(a.result.proposals.map((p) => [p.index, p]));
    const wrong = probes.flatMap((p, i) => {
      const got = byIndex.get(i);
      return got?.risk === 'high' ? [] : [{ index: i, path: p.path, risk: got?.risk ?? 'not reported' }];
    });
    expectEqual(wrong, [], 'parent-replacing widening proposals not classified high');
  },
};

// ------------------------------------------------------------------------------------------ A13

const a13: CaseDef = {
  id: 'L2-A13/remove-missing-path-warns',
  requirements: ['L2-A13'],
  clauses: ['L2-A13.remove-missing-warns'],
  title: '`remove` on missing paths is a warning: the rest of the delta applies',
  fixtures: [BASE],
  expectation: { outcome: 'applied', errors: [], warnings: '>= 1', file: 'add applied' },
  async run(ctx) {
    const pre = base((d) => {
      delete (d.state as Record<string, unknown>).open_threads;
    });
    const added = entry('fact-after-removes', 'Applied despite removes of missing paths.');
    const d = delta(
      'l2-apply',
      [
        { op: 'remove', path: '/state/summary' },
        { op: 'remove', path: '/state/facts/7' },
        { op: 'remove', path: '/state/open_threads/0' },
        addFact(added),
      ],
      { revision: 4 },
    );
    const a = await applyTo(ctx, pre, d);
    expectOutcome(a, 'applied', 'outcome with removes of missing paths');
    expectEqual(categories(a.result.errors), [], 'errors for removes of missing paths');
    expectTrue(a.result.warnings.length >= 1, 'no warning for removes of missing paths', { observed: a.result.warnings.length });
    // The removes are no-ops, so the state on disk is the old one plus the add: any other change is named where it is.
    expectStateAfter(a, stateWith(pre, added), 'state after removes of missing paths and one add');
    expectEqual(ids(a.read.doc), [...ids(pre), 'fact-after-removes'], 'facts after the delta');
  },
};

/**
 * SPEC §6.2 "`remove` on a missing path is a no-op with a warning" holds however the path
 * addresses the entry: an `id:` naming no entry is a missing path (to a harness without `id:`
 * pointers it names no member either).
 */
const a13ById: CaseDef = {
  id: 'L2-A13/remove-missing-id-entry-warns',
  requirements: ['L2-A13'],
  clauses: ['L2-A13.remove-missing-warns'],
  title: '`remove` of entries addressed by an `id:` that matches nothing is a warning: the rest of the delta applies',
  fixtures: [BASE],
  expectation: { outcome: 'applied', errors: [], warnings: '>= 1', file: 'add applied, existing entries intact' },
  async run(ctx) {
    const pre = base();
    const added = entry('fact-after-removes', 'Applied despite removes of missing entries.');
    const d = delta(
      'l2-apply',
      [
        { op: 'remove', path: '/state/facts/id:fact-gone' },
        { op: 'remove', path: '/state/open_threads/id:thread-gone' },
        { op: 'remove', path: '/state/preferences/id:pref-gone/text' },
        addFact(added),
      ],
      { revision: 4 },
    );
    const a = await applyTo(ctx, pre, d);
    expectOutcome(a, 'applied', 'outcome with removes of missing id: entries');
    expectEqual(categories(a.result.errors), [], 'errors for removes of missing id: entries');
    expectTrue(a.result.warnings.length >= 1, 'no warning for removes of missing id: entries', { observed: a.result.warnings.length });
    expectStateAfter(a, stateWith(pre, added), 'state after removes of missing id: entries and one add');
    expectEqual(ids(a.read.doc), [...ids(pre), 'fact-after-removes'], 'facts after the delta');
  },
};

// ------------------------------------------------------------------------------------------ A14

const a14: CaseDef = {
  id: 'L2-A14/id-pointers-resolved',
  requirements: ['L2-A14'],
  clauses: ['L2-A14.id-pointers'],
  title: '/state/<collection>/id:<entry-id> pointers resolve to the entry at apply time',
  about: ['append'],
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
    expectOutcome(a, 'applied', 'outcome for id: pointers');
    const post = mustReadProfile(a.path, false, 'after id: pointers');
    expectEqual(ids(post), ['fact-b'], 'facts after removing id:fact-a');
    expectEqual(findEntry(post, 'facts', 'fact-b')?.text, 'Production changes need two reviewers.', 'fact-b text');
    expectEqual(findEntry(post, 'open_threads', 'thread-a')?.status, 'done', 'thread-a status');
    expectEqual(findEntry(post, 'preferences', 'pref-a')?.text, 'Prefer plans under 50 resources.', 'pref-a text');
    expectEqual(collection(post, 'preferences').length, 1, 'preferences count');
  },
};

// ------------------------------------------------------------------------------------------ ADV-pointer-paths

/**
 * SPEC 6.2: "An applicator MUST support pointer paths": RFC 6901 pointers into /state, applied one
 * after another as JSON Patch does (`-` appends, `add` at an array index inserts there, `add` of an
 * object member sets it, `remove` at an index shifts what follows). No conformance ID names it, so
 * it is an advisory; the `id:` form is L2-A14's.
 */
const pointerPaths: CaseDef = {
  id: 'ADV-pointer-paths/index-pointers-applied-in-order',
  requirements: ['ADV-pointer-paths'],
  clauses: ['ADV-pointer-paths.json-pointer'],
  title: 'Operations at RFC 6901 pointers apply in order: `-` appends, an index add inserts, a remove shifts, a member add sets',
  fixtures: [BASE],
  expectation: {
    facts: ['fact-z', 'fact-b', 'fact-c'],
    'facts/1/text': 'replaced (fact-b, after the insert and the remove)',
    'preferences/0/text': 'replaced',
    summary: 'set',
  },
  async run(ctx) {
    const d = delta(
      'l2-apply',
      [
        addFact(entry('fact-c', 'Plans run in the staging account first.')),
        { op: 'add', path: '/state/facts/0', value: entry('fact-z', 'The DNS provider is being replaced.'), reason: 'inserted first' },
        { op: 'remove', path: '/state/facts/1', reason: 'fact-a is obsolete' },
        { op: 'replace', path: '/state/facts/1/text', value: 'Production changes need two reviewers.', reason: 'corrected' },
        { op: 'replace', path: '/state/preferences/0/text', value: 'Prefer plans under 50 resources.', reason: 'user statement' },
        { op: 'add', path: '/state/summary', value: 'Reviews infrastructure plans for the ops team.', reason: 'summary' },
      ],
      { revision: 4 },
    );
    const a = await applyTo(ctx, base(), d);
    expectOutcome(a, 'applied', 'outcome for operations at index and member pointers');
    expectEqual(categories(a.result.errors), [], 'errors for operations at index and member pointers');
    const post = mustReadProfile(a.path, false, 'after index pointers');
    expectEqual(ids(post), ['fact-z', 'fact-b', 'fact-c'], 'facts after append, insert at 0 and remove at 1');
    expectEqual(
      findEntry(post, 'facts', 'fact-b')?.text,
      'Production changes need two reviewers.',
      'text of /state/facts/1 after the shift',
    );
    expectEqual(findEntry(post, 'preferences', 'pref-a')?.text, 'Prefer plans under 50 resources.', 'pref-a text');
    const state = isObject(post?.['state']) ? post['state'] : {};
    expectEqual(state['summary'], 'Reviews infrastructure plans for the ops team.', '/state/summary');
  },
};

export const applicatorCases: CaseDef[] = [
  ...fixtureIds('l2-apply-invalid/').map(a1),
  ...fixtureIds('l2-apply-scope/').map(a2),
  a4,
  a4Canonical,
  a6('off', APPROVED),
  a6('propose', NOT_APPROVED),
  a6('propose', APPROVED),
  a6(undefined, NOT_APPROVED),
  a6(undefined, APPROVED),
  a6('auto', NOT_APPROVED),
  a6Location,
  a6YamlOff,
  a6StateReplace,
  a6EndSession,
  a7,
  a8,
  a8Parents,
  a13,
  a13ById,
  a14,
  pointerPaths,
];

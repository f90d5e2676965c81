/**
 * L2-G1..G5: the delta a session emits at end_session, judged from the delta alone (schema through
 * the oracle) and from the disk (nothing written while generating).
 */
import type { EvidenceT } from '../../protocol/messages.js';
import { encodingFromPath, validateDeltaSchema } from '../../spec/document/index.js';
import { inStateScope } from '../../spec/semantics/index.js';
import { expectEqual, expectTrue, fail } from '../kit/assert.js';
import type { CaseContext, CaseDef } from '../kit/types.js';
import { diffSnapshots, serializeDocument } from '../kit/workspace.js';
import { clone, isObject, fixtureDoc } from './support/common.js';
import { fingerprint, untouched } from './support/profile-io.js';
import { inconclusive, instantiatePath, requireSession, writeProjectProfile } from '../support/index.js';

const END_NOW = '2030-03-01T10:00:00Z';
const PROFILE = 'l2-gen/learner-rev7';

function evidence(set: 'learning' | 'capability-only' | 'secret' | 'secrets-everywhere' | 'none'): EvidenceT[] {
  return clone((fixtureDoc('l2-gen/evidence') as Record<string, EvidenceT[]>)[set]!);
}

interface Generated {
  delta: Record<string, unknown> | null;
  path: string;
  sessionId: string;
}

/** Write the learner profile (optionally patched), instantiate it, end the session with `ev`. */
async function generate(
  ctx: CaseContext,
  ev: EvidenceT[],
  patch?: (doc: Record<string, unknown>) => void,
  between?: (path: string) => void,
): Promise<Generated> {
  const doc = fixtureDoc(PROFILE);
  patch?.(doc);
  const path = writeProjectProfile(ctx, doc);
  const inst = requireSession(await instantiatePath(ctx, path), 'learner profile');
  between?.(path);
  const r = await ctx.adapter.call('end_session', { session_id: inst.session_id, evidence: ev, outcome: 'completed', now: END_NOW });
  return { delta: r.delta, path, sessionId: inst.session_id };
}

/** The delta a case needs to inspect; a missing one is not this case's finding (see G1). */
function need(g: Generated): Record<string, unknown> {
  if (g.delta === null) return inconclusive('end_session returned no delta for a session with evidence (judged by L2-G1)');
  return g.delta;
}

function ops(delta: Record<string, unknown>): Array<Record<string, unknown>> {
  return Array.isArray(delta.operations) ? (delta.operations as Array<Record<string, unknown>>).filter(isObject) : [];
}

function proposals(delta: Record<string, unknown>): Array<Record<string, unknown>> {
  return Array.isArray(delta.proposals) ? (delta.proposals as Array<Record<string, unknown>>).filter(isObject) : [];
}

// ------------------------------------------------------------------------------------------ G1

function g1(set: 'learning' | 'capability-only'): CaseDef {
  return {
    id: `L2-G1/delta-validates-${set}`,
    requirements: ['L2-G1'],
    clauses: ['L2-G1.delta-valid'],
    title: `A session with ${set === 'learning' ? 'statements, a decision and thread changes' : 'only a capability request'} emits a delta that validates against agent-state-delta.schema.json`,
    fixtures: [PROFILE, 'l2-gen/evidence'],
    expectation: { delta: 'non-null', schemaIssues: [] },
    async run(ctx) {
      const g = await generate(ctx, evidence(set));
      // A capability-only session that emits nothing has dropped the request: L2-G4 judges that.
      if (g.delta === null && set === 'capability-only') inconclusive('no delta for a capability-only session (judged by L2-G4)');
      if (g.delta === null)
        fail('a session with statements, a decision and thread changes produced no delta document', 'an AgentStateDelta', null);
      const issues = validateDeltaSchema(g.delta).map((i) => ({ code: i.code, pointer: i.pointer }));
      expectEqual(issues, [], 'delta schema issues');
    },
  };
}

// ------------------------------------------------------------------------------------------ G2

const g2: CaseDef = {
  id: 'L2-G2/target-revision-is-instantiated-revision',
  requirements: ['L2-G2'],
  clauses: ['L2-G2.target-revision'],
  title: 'target.revision is the revision the session was instantiated from (7), even after the file moved to 8',
  fixtures: [PROFILE, 'l2-gen/evidence'],
  expectation: { 'target.name': 'l2-learner', 'target.revision': 7 },
  async run(ctx) {
    const plain = need(await generate(ctx, evidence('learning')));
    const target = isObject(plain.target) ? plain.target : {};
    expectEqual(target.revision, 7, 'target.revision');
    expectEqual(target.name, 'l2-learner', 'target.name');
    // Another writer moves the file to revision 8 mid-session: the delta still names 7.
    const moved = need(
      await generate(ctx, evidence('learning'), undefined, (path) => {
        const doc = fixtureDoc(PROFILE);
        (doc.metadata as Record<string, unknown>).revision = 8;
        ctx.workspace.writeFile(path, serializeDocument(doc, encodingFromPath(path) ?? 'yaml'));
      }),
    );
    expectEqual((isObject(moved.target) ? moved.target : {}).revision, 7, 'target.revision after another writer moved the file to 8');
  },
};

// ------------------------------------------------------------------------------------------ G3

/**
 * "MUST NOT write to the profile while generating a delta": the profile file keeps its bytes, mtime
 * and inode. Other files are the harness's business (a pending-delta inbox, a session log), so
 * changes elsewhere in the workspace are recorded as a note, never judged.
 */
function g3(writeback: 'propose' | 'auto'): CaseDef {
  return {
    id: `L2-G3/end-session-writes-nothing-${writeback}`,
    requirements: ['L2-G3'],
    clauses: ['L2-G3.no-profile-write'],
    title: `Generating a delta (writeback: ${writeback}) does not write the profile file`,
    fixtures: [PROFILE, 'l2-gen/evidence'],
    expectation: { profile: 'same bytes, mtime and inode', otherFiles: 'recorded, not judged' },
    async run(ctx) {
      let before: ReturnType<typeof fingerprint> | undefined;
      let snap: ReturnType<typeof ctx.workspace.snapshot> | undefined;
      const g = await generate(
        ctx,
        evidence('learning'),
        (doc) => {
          ((doc.spec as Record<string, unknown>).lifecycle as Record<string, unknown>).writeback = writeback;
        },
        (path) => {
          before = fingerprint(path);
          snap = ctx.workspace.snapshot();
        },
      );
      const after = fingerprint(g.path);
      expectTrue(untouched(before!, after), 'the profile file was written during end_session', { expected: before, observed: after });
      const others = diffSnapshots(snap!, ctx.workspace.snapshot());
      if (others.created.length + others.changed.length + others.removed.length > 0) ctx.note('other-files-changed', others);
    },
  };
}

// ------------------------------------------------------------------------------------------ G4

/** SPEC §6.2: an operation path is in scope when its first token is `state` (`..` is a literal key). */
function outsideState(path: unknown): boolean {
  return typeof path !== 'string' || !inStateScope(path);
}

function requested(ps: Array<Record<string, unknown>>, path: string, value: unknown): boolean {
  return ps.some((p) => {
    if (p.path === path) return true;
    // `/x/-` may come back as a replace of `/x` with the new list.
    if (path.endsWith('/-') && p.path === path.slice(0, -2)) return Array.isArray(p.value) && p.value.includes(value);
    return false;
  });
}

function g4(set: 'learning' | 'capability-only'): CaseDef {
  const wanted =
    set === 'learning'
      ? [
          { path: '/spec/tools/allow/-', value: 'shell' },
          { path: '/metadata/description', value: undefined },
        ]
      : [{ path: '/spec/permissions/shell', value: 'allow' }];
  return {
    id: `L2-G4/capability-requests-only-in-proposals-${set}`,
    requirements: ['L2-G4'],
    clauses: ['L2-G4.metadata', 'L2-G4.spec'],
    title: 'Requested /spec and /metadata changes appear in proposals, and no operation leaves /state',
    fixtures: [PROFILE, 'l2-gen/evidence'],
    expectation: { operationPaths: 'first token state', proposals: wanted.map((w) => w.path) },
    async run(ctx) {
      const g = await generate(ctx, evidence(set));
      // A capability-only session that emits nothing has dropped the request: that is this ID's failure.
      if (g.delta === null)
        fail(
          'the capability request was dropped: end_session returned no delta',
          wanted.map((w) => w.path),
          null,
        );
      const bad = ops(g.delta)
        .filter((o) => outsideState(o.path))
        .map((o) => o.path);
      expectEqual(bad, [], 'operation paths outside /state');
      const ps = proposals(g.delta);
      for (const w of wanted) {
        expectTrue(requested(ps, w.path, w.value), 'a capability request is missing from proposals', {
          expected: w.path,
          observed: ps.map((p) => p.path),
        });
      }
    },
  };
}

// ------------------------------------------------------------------------------------------ G5

/** Strings an evidence event contributes; an operation must carry one of them (or its thread id). */
function evidenceTexts(ev: EvidenceT[]): string[] {
  return ev.flatMap((e) =>
    e.type === 'thread_status' ? [e.thread_id, ...(e.title ? [e.title] : [])] : e.type === 'capability_request' ? [] : [e.text],
  );
}

function stringLeaves(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.flatMap(stringLeaves);
  if (isObject(v)) return Object.values(v).flatMap(stringLeaves);
  return [];
}

/** Bookkeeping an operation may carry without evidence: counters and timestamps, never prose. */
function bookkeeping(op: Record<string, unknown>): boolean {
  const path = String(op.path);
  if (/^\/state\/metrics(\/|$)/.test(path)) return stringLeaves(op.value).every((s) => Number.isFinite(Date.parse(s)));
  if (path === '/state/updated_at') return typeof op.value === 'string' && Number.isFinite(Date.parse(op.value));
  return false;
}

function traceable(op: Record<string, unknown>, texts: string[]): boolean {
  if (bookkeeping(op)) return true;
  const path = String(op.path);
  if (texts.some((t) => path.includes(t))) return true;
  return stringLeaves(op.value).some((s) => texts.some((t) => t.length > 0 && (s.includes(t) || (s.length >= 8 && t.includes(s)))));
}

const g5NoEvidence: CaseDef = {
  id: 'L2-G5/no-evidence-no-operations',
  requirements: ['L2-G5'],
  clauses: ['L2-G5.evidence'],
  title: 'A session with no evidence emits no operations (nothing is invented)',
  fixtures: [PROFILE],
  expectation: { delta: 'null, or no operations and no proposals' },
  async run(ctx) {
    // Non-vacuity: the same adapter must produce operations when there is evidence.
    const learned = await generate(ctx, evidence('learning'));
    if (learned.delta === null || ops(learned.delta).length === 0)
      inconclusive('no operations even with evidence; nothing to contrast with');
    const g = await generate(ctx, evidence('none'));
    if (g.delta === null) return;
    expectEqual(
      ops(g.delta).map((o) => o.path),
      [],
      'operations generated without any evidence',
    );
    expectEqual(
      proposals(g.delta).map((p) => p.path),
      [],
      'proposals generated without any evidence',
    );
  },
};

const g5Traceable: CaseDef = {
  id: 'L2-G5/operations-traceable-to-evidence',
  requirements: ['L2-G5'],
  clauses: ['L2-G5.evidence'],
  title: 'Every generated operation carries text (or a thread id) from a concrete evidence event',
  fixtures: [PROFILE, 'l2-gen/evidence'],
  expectation: { untraceableOperations: [], operations: '>= 1' },
  async run(ctx) {
    const ev = evidence('learning');
    const delta = need(await generate(ctx, ev));
    const all = ops(delta);
    expectTrue(all.length > 0, 'statements, a decision and thread changes produced no operations', { observed: 0 });
    const texts = evidenceTexts(ev);
    const free = all.filter((o) => o.op !== 'remove' && !traceable(o, texts)).map((o) => ({ op: o.op, path: o.path }));
    const freeRemoves = all
      .filter((o) => o.op === 'remove' && !texts.some((t) => String(o.path).includes(t)))
      .map((o) => ({ op: o.op, path: o.path }));
    expectEqual([...free, ...freeRemoves], [], 'operations not derived from any evidence event');
  },
};

// ------------------------------------------------------------------------------ ADV-delta-redaction

/**
 * security.md T3 (write path): "Delta generation MUST run the harness's secret-redaction pass over
 * every operation value before the delta is written." A MUST without a conformance ID: judged and
 * reported as the advisory ADV-delta-redaction, never gating a claim.
 */
const advSecret: CaseDef = {
  id: 'ADV-delta-redaction/secret-in-user-statement-redacted',
  requirements: ['ADV-delta-redaction'],
  clauses: ['ADV-delta-redaction.every-value'],
  title: 'An API key in a user statement never reaches the generated delta (security.md T3)',
  fixtures: [PROFILE, 'l2-gen/evidence'],
  expectation: { deltaContains: { 'sk-ant-api03-': false, Zq7Xv2Lm9Np4Rt6Y: false } },
  async run(ctx) {
    const g = await generate(ctx, evidence('secret'));
    if (g.delta === null) inconclusive('the statement produced no delta, so there is nothing to redact');
    const text = JSON.stringify(g.delta);
    for (const piece of ['sk-ant-api03-', 'Zq7Xv2Lm9Np4Rt6Y', 'Cd1Ef3Gh5Jk0MnWq']) {
      expectTrue(!text.includes(piece), 'a credential from the session reached the delta', {
        expected: `no ${piece}`,
        observed: 'present',
      });
    }
  },
};

/** Credentials the secrets-everywhere evidence carries, each by a fragment no redaction may leave. */
const CREDENTIALS = [
  { where: 'preference text', fragment: 'R8sT2uV4wX6yZ0aB1cD3eF5g' },
  { where: 'decision text', fragment: 'AKIAQ7XJ2M4N6P8R3T5V' },
  { where: 'thread title', fragment: 'Hq3Wn8Zr5Tk2Yp7Lm4Xv9Bc6' },
  { where: 'capability request value (header)', fragment: 'Y2kP9mQ4rS6tU8vW0xA1bC3d' },
  { where: 'capability request rationale', fragment: 'Rw4Et7Yu2Io9Pa5Sd8Fg1Hj6' },
];

/** Text the delta carries for each secret-bearing event when it records that event at all. */
const CARRIERS = [
  { event: 'preference', present: (t: string) => t.includes('Prefer the CI account') },
  { event: 'decision', present: (t: string) => t.includes('moved staging to the AWS key') },
  { event: 'thread', present: (t: string) => t.includes('thread-rotate-key') },
  { event: 'capability request', present: (t: string) => t.includes('/spec/tools/mcp_servers') },
];

const advEverywhere: CaseDef = {
  id: 'ADV-delta-redaction/secrets-in-every-delta-value-redacted',
  requirements: ['ADV-delta-redaction'],
  clauses: ['ADV-delta-redaction.every-value'],
  title:
    'Credentials in a preference, a decision, a thread title and a capability request (value and rationale) never reach the generated delta (security.md T3)',
  fixtures: [PROFILE, 'l2-gen/evidence'],
  expectation: { deltaContains: Object.fromEntries(CREDENTIALS.map((c) => [c.where, false])) },
  async run(ctx) {
    const g = await generate(ctx, evidence('secrets-everywhere'));
    if (g.delta === null) inconclusive('the session produced no delta, so there is nothing to redact');
    const text = JSON.stringify(g.delta);
    // Non-vacuity: redaction is observed only on values the delta carries.
    const carried = CARRIERS.filter((c) => c.present(text)).map((c) => c.event);
    if (carried.length === 0) inconclusive('the delta records none of the events that carried a credential');
    ctx.note('events-carried', carried);
    const leaked = CREDENTIALS.filter((c) => text.includes(c.fragment)).map((c) => c.where);
    expectEqual(leaked, [], 'credentials from the session found in the generated delta');
  },
};

export const generationCases: CaseDef[] = [
  g1('learning'),
  g1('capability-only'),
  g2,
  g3('propose'),
  g3('auto'),
  g4('learning'),
  g4('capability-only'),
  g5NoEvidence,
  g5Traceable,
  advSecret,
  advEverywhere,
];

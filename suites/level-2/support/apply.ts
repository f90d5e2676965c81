/**
 * apply_delta against a profile file written into the workspace, with the file's state recorded
 * before and after so each case can judge what was (not) written.
 */
import type { Params, Result } from '../../../protocol/messages.js';
import type { CaseContext } from '../../kit/types.js';
import { APPLY_NOW } from './builders.js';
import { valueAt } from '../../../spec/semantics/index.js';
import { isObject } from './common.js';
import type { Encoding } from '../../kit/types.js';
import { fingerprint, type Fingerprint } from './profile-io.js';
import {
  deltaRefusalCause,
  type InputRole,
  readBack,
  recordApply,
  workingEncoding,
  writeProfile,
  type ReadBack,
} from '../../support/index.js';
import { judgeRefusal } from '../../support/refusal.js';
import type { Shape } from '../../../spec/document/differences.js';
import type { OapIssue } from '../../../spec/document/issue.js';
import { expectEqual, fail, failWithDifferences } from '../../kit/assert.js';

export type ApplyResult = Result<'apply_delta'>;
export type Approval = Params<'apply_delta'>['approval'];

export const APPROVED: Approval = { operations: true, approver: 'alice@example.com' };
export const NOT_APPROVED: Approval = { operations: false };
export const ACTOR = 'oap-conform-applicator-test';

export interface Applied {
  path: string;
  pre: Record<string, unknown>;
  /** The delta as the case built it (the apply_delta boundary may accommodate its form). */
  delta: Record<string, unknown>;
  before: Fingerprint;
  after: Fingerprint;
  result: ApplyResult;
  read: ReadBack;
}

export interface ApplyOptions {
  /** What the apply is to the case (its inputs are labelled so); default the subject. */
  role?: InputRole;
  approval?: Approval;
  now?: string;
  actor?: string;
  dir?: string;
  enc?: Encoding;
}

/** Write `pre` as a profile, apply `delta` to it, and read the file back through the oracle. */
export async function applyTo(
  ctx: CaseContext,
  pre: Record<string, unknown>,
  delta: Record<string, unknown>,
  o: ApplyOptions = {},
): Promise<Applied> {
  const path = writeProfile(o.dir ?? ctx.workspace.projectAgents, pre, o.enc ?? workingEncoding(ctx.handshake));
  return applyAt(ctx, path, pre, delta, o);
}

/** Apply to a profile file that is already on disk. */
export async function applyAt(
  ctx: CaseContext,
  path: string,
  pre: Record<string, unknown>,
  delta: Record<string, unknown>,
  o: ApplyOptions = {},
): Promise<Applied> {
  const before = fingerprint(path);
  const request = { profile_path: path, delta, approval: o.approval ?? APPROVED, actor: o.actor ?? ACTOR, now: o.now ?? APPLY_NOW };
  recordApply(ctx, request, o.role);
  const result = await ctx.adapter.call('apply_delta', request);
  return { path, pre, delta, before, after: fingerprint(path), result, read: readBack(path) };
}

/**
 * The outcome a case expects of its delta. A delta rejected instead goes through the refusal rule
 * (suites/support/refusal.ts): the case's failure when the refusal is its own, else inconclusive
 * naming the ID that judges it (a refused append pointer is ADV-pointer-paths', a digest check of
 * a delta without a digest L2-A4's).
 */
export function expectOutcome(a: Applied, expected: ApplyResult['outcome'], what: string): void {
  if (a.result.outcome === expected) return;
  expectNotRejected(a, what, { outcome: expected });
  expectEqual(a.result.outcome, expected, what);
}

/** A delta the case needs processed (its proposals classified, say) was not rejected; a rejection goes through the refusal rule. */
export function expectNotRejected(a: Applied, what: string, expected: unknown = { outcome: 'not rejected' }): void {
  if (a.result.outcome !== 'rejected') return;
  judgeRefusal({
    reason: `${what}: the delta was rejected`,
    cause: deltaRefusalCause('delta', a.result, a.delta),
    role: 'subject',
    expected,
    observed: { outcome: a.result.outcome, errors: a.result.errors.map((e) => ({ category: e.category, pointer: e.pointer })) },
  });
}

/** The entries of a state collection in a parsed profile (empty when absent). */
export function collection(doc: Record<string, unknown> | undefined, name: string): Array<Record<string, unknown>> {
  const state = doc && isObject(doc.state) ? doc.state : {};
  const c = state[name];
  return Array.isArray(c) ? c.filter(isObject) : [];
}

export function ids(doc: Record<string, unknown> | undefined, name = 'facts'): string[] {
  return collection(doc, name).map((e) => String(e.id));
}

/** The entry of a state collection with that id (the first, as `/state/<name>/id:<id>` names it). */
export function findEntry(doc: Record<string, unknown> | undefined, name: string, id: string): Record<string, unknown> | undefined {
  return valueAt(doc, ['state', name, `id:${id}`]) as Record<string, unknown> | undefined;
}

export function revisionOf(doc: Record<string, unknown> | undefined): number | undefined {
  const meta = doc && isObject(doc.metadata) ? doc.metadata : undefined;
  if (!meta) return undefined;
  return typeof meta.revision === 'number' ? meta.revision : meta.revision === undefined ? 1 : undefined;
}

/** Issue categories only: checks compare categories and pointers, never messages. */
export function categories(issues: ApplyResult['errors']): string[] {
  return [...new Set(issues.map((i) => i.category))].sort();
}

/**
 * How /state compares: the entry collections by `id` (the name SPEC §6.2's `id:` pointers use), the
 * summary by line, the rest by key.
 */
const BY_ID: Shape = { kind: 'keyed', key: 'id' };
const STATE_SHAPE: Shape = { kind: 'map', fields: { facts: BY_ID, open_threads: BY_ID, preferences: BY_ID, summary: { kind: 'text' } } };

/** What every write sets whatever its operations (the state's revision and time), left out of the comparison. */
const WRITE_STAMPS = ['revision', 'updated_at'];

const withoutStamps = (state: unknown): Record<string, unknown> =>
  Object.fromEntries(Object.entries(isObject(state) ? state : {}).filter(([k]) => !WRITE_STAMPS.includes(k)));

const issueLine = (i: OapIssue | undefined): string => (i ? `${i.pointer || '(root)'}: ${i.code}: ${i.message}` : 'no issue reported');

/**
 * The file after an apply, judged from what is on disk and in the order the evidence allows: it
 * can be read at all; its /state is `expected` (every place that differs listed, the first named in
 * the message: a remove that created a container shows as that container, not as a missing add);
 * then it is a valid profile. So the message says what is wrong on disk, never a guess from one
 * symptom.
 */
export function expectStateAfter(a: Applied, expected: Record<string, unknown>, what: string): void {
  if (a.read.doc === undefined)
    fail(`${what}: the file cannot be read as a profile: ${issueLine(a.read.issues[0])}`, undefined, a.read.issues);
  expectEqual(withoutStamps(a.read.doc.state), withoutStamps(expected), what, { shape: STATE_SHAPE, at: '/state' });
  expectValidOnDisk(a, what);
}

/**
 * The one state change of a delta is on disk: the entry `id` in `collection`, judged as
 * `expectStateAfter` does (readable, the entry there, a valid profile), each failure naming what the
 * file shows.
 */
export function expectEntryOnDisk(a: Applied, collectionName: string, id: string, what: string): void {
  if (a.read.doc === undefined)
    fail(`${what}: the file cannot be read as a profile: ${issueLine(a.read.issues[0])}`, undefined, a.read.issues);
  if (findEntry(a.read.doc, collectionName, id) === undefined)
    failWithDifferences(
      `${what}: /state/${collectionName} has no entry ${id}`,
      [{ pointer: `/state/${collectionName}`, missing: [id] }],
      { [collectionName]: `has ${id}` },
      { [collectionName]: ids(a.read.doc, collectionName) },
    );
  expectValidOnDisk(a, what);
}

function expectValidOnDisk(a: Applied, what: string): void {
  if (a.read.ok) return;
  const first = a.read.issues.find((i) => i.severity === 'error') ?? a.read.issues[0];
  failWithDifferences(
    `${what}: the file is no longer a valid profile: ${issueLine(first)}`,
    a.read.issues.filter((i) => i.severity === 'error').map((i) => ({ pointer: i.pointer, observed: `${i.code}: ${i.message}` })),
    'a valid AgentProfile',
    a.read.issues,
  );
}

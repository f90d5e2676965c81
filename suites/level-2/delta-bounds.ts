/**
 * Grammar boundaries of agent-state-delta.schema.json (issue 20 part 3), judged where a harness
 * meets a delta: `apply_delta` (L2-A1, "MUST validate a delta before applying it"). Every delta is
 * the case's valid base delta (one `replace /state/summary`) with one value at its place
 * (spec/document/schema-bounds.ts), applied with approval to a fresh copy of a profile it targets
 * (written in JSON where the harness claims it, as the profile bounds are).
 * One case per keyword and side, listing every wrong answer:
 * - just inside a bound the delta must be `applied` (a harness refusing it validates against some
 *   other schema, the reading L1-P2 has for profiles);
 * - just outside it must be refused before anything is written: `rejected` (or a conflict it
 *   rejects) with the file's bytes, mtime and inode unchanged.
 * The profile takes the delta's target name and revision, so a value at `target.name` or
 * `target.revision` meets its own profile. Not judged inside: `target.digest` (a well-formed digest
 * of another document is refused by L2-A4's rule) and operation paths (every path but `/state`
 * that the pattern admits names a member no valid profile has; what applying it does is L2-A5's
 * or L2-A13's question, not a grammar's). The `maxItems` lists of operations are the base
 * operation repeated, so the count is the only boundary in them. Outside values of `format`, and
 * disputed ones, are never judged (INTERPRETATIONS.md "Grammar boundaries").
 */
import type { AdapterIssueT } from '../../protocol/messages.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { type BoundPlace, placeAt } from '../../spec/document/schema-bounds.js';
import { fail } from '../kit/assert.js';
import type { CaseContext, CaseDef, Encoding } from '../kit/types.js';
import { serializeDocument } from '../kit/workspace.js';
import {
  answered,
  type BoundGroup,
  type BoundValue,
  boundGroups,
  KEYWORD_SLUGS,
  LISTED_WRONG,
  RECORDED_WRONG,
  valueLabel,
} from '../support/bound-values.js';
import { briefIssues, GENERATED_ENCODINGS, issuesCause, profileFileName, requireObservable, workingEncoding } from '../support/index.js';
import { APPROVED } from './support/apply.js';
import { APPLY_NOW, profile } from './support/builders.js';
import { clone, isObject } from './support/common.js';
import { fingerprint, untouched } from './support/profile-io.js';

const SUBJECT = 'grammar-bounds';
const AGENT_NAME = /^[a-z0-9](?:[a-z0-9._-]{0,62}[a-z0-9])?$/;

/** The operation every delta carries (and `maxItems` repeats): it applies to every profile the case writes. */
const operation = (n = 0): Record<string, unknown> => ({ op: 'replace', path: '/state/summary', value: `applied ${n}` });

function baseDelta(): Record<string, unknown> {
  return {
    oap: '1.0',
    kind: 'AgentStateDelta',
    target: { name: SUBJECT, revision: 1 },
    session: { id: SUBJECT },
    operations: [operation()],
  };
}

function deltaOf(v: BoundValue): Record<string, unknown> {
  if (v.bound.pointer === '/operations' && Array.isArray(v.value))
    return { ...baseDelta(), operations: v.value.map((_, i) => operation(i)) };
  return placeAt('delta', v.bound.pointer, clone(v.value), baseDelta());
}

/** A profile the delta targets: its name and revision where they are legal, state with a summary to replace. */
function profileFor(delta: Record<string, unknown>): Record<string, unknown> {
  const target = isObject(delta['target']) ? delta['target'] : {};
  const name = typeof target['name'] === 'string' && AGENT_NAME.test(target['name']) ? target['name'] : SUBJECT;
  const revision = Number.isInteger(target['revision']) && (target['revision'] as number) >= 1 ? (target['revision'] as number) : 1;
  // `propose`, approved: the operations apply, proposals stay pending (an `auto` profile would ask L2-A7 as well).
  return profile(name, { revision, writeback: 'propose', state: { summary: 'grammar bounds' } });
}

/** Inside these a delta is not applied by design (the module comment); `const`'s one value is the base delta's own `kind`. */
const judgedInside = (b: BoundPlace): boolean =>
  b.keyword !== 'const' && b.pointer !== '/target/digest' && !b.pointer.startsWith('/operations/*/path');

interface Answer {
  outcome: string;
  errors: AdapterIssueT[];
  written: boolean;
}

/** Write a fresh copy of the delta's profile and apply the delta to it with approval. */
async function apply(ctx: CaseContext, delta: Record<string, unknown>, profileText: string, encoding: Encoding): Promise<Answer> {
  mkdirSync(`${ctx.workspace.dir}/bounds`, { recursive: true });
  const path = `${ctx.workspace.dir}/bounds/${profileFileName(SUBJECT, encoding)}`;
  writeFileSync(path, profileText);
  const before = fingerprint(path);
  // Hundreds of deltas go through one file; only the wrongly answered ones are recorded as inputs.
  const answer = await answered(
    ctx.adapter.call('apply_delta', { profile_path: path, delta, approval: APPROVED, actor: 'oap-conform-bounds', now: APPLY_NOW }),
  );
  const written = !untouched(before, fingerprint(path));
  if (!answer.ok) return { outcome: `protocol error: ${answer.protocolError}`, errors: [], written };
  const { result } = answer;
  return {
    outcome: result.outcome === 'conflict' ? `conflict (${result.conflict_resolution ?? 'unresolved'})` : result.outcome,
    errors: result.errors,
    written,
  };
}

/** The base delta must apply, or no answer about a bound means anything. */
async function control(ctx: CaseContext, encoding: Encoding): Promise<void> {
  const delta = baseDelta();
  const a = await apply(ctx, delta, serializeDocument(profileFor(delta), encoding), encoding);
  requireObservable(
    a.outcome === 'applied',
    `the base delta every bound delta starts from was not applied (outcome ${a.outcome}), so no answer says anything about a bound`,
    issuesCause(`base delta ${a.outcome}`, a.errors),
  );
}

/** The deltas of a group, with their profiles written once per run and encoding (a sweep runs a case for every mutant). */
function submissions(group: BoundGroup): (encoding: Encoding) => Array<{ v: BoundValue; delta: Record<string, unknown>; profile: string }> {
  const written = new Map<Encoding, Array<{ v: BoundValue; delta: Record<string, unknown>; profile: string }>>();
  return (encoding) => {
    let list = written.get(encoding);
    if (list === undefined) {
      const control = baseDelta();
      list = group.values().flatMap((v) => {
        const delta = deltaOf(v);
        // A value the base delta already holds (`oap: "1.0"`, `op: replace`, revision 1) is the control's delta.
        return isDeepStrictEqual(delta, control) ? [] : [{ v, delta, profile: serializeDocument(profileFor(delta), encoding) }];
      });
      written.set(encoding, list);
    }
    return list;
  };
}

function boundCase(group: BoundGroup, accept: boolean): CaseDef {
  const { keyword } = group;
  const deltas = submissions(group);
  return {
    id: `L2-A1/delta-bounds-${KEYWORD_SLUGS[keyword]}-${accept ? 'inside-applied' : 'outside-refused'}`,
    requirements: ['L2-A1'],
    clauses: ['L2-A1.validated-first'],
    title: accept
      ? `Deltas just inside every ${keyword} bound of the delta schema are applied`
      : `Deltas just outside a ${keyword} bound of the delta schema are refused before anything is written`,
    expectation: { bounds: group.bounds.map((b) => b.id), outcome: accept ? 'applied' : 'rejected, file untouched' },
    async run(ctx) {
      const encoding = workingEncoding(ctx.handshake, GENERATED_ENCODINGS);
      await control(ctx, encoding);
      const list = deltas(encoding);
      const wrong: Array<{ bound: string; value: string; why: string; observed: unknown }> = [];
      for (const { v, delta, profile } of list) {
        const a = await apply(ctx, delta, profile, encoding);
        const refused = !a.written && (a.outcome === 'rejected' || a.outcome === 'conflict (rejected)');
        if (accept ? a.outcome === 'applied' : refused) continue;
        if (wrong.length < RECORDED_WRONG) ctx.input(`delta at ${v.bound.id} = ${valueLabel(v.value)}`, delta);
        wrong.push({
          bound: v.bound.id,
          value: valueLabel(v.value),
          why: v.why,
          observed: { ...a, errors: briefIssues(a.errors.slice(0, 3)) },
        });
      }
      ctx.note('deltas', { encoding, submitted: list.length });
      if (wrong.length > 0) {
        fail(
          `${wrong.length} of ${list.length} deltas ${accept ? 'just inside their bound were not applied' : 'just outside their bound were not refused'}`,
          accept ? { outcome: 'applied' } : { outcome: 'rejected', written: false },
          wrong.slice(0, LISTED_WRONG),
        );
      }
    },
  };
}

export const deltaBoundCases: CaseDef[] = [
  ...boundGroups('delta', 'inside', judgedInside).map((group) => boundCase(group, true)),
  ...boundGroups('delta', 'outside').map((group) => boundCase(group, false)),
];

/**
 * L2-A3, A5, A9, A10, A11: conflicts, all-or-nothing operations, retention, revision bookkeeping
 * and history. Each case judges its own requirement from the file and conditions on what it
 * observes for the others (e.g. the history entry is compared with the revision actually written).
 */
import {
  DEFAULT_MAX_HISTORY,
  expiredKept,
  pinnedLost,
  retainFacts,
  retainThreads,
  retentionOf,
  trimHistory,
  valueAt,
  withinCap,
} from '../../spec/semantics/index.js';
import { expectEqual, expectTrue, fail } from '../kit/assert.js';
import type { CaseContext, CaseDef } from '../kit/types.js';
import { APPLY_NOW, addFact, datedFacts, delta, entry, profile, type Entry } from './support/builders.js';
import { APPROVED, ACTOR, applyTo, categories, collection, findEntry, revisionOf, type Applied, expectOutcome } from './support/apply.js';
import { isObject, jcsEqual, sameInstant, fixtureDoc } from './support/common.js';
import { mustReadProfile, untouched } from './support/profile-io.js';
import { inconclusive, deltaRefusalCause } from '../support/index.js';

function expectUntouched(a: Applied, what: string): void {
  expectTrue(untouched(a.before, a.after), `${what}: the profile file was written`, {
    expected: { sha256: a.before.sha256, ino: a.before.ino },
    observed: { sha256: a.after.sha256, ino: a.after.ino },
  });
}

/** Parsed profile after a write the case needs; an invalid file is another requirement's finding. */
function post(a: Applied, what: string): Record<string, unknown> {
  return mustReadProfile(a.path, false, what);
}

/** Apply a simple, valid delta first; cases that judge a refusal need to know the adapter can apply. */
async function controlApplies(ctx: CaseContext, what: string): Promise<void> {
  const c = await applyTo(
    ctx,
    fixtureDoc('l2-apply/base-rev4'),
    delta('l2-apply', [addFact(entry('fact-control', 'A valid delta applies.'))], { revision: 4 }),
    {
      dir: `${ctx.workspace.dir}/control`,
      role: 'control',
    },
  );
  if (!(c.result.outcome === 'applied' && c.read.ok && findEntry(c.read.doc, 'facts', 'fact-control'))) {
    inconclusive(
      `${what}: a valid control delta was not applied (outcome ${c.result.outcome})`,
      deltaRefusalCause('control delta', c.result),
    );
  }
}

// ------------------------------------------------------------------------------------------ A3

/**
 * Judge a stale delta: it must be reported as a conflict, and the file must show the resolution:
 * rejected/queued → untouched; rebased → every revision-4 entry intact plus the delta's effect.
 */
function judgeConflict(a: Applied, rebaseAllowed: boolean, effect: (doc: Record<string, unknown>) => boolean): void {
  const r = a.result;
  expectOutcome(a, 'conflict', 'outcome for a delta against another revision');
  const resolution = r.conflict_resolution;
  expectTrue(resolution !== undefined, 'a conflict without conflict_resolution', {
    expected: ['rebased', 'queued', 'rejected'],
    observed: resolution,
  });
  if (resolution === 'rebased') {
    if (!rebaseAllowed)
      fail(
        'index-addressed operations were rebased onto a revision where the indices mean other entries',
        ['queued', 'rejected'],
        resolution,
      );
    const doc = post(a, 'after a rebase');
    const preFacts = (a.pre.state as Record<string, unknown>).facts as Array<Record<string, unknown>>;
    const lost = preFacts.filter((f) => !jcsEqual(findEntry(doc, 'facts', String(f.id)) ?? null, f)).map((f) => f.id);
    expectEqual(lost, [], 'revision-4 entries lost or changed by the rebase');
    expectTrue(effect(doc), 'reported rebased, but the delta is not on disk');
    expectTrue((revisionOf(doc) ?? 0) > (revisionOf(a.pre) ?? 0), 'reported rebased, but the revision did not advance', {
      observed: revisionOf(doc),
    });
  } else {
    expectUntouched(a, `conflict resolved as ${resolution}`);
    if (resolution === 'rejected')
      expectTrue(categories(r.errors).length > 0, 'a rejected conflict with no error reported', { observed: r.errors.length });
  }
}

const a3Append: CaseDef = {
  id: 'L2-A3/stale-revision-append-not-blind-written',
  requirements: ['L2-A3'],
  clauses: ['L2-A3.detect', 'L2-A3.no-blind-write', 'L2-A3.resolution'],
  title: 'Behavioural test 8: a revision-3 delta on a revision-4 profile is a conflict; a rebase keeps all of revision 4',
  fixtures: ['l2-apply/conflict-rev4', 'l2-apply/conflict-rev3-append'],
  expectation: { outcome: 'conflict', rebased: 'revision 4 entries intact + fact-from-rev3', queuedOrRejected: 'file untouched' },
  async run(ctx) {
    const a = await applyTo(ctx, fixtureDoc('l2-apply/conflict-rev4'), fixtureDoc('l2-apply/conflict-rev3-append'));
    judgeConflict(a, true, (doc) => findEntry(doc, 'facts', 'fact-from-rev3') !== undefined);
    ctx.note('conflict_resolution', a.result.conflict_resolution);
  },
};

const a3Index: CaseDef = {
  id: 'L2-A3/stale-revision-index-ops-not-rebased',
  requirements: ['L2-A3'],
  clauses: ['L2-A3.no-blind-write', 'L2-A3.resolution'],
  title: 'A revision-3 delta replacing /state/facts/0 is not applied to revision 4 (index 0 is another entry there)',
  fixtures: ['l2-apply/conflict-rev4', 'l2-apply/conflict-rev3-index'],
  expectation: { outcome: 'conflict', resolution: ['queued', 'rejected'], file: 'untouched' },
  async run(ctx) {
    const a = await applyTo(ctx, fixtureDoc('l2-apply/conflict-rev4'), fixtureDoc('l2-apply/conflict-rev3-index'));
    judgeConflict(a, false, () => false);
  },
};

const a3Future: CaseDef = {
  id: 'L2-A3/future-revision-not-blind-written',
  requirements: ['L2-A3'],
  clauses: ['L2-A3.detect', 'L2-A3.no-blind-write'],
  title: 'A delta naming revision 9 applied to a revision-4 profile is a conflict, not a write',
  fixtures: ['l2-apply/conflict-rev4'],
  expectation: { outcome: 'conflict', rebased: 'revision 4 entries intact', queuedOrRejected: 'file untouched' },
  async run(ctx) {
    const d = delta('l2-conflict', [addFact(entry('fact-from-future', 'Written against a revision that does not exist yet.'))], {
      revision: 9,
    });
    const a = await applyTo(ctx, fixtureDoc('l2-apply/conflict-rev4'), d);
    judgeConflict(a, true, (doc) => findEntry(doc, 'facts', 'fact-from-future') !== undefined);
  },
};

// ------------------------------------------------------------------------------------------ A5

interface AtomicVariant {
  name: string;
  second: Record<string, unknown>;
  patch?: (doc: Record<string, unknown>) => void;
}

const ATOMIC_VARIANTS: AtomicVariant[] = [
  { name: 'replace-missing-index', second: { op: 'replace', path: '/state/facts/9/text', value: 'No tenth fact.' } },
  { name: 'replace-absent-member', second: { op: 'replace', path: '/state/summary', value: 'There is no summary to replace.' } },
  { name: 'add-past-array-end', second: { op: 'add', path: '/state/open_threads/7', value: { id: 'thread-far', title: 'Too far.' } } },
  {
    name: 'replace-in-absent-collection',
    second: { op: 'replace', path: '/state/preferences/0/text', value: 'No preferences exist.' },
    patch: (d) => delete (d.state as Record<string, unknown>).preferences,
  },
  // Issue 14: the array boundaries (three facts after the first operation) and an `id:` target
  // that does not exist. Each value is a valid entry, so only the operation itself can fail.
  { name: 'replace-at-array-length', second: { op: 'replace', path: '/state/facts/3', value: entry('fact-past', 'No fourth fact.') } },
  { name: 'add-one-past-array-end', second: { op: 'add', path: '/state/facts/4', value: entry('fact-far', 'One past the end.') } },
  {
    name: 'replace-missing-id-entry',
    second: { op: 'replace', path: '/state/facts/id:fact-nope', value: entry('fact-nope', 'No such entry to replace.') },
  },
];

/**
 * Operation sequences whose full result the profile schema refuses (`state` is
 * `additionalProperties: false`, collections are arrays, entries need `text`). Applying them can
 * only write an invalid profile or part of the delta, so nothing may be written.
 */
const INVALID_RESULTS: Array<{ name: string; op: Record<string, unknown> }> = [
  { name: 'open-threads-object', op: { op: 'add', path: '/state/open_threads', value: {} } },
  { name: 'dotdot-member', op: { op: 'add', path: '/state/..', value: { spec: { tools: { allow: ['shell'] } } } } },
  { name: 'fact-without-text', op: { op: 'add', path: '/state/facts/-', value: { id: 'fact-no-text' } } },
];

const a5Valid: CaseDef = {
  id: 'L2-A5/applied-profile-always-validates',
  requirements: ['L2-A5'],
  clauses: ['L2-A5.atomic'],
  title:
    'A delta whose result would not validate (open_threads as an object, a member named .. in state, a fact without text) writes nothing',
  fixtures: ['l2-apply/base-rev4'],
  expectation: { perVariant: { outcome: 'not applied', file: 'untouched' }, variants: INVALID_RESULTS.map((v) => v.name) },
  async run(ctx) {
    await controlApplies(ctx, 'A5');
    const written: Array<{ variant: string; outcome: string; fileValid: boolean }> = [];
    for (const v of INVALID_RESULTS) {
      const d = delta('l2-apply', [addFact(entry('fact-first', 'The first operation.')), v.op], { revision: 4 });
      const a = await applyTo(ctx, fixtureDoc('l2-apply/base-rev4'), d, { dir: `${ctx.workspace.dir}/${v.name}` });
      if (a.result.outcome === 'applied' || !untouched(a.before, a.after))
        written.push({ variant: v.name, outcome: a.result.outcome, fileValid: a.read.ok });
    }
    expectEqual(written, [], 'deltas with a schema-invalid result that were applied or written');
  },
};

const a5Fixture: CaseDef = {
  id: 'L2-A5/second-operation-fails-nothing-written',
  requirements: ['L2-A5'],
  clauses: ['L2-A5.atomic'],
  title: 'Behavioural test 7: when operation 2 fails, operation 1 is not persisted and the file stays valid at the old revision',
  fixtures: ['l2-apply/base-rev4', 'l2-apply/atomicity-second-op-fails'],
  expectation: { outcome: 'rejected', file: 'untouched' },
  async run(ctx) {
    await controlApplies(ctx, 'A5');
    const a = await applyTo(ctx, fixtureDoc('l2-apply/base-rev4'), fixtureDoc('l2-apply/atomicity-second-op-fails'));
    expectTrue(a.result.outcome !== 'applied', 'a delta with a failing operation was reported applied', { observed: a.result.outcome });
    expectUntouched(a, 'failing second operation');
  },
};

function a5Variant(v: AtomicVariant): CaseDef {
  return {
    id: `L2-A5/failing-operation-${v.name}-nothing-written`,
    requirements: ['L2-A5'],
    clauses: ['L2-A5.atomic'],
    title: `A delta whose last operation fails (${v.name.replace(/-/g, ' ')}) leaves the file untouched`,
    fixtures: ['l2-apply/base-rev4'],
    expectation: { outcome: 'not applied', file: 'untouched' },
    async run(ctx) {
      await controlApplies(ctx, 'A5');
      const pre = fixtureDoc('l2-apply/base-rev4');
      v.patch?.(pre);
      const d = delta(
        'l2-apply',
        [
          addFact(entry('fact-first', 'The first operation.')),
          { op: 'replace', path: '/state/facts/0/text', value: 'The second operation.' },
          v.second,
        ],
        { revision: 4 },
      );
      const a = await applyTo(ctx, pre, d);
      expectTrue(a.result.outcome !== 'applied', 'a delta with a failing operation was reported applied', { observed: a.result.outcome });
      expectUntouched(a, `failing operation (${v.name})`);
    },
  };
}

// ------------------------------------------------------------------------------------------ A9

function factsAfter(a: Applied): Array<Record<string, unknown>> {
  const doc = post(a, 'after a retention write');
  const f = (doc.state as Record<string, unknown> | undefined)?.facts;
  return Array.isArray(f) ? f.filter(isObject) : [];
}

/** The facts retention keeps after `delta`'s appends to `pre` at `now` (the spec model's answer). */
function retainedFacts(pre: Record<string, unknown>, delta: Record<string, unknown>, now: string): string[] {
  const before = collection(pre, 'facts');
  const appended = (delta.operations as Array<Record<string, unknown>>)
    .filter((o) => o.op === 'add' && o.path === '/state/facts/-')
    .map((o) => o.value as Record<string, unknown>);
  return retainFacts([...before, ...appended], retentionOf(pre.spec), now).map((f) => String(f.id));
}

function expectApplied(a: Applied, what: string): void {
  if (a.result.outcome !== 'applied')
    inconclusive(
      `${what}: the delta was not applied (outcome ${a.result.outcome}), so retention at write time cannot be observed`,
      deltaRefusalCause('delta', a.result),
    );
}

const a9Pinned: CaseDef = {
  id: 'L2-A9/max-facts-pinned-oldest-survives',
  requirements: ['L2-A9'],
  clauses: ['L2-A9.caps', 'L2-A9.eviction', 'L2-A9.pinned'],
  title: 'Behavioural test 10: max_facts is honoured at write time and the pinned oldest fact survives',
  fixtures: ['l2-apply/retention-pinned', 'l2-apply/retention-pinned-delta'],
  expectation: { facts: ['fact-0-pinned', 'fact-4', 'fact-5', 'fact-6', 'fact-7'] },
  async run(ctx) {
    const pre = fixtureDoc('l2-apply/retention-pinned');
    const d = fixtureDoc('l2-apply/retention-pinned-delta');
    const a = await applyTo(ctx, pre, d);
    expectApplied(a, 'behavioural test 10');
    const after = factsAfter(a);
    const got = after.map((f) => String(f.id));
    const cap = retentionOf(pre.spec).max_facts;
    expectEqual(pinnedLost(collection(pre, 'facts'), after), [], 'pinned facts evicted');
    expectTrue(withinCap(got.length, cap), `max_facts (${cap}) exceeded after the write`, { expected: `<= ${cap}`, observed: got.length });
    expectEqual([...got].sort(), retainedFacts(pre, d, APPLY_NOW).sort(), 'facts kept under eviction oldest');
  },
};

function a9Strategy(strategy: 'least_confident' | 'least_recently_used'): CaseDef {
  return {
    id: `L2-A9/max-facts-evicts-${strategy.replace(/_/g, '-')}`,
    requirements: ['L2-A9'],
    clauses: ['L2-A9.caps', 'L2-A9.eviction'],
    title: `max_facts evicts the ${strategy === 'least_confident' ? 'least confident' : 'least recently used'} unpinned facts at write time`,
    expectation: { kept: 'pinned + the 3 highest-ranked of the others', count: 4 },
    async run(ctx) {
      // Age, confidence and recency disagree, so evicting by the wrong key keeps the wrong facts.
      const facts: Entry[] = datedFacts('ret', 6).map((f, i) => ({
        ...f,
        confidence: [0.9, 0.2, 0.7, 0.4, 0.95, 0.1][i]!,
        last_used_at: `${['2029-06-01', '2029-01-01', '2029-09-01', '2029-03-01', '2029-02-01', '2029-12-01'][i]!}T00:00:00Z`,
      }));
      const low = strategy === 'least_confident' ? 'ret-5' : 'ret-1';
      facts.find((f) => f.id === low)!.pinned = true;
      const doc = profile('l2-retention-strategy', {
        revision: 3,
        retention: { max_facts: 4, eviction: strategy },
        state: { facts: facts.slice(0, 5) },
      });
      const d = delta('l2-retention-strategy', [addFact(facts[5]!)], { revision: 3 });
      const a = await applyTo(ctx, doc, d);
      expectApplied(a, strategy);
      const got = factsAfter(a)
        .map((f) => String(f.id))
        .sort();
      expectEqual(got, retainedFacts(doc, d, APPLY_NOW).sort(), `facts kept under eviction ${strategy}`);
    },
  };
}

const a9Ttl: CaseDef = {
  id: 'L2-A9/fact-ttl-relative-to-apply-time',
  requirements: ['L2-A9'],
  clauses: ['L2-A9.ttl', 'L2-A9.pinned'],
  title: 'fact_ttl_days drops unpinned facts older than the TTL at the apply time (now), keeps younger and pinned ones',
  expectation: { now: '2030-06-30T00:00:00Z', ttlDays: 30, kept: ['fact-young', 'fact-pinned-old', 'fact-new'] },
  async run(ctx) {
    const now = '2030-06-30T00:00:00Z';
    const facts = [
      entry('fact-old', 'Learned long before the TTL.', { learned_at: '2030-04-01T00:00:00Z', last_used_at: '2030-04-01T00:00:00Z' }),
      entry('fact-young', 'Learned within the TTL.', { learned_at: '2030-06-20T00:00:00Z', last_used_at: '2030-06-20T00:00:00Z' }),
      entry('fact-pinned-old', 'Old but pinned.', {
        learned_at: '2029-01-01T00:00:00Z',
        last_used_at: '2029-01-01T00:00:00Z',
        pinned: true,
      }),
    ];
    const doc = profile('l2-retention-ttl', { revision: 2, retention: { fact_ttl_days: 30 }, state: { facts } });
    const d = delta('l2-retention-ttl', [addFact(entry('fact-new', 'Learned today.', { learned_at: now, last_used_at: now }))], {
      revision: 2,
    });
    const a = await applyTo(ctx, doc, d, { now });
    expectApplied(a, 'fact_ttl_days');
    expectEqual(
      factsAfter(a)
        .map((f) => String(f.id))
        .sort(),
      retainedFacts(doc, d, now).sort(),
      'facts kept under fact_ttl_days 30',
    );
  },
};

const a9Threads: CaseDef = {
  id: 'L2-A9/max-open-threads-honoured',
  requirements: ['L2-A9'],
  clauses: ['L2-A9.caps'],
  title: 'max_open_threads caps open_threads at write time',
  expectation: { open_threads: '<= 2', kept: 'thread-live-new' },
  async run(ctx) {
    const threads = [
      { id: 'thread-1', title: 'First thread.', status: 'open', opened_at: '2029-01-01T00:00:00Z', updated_at: '2029-01-01T00:00:00Z' },
      { id: 'thread-2', title: 'Second thread.', status: 'open', opened_at: '2029-02-01T00:00:00Z', updated_at: '2029-02-01T00:00:00Z' },
    ];
    const doc = profile('l2-retention-threads', {
      revision: 2,
      retention: { max_open_threads: 2, eviction: 'oldest' },
      state: { open_threads: threads },
    });
    const add = {
      op: 'add',
      path: '/state/open_threads/-',
      value: {
        id: 'thread-live-new',
        title: 'Newest thread.',
        status: 'open',
        opened_at: '2030-01-01T00:00:00Z',
        updated_at: '2030-01-01T00:00:00Z',
      },
    };
    const a = await applyTo(ctx, doc, delta('l2-retention-threads', [add], { revision: 2 }));
    expectApplied(a, 'max_open_threads');
    const got = (valueAt(post(a, 'after max_open_threads'), '/state/open_threads') as Array<Record<string, unknown>> | undefined) ?? [];
    const retention = retentionOf(doc.spec);
    expectTrue(withinCap(got.length, retention.max_open_threads), 'max_open_threads (2) exceeded after the write', {
      expected: '<= 2',
      observed: got.map((t) => t.id),
    });
    // Under `oldest` the newest thread is never the victim (the spec model agrees); which older one goes is not judged.
    if (!retainThreads([...threads, add.value], retention).some((t) => t.id === 'thread-live-new'))
      throw new Error('suite bug: retention would evict the newest thread');
    expectTrue(
      got.some((t) => t.id === 'thread-live-new'),
      'the newest thread was evicted under eviction oldest',
      { observed: got.map((t) => t.id) },
    );
  },
};

/**
 * Retention with the smallest delta a harness can accept: entries carrying only `id` and `text`
 * (no timestamps, confidence or pin), appended with `-`. What is judged holds under every eviction
 * strategy: the cap, the TTL of the existing facts, the pinned entries.
 */
function minimalAdd(id: string, text: string): Record<string, unknown> {
  return { op: 'add', path: '/state/facts/-', value: { id, text } };
}

const a9MaxFactsOne: CaseDef = {
  id: 'L2-A9/max-facts-1-minimal-delta',
  requirements: ['L2-A9'],
  clauses: ['L2-A9.caps'],
  title: 'max_facts: 1 holds after a minimal delta (entries with only id and text) adds a second fact',
  expectation: { facts: '<= 1' },
  async run(ctx) {
    const doc = profile('l2-retention-one', {
      revision: 2,
      retention: { max_facts: 1 },
      state: { facts: [{ id: 'fact-a', text: 'The first fact this agent learned.' }] },
    });
    const a = await applyTo(ctx, doc, delta('l2-retention-one', [minimalAdd('fact-b', 'The second fact.')], { revision: 2 }));
    expectApplied(a, 'max_facts 1');
    const got = factsAfter(a).map((f) => String(f.id));
    expectTrue(withinCap(got.length, 1), 'max_facts (1) exceeded after the write', { expected: '<= 1', observed: got });
  },
};

const a9TtlMinimal: CaseDef = {
  id: 'L2-A9/fact-ttl-days-minimal-delta',
  requirements: ['L2-A9'],
  clauses: ['L2-A9.ttl'],
  title: 'fact_ttl_days (with no expires_at anywhere) drops an expired fact at write time, after a minimal delta',
  expectation: { now: '2030-06-30T00:00:00Z', ttlDays: 30, dropped: ['fact-expired'], kept: ['fact-fresh', 'fact-new'] },
  async run(ctx) {
    const now = '2030-06-30T00:00:00Z';
    const facts = [
      entry('fact-expired', 'Learned ninety days before the write.', { learned_at: '2030-04-01T00:00:00Z' }),
      entry('fact-fresh', 'Learned ten days before the write.', { learned_at: '2030-06-20T00:00:00Z' }),
    ];
    const doc = profile('l2-retention-ttl-min', { revision: 2, retention: { fact_ttl_days: 30 }, state: { facts } });
    const d = delta('l2-retention-ttl-min', [minimalAdd('fact-new', 'Learned in this session.')], { revision: 2 });
    const a = await applyTo(ctx, doc, d, { now });
    expectApplied(a, 'fact_ttl_days');
    const got = factsAfter(a).map((f) => String(f.id));
    expectEqual(
      expiredKept(factsAfter(a), retentionOf(doc.spec), now),
      [],
      'facts older than fact_ttl_days (30) still present after the write',
    );
    expectEqual([...got].sort(), ['fact-fresh', 'fact-new'], 'facts kept under fact_ttl_days 30');
  },
};

const a9ZeroCaps: CaseDef = {
  id: 'L2-A9/zero-caps-keep-only-pinned',
  requirements: ['L2-A9'],
  clauses: ['L2-A9.caps', 'L2-A9.pinned'],
  title: 'max_facts: 0 and max_open_threads: 0 keep no entry at write time but the pinned fact (0 is a cap, not "unlimited")',
  expectation: { facts: ['fact-pinned'], open_threads: [] },
  async run(ctx) {
    const doc = profile('l2-retention-zero', {
      revision: 2,
      retention: { max_facts: 0, max_open_threads: 0 },
      state: {
        facts: [
          entry('fact-pinned', 'A pinned fact survives every cap.', { pinned: true }),
          entry('fact-loose', 'An unpinned fact under a cap of zero.'),
        ],
        open_threads: [{ id: 'thread-a', title: 'A thread under a cap of zero.', status: 'open' }],
      },
    });
    const a = await applyTo(ctx, doc, delta('l2-retention-zero', [minimalAdd('fact-new', 'Learned in this session.')], { revision: 2 }));
    expectApplied(a, 'zero retention caps');
    const after = factsAfter(a);
    expectEqual(pinnedLost(collection(doc, 'facts'), after), [], 'pinned facts evicted');
    expectEqual(
      after.map((f) => String(f.id)),
      ['fact-pinned'],
      'facts kept under max_facts 0',
    );
    expectEqual(
      collection(post(a, 'after zero caps'), 'open_threads').map((t) => String(t.id)),
      [],
      'open threads kept under max_open_threads 0',
    );
  },
};

// ------------------------------------------------------------------------------------------ A10

/** Apply a delta of two new facts to a profile at `startRevision` (absent: the default 1); the written document. */
async function applyTwoFacts(ctx: CaseContext, startRevision: number | undefined): Promise<{ a: Applied; d: Record<string, unknown> }> {
  const doc = profile('l2-revision', {
    updatedAt: '2030-01-01T00:00:00Z',
    state: { updated_at: '2030-01-01T00:00:00Z', facts: [entry('fact-a', 'An existing fact.')] },
    ...(startRevision === undefined ? {} : { revision: startRevision }),
  });
  if (startRevision === undefined) delete (doc.metadata as Record<string, unknown>).revision;
  const ops = [addFact(entry('fact-b', 'A new fact.')), addFact(entry('fact-c', 'Another new fact.'))];
  const a = await applyTo(ctx, doc, delta('l2-revision', ops, { revision: startRevision ?? 1 }));
  // A conflict resolved by rebasing is written too, and its revision is still the profile's plus one: an
  // absent revision is 1 (SPEC §2.2), so a harness reading it as 0 rebases these appends and writes revision 1.
  const rebased = a.result.outcome === 'conflict' && a.result.conflict_resolution === 'rebased';
  if (a.result.outcome !== 'applied' && !rebased)
    inconclusive(`the delta was not applied (outcome ${a.result.outcome})`, deltaRefusalCause('delta', a.result));
  return { a, d: post(a, 'after an applied delta') };
}

/** One revision step per written change, whatever the number of operations (L2-A10.revision). */
function a10Revision(startRevision: number | undefined): CaseDef {
  const label = startRevision === undefined ? 'absent' : String(startRevision);
  const expected = (startRevision ?? 1) + 1;
  return {
    id: `L2-A10/revision-${label}-to-${expected}`,
    requirements: ['L2-A10'],
    clauses: ['L2-A10.revision'],
    about: ['optional-metadata'],
    title: `A delta of two operations moves metadata.revision from ${label === 'absent' ? 'absent (1)' : label} to ${expected}`,
    expectation: { revision: expected },
    async run(ctx) {
      const { a, d } = await applyTwoFacts(ctx, startRevision);
      expectEqual(valueAt(d, '/metadata/revision'), expected, 'metadata.revision');
      expectEqual(a.result.revision, expected, 'apply_delta result revision');
    },
  };
}

/** The apply time stamped on the written profile (L2-A10.metadata-updated-at, L2-A10.state-updated-at). */
function a10Timestamp(at: '/metadata/updated_at' | '/state/updated_at'): CaseDef {
  const field = at.slice(1).replace('/', '.');
  return {
    id: `L2-A10/${field.replace(/[._]/g, '-')}-set`,
    requirements: ['L2-A10'],
    clauses: [at === '/metadata/updated_at' ? 'L2-A10.metadata-updated-at' : 'L2-A10.state-updated-at'],
    title: `An applied delta sets ${field} to the apply time`,
    expectation: { [field]: APPLY_NOW },
    async run(ctx) {
      const { d } = await applyTwoFacts(ctx, 4);
      expectTrue(sameInstant(valueAt(d, at), APPLY_NOW), `${field} is not the apply time`, {
        expected: APPLY_NOW,
        observed: valueAt(d, at),
      });
    },
  };
}

// ------------------------------------------------------------------------------------------ A11

function history(doc: Record<string, unknown>): Array<Record<string, unknown>> {
  return Array.isArray(doc.history) ? doc.history.filter(isObject) : [];
}

function oldHistory(n: number): Array<Record<string, unknown>> {
  const day = Date.parse('2029-01-01T00:00:00Z');
  return Array.from({ length: n }, (_, i) => ({
    revision: i + 1,
    at: new Date(day + i * 86_400_000).toISOString().replace('.000Z', 'Z'),
    by: 'earlier-harness',
    sections: ['state'],
  }));
}

interface HistoryVariant {
  name: string;
  existing: number;
  maxHistory: number | undefined;
  writeback: 'propose' | 'auto';
}

function a11(v: HistoryVariant): CaseDef {
  const cap = v.maxHistory ?? DEFAULT_MAX_HISTORY;
  return {
    id: `L2-A11/history-${v.name}`,
    requirements: ['L2-A11'],
    clauses: ['L2-A11.append', 'L2-A11.trim'],
    title: `History gets an entry (revision, at, by, session_id, sections${v.writeback === 'propose' ? ', approved_by' : ''}) and is trimmed oldest-first to ${v.maxHistory === undefined ? 'the default 50' : v.maxHistory}`,
    expectation: {
      appended: {
        at: APPLY_NOW,
        by: `an actor: ${ACTOR}, the session id or another identity`,
        session_id: 'sess-history',
        sections: 'includes state',
      },
      length: trimHistory(oldHistory(v.existing + 1), cap).length,
      keptOldest: 'the newest existing entries',
    },
    async run(ctx) {
      const start = v.existing + 1;
      const doc = profile('l2-history', {
        revision: start,
        writeback: v.writeback,
        history: oldHistory(v.existing),
        state: { facts: [entry('fact-a', 'An existing fact.')] },
        ...(v.maxHistory === undefined ? {} : { retention: { max_history: v.maxHistory } }),
      });
      const a = await applyTo(
        ctx,
        doc,
        delta('l2-history', [addFact(entry('fact-b', 'A new fact.'))], { revision: start, sessionId: 'sess-history' }),
        { approval: APPROVED },
      );
      if (a.result.outcome !== 'applied')
        inconclusive(`the delta was not applied (outcome ${a.result.outcome})`, deltaRefusalCause('delta', a.result));
      const d = post(a, 'after an applied delta');
      const h = history(d);
      const last = h[h.length - 1];
      if (!last) fail('no history entry after an applied delta', 'one appended entry', h);
      // Compare with the revision actually written (A10 judges the increment itself).
      expectEqual(last.revision, valueAt(d, '/metadata/revision'), 'history entry revision vs metadata.revision');
      expectTrue(sameInstant(last.at, APPLY_NOW), 'history entry `at` is not the apply time', { expected: APPLY_NOW, observed: last.at });
      // The schema describes `by` as "Actor: harness id, session id, or human identity": the actor
      // passed, the session id or any other identity is a recording of the actor; only none is not.
      expectTrue(typeof last.by === 'string' && last.by.trim() !== '', 'history entry `by` does not record an actor', {
        expected: { anyOf: [ACTOR, 'sess-history', 'a harness id or human identity'] },
        observed: last.by,
      });
      ctx.note('history-by', last.by === ACTOR ? 'actor' : last.by === 'sess-history' ? 'session id' : 'other identity');
      expectEqual(last.session_id, 'sess-history', 'history entry session_id');
      const sections = Array.isArray(last.sections) ? last.sections : [];
      expectTrue(sections.includes('state') && !sections.includes('spec'), 'history entry sections', {
        expected: ['state'],
        observed: last.sections,
      });
      if (v.writeback === 'propose') expectEqual(last.approved_by, APPROVED.approver, 'history entry approved_by');
      // Trimming: the newest `cap` entries, oldest dropped first, in order.
      const expectedOld = trimHistory([...oldHistory(v.existing), last], cap).slice(0, -1);
      expectEqual(h.length, trimHistory([...oldHistory(v.existing), last], cap).length, 'history length');
      expectTrue(jcsEqual(h.slice(0, -1), expectedOld), 'history not trimmed oldest-first', {
        expected: expectedOld.map((e) => e.revision),
        observed: h.slice(0, -1).map((e) => e.revision),
      });
    },
  };
}

const a11Zero: CaseDef = {
  id: 'L2-A11/max-history-zero-keeps-none',
  requirements: ['L2-A11'],
  clauses: ['L2-A11.trim'],
  title: 'max_history: 0 trims history to nothing at write time (0 is a limit, not "the default 50")',
  expectation: { history: [] },
  async run(ctx) {
    const doc = profile('l2-history-zero', {
      revision: 3,
      history: oldHistory(2),
      retention: { max_history: 0 },
      state: { facts: [entry('fact-a', 'An existing fact.')] },
    });
    const a = await applyTo(ctx, doc, delta('l2-history-zero', [addFact(entry('fact-b', 'A new fact.'))], { revision: 3 }));
    if (a.result.outcome !== 'applied')
      inconclusive(`the delta was not applied (outcome ${a.result.outcome})`, deltaRefusalCause('delta', a.result));
    expectEqual(
      history(post(a, 'after an applied delta')).map((e) => e.revision),
      [],
      'history entries kept under max_history 0',
    );
  },
};

export const persistCases: CaseDef[] = [
  a3Append,
  a3Index,
  a3Future,
  a5Fixture,
  ...ATOMIC_VARIANTS.map(a5Variant),
  a5Valid,
  a9Pinned,
  a9Strategy('least_confident'),
  a9Strategy('least_recently_used'),
  a9Ttl,
  a9Threads,
  a9MaxFactsOne,
  a9TtlMinimal,
  a9ZeroCaps,
  a10Revision(4),
  a10Revision(undefined),
  a10Timestamp('/metadata/updated_at'),
  a10Timestamp('/state/updated_at'),
  a11({ name: 'propose-approved-trim-to-4', existing: 4, maxHistory: 4, writeback: 'propose' }),
  a11({ name: 'auto-trim-to-1', existing: 2, maxHistory: 1, writeback: 'auto' }),
  a11({ name: 'default-max-50', existing: 50, maxHistory: undefined, writeback: 'auto' }),
  // retention.max_history/schema-maximum: the largest cap the schema admits trims nothing from a history below it.
  a11({ name: 'schema-maximum-keeps-52', existing: 51, maxHistory: 500, writeback: 'auto' }),
  a11Zero,
];

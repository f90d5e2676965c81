import { describe, expect, it } from 'vitest';
import {
  capEntries,
  DEFAULT_EVICTION,
  DEFAULT_MAX_HISTORY,
  expiredKept,
  factEvictionKey,
  factExpired,
  historyByRevision,
  historyOrderBreaks,
  historyRevision,
  pinnedLost,
  retainFacts,
  retainThreads,
  retentionOf,
  trimHistory,
  withinCap,
} from '../../../spec/semantics/index.js';

const fact = (id: string, extra: Record<string, unknown> = {}) => ({ id, text: id, ...extra });
const ids = (xs: Array<{ id: unknown }>) => xs.map((x) => String(x.id));
const NOW = '2030-06-30T00:00:00Z';

describe('defaults (schema; SPEC §3.8, §3.10)', () => {
  it('eviction least_recently_used, history 50', () => {
    expect(DEFAULT_EVICTION).toBe('least_recently_used');
    expect(DEFAULT_MAX_HISTORY).toBe(50);
  });
  it('retentionOf reads spec.lifecycle.retention', () => {
    expect(retentionOf({ lifecycle: { retention: { max_facts: 0, eviction: 'oldest', bogus: 1 } } })).toMatchObject({
      max_facts: 0,
      eviction: 'oldest',
    });
    expect(retentionOf({}).eviction).toBeUndefined();
  });
});

describe('expiry at write time (SPEC §3.8 TTL; INTERPRETATIONS.md, retention)', () => {
  it.each([
    [fact('old', { learned_at: '2030-04-01T00:00:00Z' }), { fact_ttl_days: 30 }, true, 'learned 90 days before now'],
    [fact('young', { learned_at: '2030-06-20T00:00:00Z' }), { fact_ttl_days: 30 }, false, 'within the TTL'],
    [fact('edge', { learned_at: '2030-05-31T00:00:00Z' }), { fact_ttl_days: 30 }, false, 'exactly 30 whole days: kept'],
    [fact('pinned', { learned_at: '2020-01-01T00:00:00Z', pinned: true }), { fact_ttl_days: 30 }, false, 'pinned never expires'],
    [fact('undated'), { fact_ttl_days: 1 }, false, 'no learned_at: no TTL'],
    [fact('own', { expires_at: NOW }), {}, true, 'its own expires_at reached'],
    [fact('later', { expires_at: '2031-01-01T00:00:00Z' }), {}, false, 'expires later'],
  ])('%j under %j expired = %s (%s)', (f, r, want, _why) => expect(factExpired(f, r, NOW)).toBe(want));

  it('expiredKept names facts a judge finds still present', () => {
    expect(expiredKept([fact('a', { expires_at: '2000-01-01T00:00:00Z' }), fact('b')], {}, NOW)).toEqual(['a']);
  });
});

describe('caps and eviction order (SPEC §3.8 caps, pinned exempt; behavioural test 10)', () => {
  const dated = [0, 1, 2, 3, 4, 5, 6, 7].map((i) =>
    fact(i === 0 ? 'fact-0-pinned' : `fact-${i}`, { learned_at: `202${i}-01-01T00:00:00Z`, pinned: i === 0 }),
  );
  it('behavioural test 10: max_facts 5, oldest, the pinned oldest survives', () => {
    expect(ids(retainFacts(dated, { max_facts: 5, eviction: 'oldest' }, NOW))).toEqual([
      'fact-0-pinned',
      'fact-4',
      'fact-5',
      'fact-6',
      'fact-7',
    ]);
  });
  it.each([
    [0, ['fact-0-pinned'], '0 keeps none but the pinned'],
    [1, ['fact-0-pinned'], 'the pinned one fills the cap'],
    [8, ids(dated), 'under the cap: everything'],
  ] as Array<[number, string[], string]>)('max_facts %d keeps %j (%s)', (max, want) =>
    expect(ids(retainFacts(dated, { max_facts: max, eviction: 'oldest' }, NOW))).toEqual(want),
  );

  it.each([
    ['oldest', [1, 2, 3], 'by learned_at'],
    ['least_confident', [3, 2, 1], 'by confidence'],
    ['least_recently_used', [3, 1, 2], 'by last_used_at'],
  ] as const)('%s evicts in order %j (%s)', (eviction, order, _why) => {
    const fs = [
      fact('a', { learned_at: '2021-01-01T00:00:00Z', confidence: 0.9, last_used_at: '2029-03-01T00:00:00Z' }),
      fact('b', { learned_at: '2022-01-01T00:00:00Z', confidence: 0.5, last_used_at: '2029-01-01T00:00:00Z' }),
      fact('c', { learned_at: '2023-01-01T00:00:00Z', confidence: 0.1, last_used_at: '2029-02-01T00:00:00Z' }),
    ];
    const keys = fs.map((f) => factEvictionKey(f, eviction));
    const rankOf = (i: number) => [...keys].sort((x, y) => x - y).indexOf(keys[i]!) + 1;
    expect(fs.map((_, i) => rankOf(i))).toEqual(order);
  });

  it('least_recently_used falls back to learned_at', () => {
    expect(factEvictionKey(fact('x', { learned_at: '2020-01-01T00:00:00Z' }), 'least_recently_used')).toBe(
      Date.parse('2020-01-01T00:00:00Z'),
    );
  });

  it('max_open_threads: closed threads go first, then by age under oldest', () => {
    const threads = [
      { id: 't1', status: 'open', opened_at: '2029-01-01T00:00:00Z' },
      { id: 't2', status: 'done', opened_at: '2029-06-01T00:00:00Z' },
      { id: 't3', status: 'open', opened_at: '2030-01-01T00:00:00Z' },
    ];
    expect(ids(retainThreads(threads, { max_open_threads: 2, eviction: 'oldest' }))).toEqual(['t1', 't3']);
    expect(ids(retainThreads(threads, { max_open_threads: 0 }))).toEqual([]);
  });

  it('capEntries keeps document order and ties by position', () => {
    expect(
      capEntries(
        [3, 1, 2, 1],
        2,
        (x) => x,
        () => false,
      ),
    ).toEqual([3, 2]);
  });

  it.each([
    [5, 5, true],
    [6, 5, false],
    [0, 0, true],
    [100, undefined, true],
  ] as Array<[number, number | undefined, boolean]>)('withinCap(%d, %s) = %s', (n, cap, want) => expect(withinCap(n, cap)).toBe(want));

  it('pinnedLost names pinned entries that disappeared', () => {
    expect(pinnedLost([fact('p', { pinned: true }), fact('q')], [fact('q')])).toEqual(['p']);
  });
});

describe('history trimming (SPEC §3.10 "oldest first"; L2-A11)', () => {
  it.each([
    [[1, 2, 3, 4, 5], 4, [2, 3, 4, 5], 'oldest first'],
    [[1, 2], 1, [2], 'keep the newest'],
    [[1, 2], 0, [], '0 keeps none'],
    [Array.from({ length: 51 }, (_, i) => i), undefined, Array.from({ length: 50 }, (_, i) => i + 1), 'default 50'],
  ] as Array<[number[], number | undefined, number[], string]>)('trimHistory(%j, %s) (%s)', (h, max, want) =>
    expect(trimHistory(h, max)).toEqual(want),
  );
});

describe('history order is revision order (SPEC §3.10 "log of persisted revisions", schema "Newest last", §5.6 steps 8-9)', () => {
  const e = (revision: unknown, at = '2030-01-01T00:00:00Z') => ({ revision, at });
  it.each([
    [e(3), 3],
    [e(0), 0],
    [e(2.5), undefined],
    [e('3'), undefined],
    [{ at: 'x' }, undefined],
    ['not an entry', undefined],
  ] as Array<[unknown, number | undefined]>)('historyRevision(%j) = %s', (entry, want) => expect(historyRevision(entry)).toBe(want));

  it.each([
    [[e(1), e(2), e(5)], [], 'increasing, gaps allowed (trimming, hand edits)'],
    [[e(2), e(2)], [{ index: 1, revision: 2, previous: 2 }], 'one write, one entry: a repeated revision is out of order'],
    [[e(4), e(3)], [{ index: 1, revision: 3, previous: 4 }], 'a lower revision after a higher one'],
    [[e(1), e('x'), e(1)], [{ index: 2, revision: 1, previous: 1 }], 'an entry without a revision is skipped, not a reset'],
    [[e(1, '2030-02-01T00:00:00Z'), e(2, '2030-01-01T00:00:00Z')], [], 'times going backwards are not an order break (clocks differ)'],
    [[], [], 'no history'],
  ] as Array<[unknown[], unknown[], string]>)('historyOrderBreaks(%j) = %j (%s)', (h, want) => expect(historyOrderBreaks(h)).toEqual(want));

  it('historyByRevision orders newest last by revision, not by time; entries without a revision first; ties keep document order', () => {
    const late = e(1, '2031-01-01T00:00:00Z');
    const early = e(2, '2029-01-01T00:00:00Z');
    const tieA = { ...e(3), by: 'a' };
    const tieB = { ...e(3), by: 'b' };
    const none = e(undefined);
    expect(historyByRevision([tieA, early, none, tieB, late])).toEqual([none, late, early, tieA, tieB]);
    expect(historyOrderBreaks(historyByRevision([tieA, early, late]))).toEqual([]);
  });
});

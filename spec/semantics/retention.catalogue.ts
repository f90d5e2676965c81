/**
 * Boundary catalogue of retention at write time (rule: ./retention.ts retainState, trimHistory,
 * factExpired, evictionOrder; SPEC §3.8, §3.10; security.md T9; L2-A9, L2-A11, L2-S4, L3-E1).
 */
import { type Dimension, dimension, sampleRange } from './catalogue-model.js';

const R = '/spec/lifecycle/retention';
const NOW = '2026-03-01T00:00:00Z';
const fact = (id: string, extra: Record<string, unknown> = {}) => ({ id, text: `text of ${id}`, ...extra });

function capDimension(key: 'max_facts' | 'max_open_threads', max: number): Dimension {
  const p = `document:${R}/${key}`;
  const list = key === 'max_facts' ? 'facts' : 'open_threads';
  const [mid] = sampleRange(key === 'max_facts' ? 0x7e01 : 0x7e02, 1, 2, max - 1) as [number];
  return dimension({
    id: `retention.${key}`,
    title: `The ${list} cap at write time`,
    rule: 'spec/semantics/retention.ts retainFacts / retainThreads',
    requirements: ['L2-A9'],
    reads: { document: [`${R}/${key}`, `/state/${list}`, `${R}/eviction`], delta: ['/operations'], base: [`${R}/${key}`] },
    meets: ['delta-document'],
    families: {
      presence: [
        {
          slug: 'absent',
          description: 'no cap',
          values: [{ [p]: undefined }],
          predicts: 'no entry evicted for count',
        },
        {
          slug: 'unkeyed-entries',
          description: 'appended entries with only `id` and `text` (no eviction key)',
          values: [
            {
              [p]: 1,
              'delta:/operations': [
                { op: 'add', path: `/state/${list}/-`, value: key === 'max_facts' ? fact('n1') : { id: 't1', title: 'x' } },
              ],
            },
          ],
          predicts: 'the cap still holds: an entry without the key goes first',
        },
      ],
      numeric: [
        {
          slug: 'zero',
          description: 'a cap of 0',
          values: [{ [p]: 0 }],
          predicts: key === 'max_facts' ? 'only pinned facts remain' : 'no thread remains',
          next: ['one'],
        },
        { slug: 'one', description: 'a cap of 1', values: [{ [p]: 1 }], predicts: 'at most one unpinned entry' },
        {
          slug: 'range',
          description: `a cap inside (seed drawn: ${mid})`,
          values: [{ [p]: mid }],
          predicts: 'at most that many unpinned entries',
        },
        {
          slug: 'schema-maximum',
          description: `the schema maximum ${max}; one past is schema-invalid`,
          values: [{ [p]: max }],
          predicts: 'a cap no realistic state reaches: nothing evicted for count',
        },
      ],
      text: 'caps are integers',
      separators: 'caps are integers',
      wildcards: 'caps are integers',
      escaping: 'caps are integers',
      duplicates: [
        {
          slug: 'pinned-beyond-cap',
          description: key === 'max_facts' ? 'more pinned facts than the cap' : 'threads have no pin: a cap below the live threads',
          values: [
            key === 'max_facts'
              ? { [p]: 1, 'document:/state/facts': [fact('a', { pinned: true }), fact('b', { pinned: true })] }
              : {
                  [p]: 1,
                  'document:/state/open_threads': [
                    { id: 'a', title: 'a', status: 'done' },
                    { id: 'b', title: 'b' },
                  ],
                },
          ],
          predicts: key === 'max_facts' ? 'every pinned fact kept, beyond the cap' : 'closed threads go first, then by age or recency',
        },
      ],
      order: [
        {
          slug: 'eviction-order',
          description: 'victims by the eviction strategy, ties in document order',
          values: [
            { [p]: 2, [`document:${R}/eviction`]: 'oldest' },
            { [p]: 2, [`document:${R}/eviction`]: undefined },
          ],
          predicts: 'oldest by learned_at; the default least_recently_used by last_used_at then learned_at; ties keep document order',
        },
      ],
      links: [
        {
          slug: 'inherited-cap',
          description: 'the cap comes from a base profile',
          values: [{ [`base:${R}/${key}`]: 1, [p]: undefined }],
          predicts: 'the merged cap (1) is enforced',
          exclusion:
            "applying a delta to a profile with extends: the spec does not say whether the applicator reads the merged lifecycle or the file's own",
        },
      ],
    },
  });
}

const TTL = dimension({
  id: 'retention.fact_ttl_days',
  title: 'Fact expiry: learned_at + ttl days, and expires_at',
  rule: 'spec/semantics/retention.ts factExpired',
  requirements: ['L2-A9'],
  reads: { document: [`${R}/fact_ttl_days`, '/state/facts'], delta: ['/operations'], params: ['/now'] },
  meets: ['delta-document'],
  families: {
    presence: [
      {
        slug: 'no-ttl-no-expiry',
        description: 'no TTL and no expires_at',
        values: [{ [`document:${R}/fact_ttl_days`]: undefined }],
        predicts: 'no fact expires',
      },
      {
        slug: 'no-learned-at',
        description: 'a TTL and a fact without learned_at',
        values: [{ [`document:${R}/fact_ttl_days`]: 1, 'document:/state/facts': [fact('a')] }],
        predicts: 'the fact does not expire by TTL (nothing to measure from)',
        next: ['used-after-learned'],
      },
      {
        slug: 'used-after-learned',
        description: 'a fact learned past the TTL and used within it: the TTL runs from learned_at, not from last_used_at',
        values: [
          {
            [`document:${R}/fact_ttl_days`]: 30,
            'document:/state/facts': [{ ...fact('a'), learned_at: '2026-01-01T00:00:00Z', last_used_at: '2026-02-28T00:00:00Z' }],
            'params:/now': '2026-03-01T00:00:00Z',
          },
        ],
        predicts: 'expired: 59 days since learned_at is past a 30-day TTL, however recently it was used',
        next: ['no-learned-at'],
      },
    ],
    numeric: [
      {
        slug: 'exact-boundary',
        description: 'learned exactly ttl days before now, and one millisecond more',
        values: [
          {
            [`document:${R}/fact_ttl_days`]: 30,
            'document:/state/facts': [fact('a', { learned_at: '2026-01-30T00:00:00Z' })],
            'params:/now': NOW,
          },
          {
            [`document:${R}/fact_ttl_days`]: 30,
            'document:/state/facts': [fact('a', { learned_at: '2026-01-29T23:59:59.999Z' })],
            'params:/now': NOW,
          },
        ],
        predicts: 'kept at exactly 30 days; gone one millisecond later',
      },
      {
        slug: 'expires-at-now',
        description: 'expires_at equal to now, and one second after',
        values: [{ 'document:/state/facts': [fact('a', { expires_at: NOW })], 'params:/now': NOW }],
        predicts: 'expired at now; kept when expires_at is after now',
      },
      {
        slug: 'schema-edges',
        description: 'ttl 1 and 3650; 0 is schema-invalid',
        values: [{ [`document:${R}/fact_ttl_days`]: 1 }, { [`document:${R}/fact_ttl_days`]: 3650 }],
        predicts: 'the same rule at either edge',
      },
    ],
    text: [
      {
        slug: 'offsets-and-case',
        description: 'the same instant written with an offset, in lower case, or with a fraction',
        values: [
          {
            'document:/state/facts': [
              fact('a', { expires_at: '2026-03-01T01:00:00+01:00' }),
              fact('b', { expires_at: '2026-02-28t23:59:59.5z' }),
            ],
            'params:/now': NOW,
          },
        ],
        predicts: 'compared as instants: a expired (equal to now), b expired (before now)',
      },
    ],
    separators: "timestamps are RFC 3339 strings; their grammar is schema-bounds.ts's",
    wildcards: 'timestamps are not patterns',
    escaping: 'timestamps have no escape syntax',
    duplicates: 'one TTL per profile',
    order: "expiry is per fact; its order with the cap is the cap dimensions' (expired first, then the cap)",
    links: [
      {
        slug: 'pinned-never-expires',
        description: 'a pinned fact past its TTL and its expires_at',
        values: [
          {
            [`document:${R}/fact_ttl_days`]: 1,
            'document:/state/facts': [fact('a', { pinned: true, learned_at: '2020-01-01T00:00:00Z', expires_at: '2020-01-02T00:00:00Z' })],
          },
        ],
        predicts: 'kept',
      },
    ],
  },
});

const HISTORY = dimension({
  id: 'retention.max_history',
  title: 'History trimmed oldest first',
  rule: 'spec/semantics/retention.ts trimHistory',
  requirements: ['L2-A11'],
  reads: { document: [`${R}/max_history`, '/history/*/revision', '/history/*/at', '/metadata/revision'], delta: ['/operations'] },
  meets: ['delta-document'],
  families: {
    presence: [
      {
        slug: 'absent-is-50',
        observedBy: ['L2-A11/history-default-max-50'],
        description: 'no max_history',
        values: [{ [`document:${R}/max_history`]: undefined }],
        predicts: 'at most 50 entries',
      },
    ],
    numeric: [
      {
        slug: 'zero',
        observedBy: ['L2-A11/max-history-zero-keeps-none'],
        description: 'max_history 0',
        values: [{ [`document:${R}/max_history`]: 0 }],
        predicts: 'no history entry left, not even the new one',
        next: ['one'],
      },
      {
        slug: 'one',
        observedBy: ['L2-A11/history-auto-trim-to-1'],
        description: 'max_history 1',
        values: [{ [`document:${R}/max_history`]: 1 }],
        predicts: 'only the new entry',
      },
      {
        slug: 'schema-maximum',
        observedBy: ['L2-A11/history-schema-maximum-keeps-52'],
        description: 'max_history 500',
        values: [{ [`document:${R}/max_history`]: 500 }],
        predicts: 'at most 500',
      },
    ],
    text: 'max_history is an integer',
    separators: 'max_history is an integer',
    wildcards: 'max_history is an integer',
    escaping: 'max_history is an integer',
    duplicates: 'history entries are distinct revisions',
    order: [
      {
        slug: 'oldest-first',
        observedBy: ['L2-A11/history-propose-approved-trim-to-4', 'L2-A11/history-default-max-50'],
        description: 'a history already at the cap',
        values: [
          {
            [`document:${R}/max_history`]: 2,
            'document:/history': [
              { revision: 1, at: NOW },
              { revision: 2, at: NOW },
            ],
            'document:/metadata/revision': 2,
          },
        ],
        predicts: 'revision 1 goes, 2 and the new 3 stay, in order',
      },
    ],
    links: 'history entries refer to revisions of the same profile only',
  },
});

const EVICTION = dimension({
  id: 'retention.eviction',
  title: 'The eviction key',
  rule: 'spec/semantics/retention.ts factEvictionKey',
  requirements: ['L2-A9', 'L2-S4'],
  reads: { document: [`${R}/eviction`, '/state/facts'], delta: ['/operations'] },
  meets: ['delta-document'],
  families: {
    presence: [
      {
        slug: 'absent-is-lru',
        description: 'no eviction strategy',
        values: [{ [`document:${R}/eviction`]: undefined }],
        predicts: 'least_recently_used: by last_used_at, falling back to learned_at',
      },
    ],
    numeric: [
      {
        slug: 'confidence-edges',
        description: 'least_confident with confidence 0, 1, equal values and none',
        values: [
          {
            [`document:${R}/eviction`]: 'least_confident',
            'document:/state/facts': [fact('a', { confidence: 0 }), fact('b', { confidence: 1 }), fact('c')],
          },
        ],
        predicts: 'c (no confidence) first, then a, then b; ties in document order',
      },
    ],
    text: "the enum bound is schema-bounds.ts's",
    separators: 'an enum word',
    wildcards: 'an enum word',
    escaping: 'an enum word',
    duplicates: [
      {
        slug: 'equal-keys',
        description: 'two facts with the same learned_at under oldest',
        values: [
          {
            [`document:${R}/eviction`]: 'oldest',
            'document:/state/facts': [fact('a', { learned_at: NOW }), fact('b', { learned_at: NOW })],
          },
        ],
        predicts: 'a before b (document order)',
      },
    ],
    order: [
      {
        slug: 'permuted-keys',
        description: 'age, confidence and recency orders permuted so a wrong key shows',
        values: [
          {
            [`document:${R}/eviction`]: 'least_recently_used',
            'document:/state/facts': [
              fact('a', { learned_at: '2026-01-01T00:00:00Z', last_used_at: '2026-02-20T00:00:00Z', confidence: 0.1 }),
              fact('b', { learned_at: '2026-02-01T00:00:00Z', last_used_at: '2026-01-05T00:00:00Z', confidence: 0.9 }),
            ],
          },
        ],
        predicts: 'b goes first (least recently used), not a (oldest, least confident)',
      },
    ],
    links: 'eviction reads entries of the same document only',
  },
});

const B = '/spec/context/budget';

const STATE_BUDGET = dimension({
  id: 'state.injection-budget',
  title: 'Which state entries are injected under max_state_tokens and max_state_bytes',
  rule: 'harnesses/reference/state-render.ts; spec/semantics/retention.ts factEvictionKey (the same eviction order)',
  requirements: ['L2-S4'],
  reads: {
    profile: [`${B}/max_state_tokens`, `${B}/max_state_bytes`, `${R}/eviction`, '/state/summary', '/state/facts', '/state/preferences'],
    policy: ['/budgets/max_state_tokens', '/budgets/max_state_bytes'],
  },
  meets: ['profile-policy'],
  families: {
    presence: [
      {
        slug: 'no-budget',
        description: 'no state budget on either side',
        values: [{ [`profile:${B}/max_state_tokens`]: undefined, 'policy:/budgets/max_state_tokens': undefined }],
        predicts: 'nothing elided, no notice needed',
      },
      {
        slug: 'policy-budget-only',
        description: 'only the policy bounds state',
        values: [
          { [`profile:${B}/max_state_bytes`]: undefined, 'policy:/budgets/max_state_bytes': 64, 'profile:/state/facts': [fact('a')] },
          { [`profile:${B}/max_state_bytes`]: undefined, 'policy:/budgets/max_state_bytes': 4, 'profile:/state/facts': [fact('a')] },
        ],
        predicts: "the policy's limit applies to injection like the profile's would",
      },
    ],
    numeric: [
      {
        slug: 'zero',
        description: 'max_state_tokens 0 or max_state_bytes 0',
        values: [
          { [`profile:${B}/max_state_tokens`]: 0, 'profile:/state/facts': [fact('a')] },
          { [`profile:${B}/max_state_bytes`]: 0, 'profile:/state/facts': [fact('a')] },
        ],
        predicts: 'no unpinned entry injected, the agent told state was elided',
      },
      {
        slug: 'exact-fit',
        description: 'a budget exactly the size of the entries, and one below',
        values: [{ [`profile:${B}/max_state_bytes`]: 16, 'profile:/state/facts': [fact('a', { text: 'sixteen bytes ok' })] }],
        predicts: 'fits at the size; one byte less elides the whole entry (never truncated)',
      },
    ],
    text: [
      {
        slug: 'multibyte',
        description: 'entries of astral and non-ASCII characters under a byte budget',
        values: [
          { [`profile:${B}/max_state_bytes`]: 8, 'profile:/state/facts': [fact('a', { text: '😀😀😀' })] },
          { [`profile:${B}/max_state_bytes`]: 64, 'profile:/state/facts': [fact('a', { text: 'é'.repeat(40) })] },
        ],
        predicts: 'bytes counted in UTF-8 (12 and 80 here, 6 and 40 UTF-16 units): elided whole',
      },
    ],
    separators: 'entries are whole units; no separator inside one is a cut point (never truncate mid-entry)',
    wildcards: 'budgets and entries are not patterns',
    escaping: 'the rendered form may escape text; the budget bounds what is injected',
    duplicates: [
      {
        slug: 'equal-eviction-keys',
        description: 'two entries with equal keys, one fitting',
        values: [
          {
            [`profile:${B}/max_state_tokens`]: 5,
            'profile:/state/facts': [fact('a', { learned_at: NOW }), fact('b', { learned_at: NOW })],
          },
        ],
        predicts: 'the later one in document order kept, the earlier elided',
      },
    ],
    order: [
      {
        slug: 'pinned-first-victim',
        description: 'the entry the strategy would evict first is pinned',
        values: [
          {
            [`profile:${B}/max_state_tokens`]: 5,
            'profile:/state/facts': [fact('a', { pinned: true, learned_at: '2020-01-01T00:00:00Z' }), fact('b')],
          },
        ],
        predicts: 'the pinned entry stays; others go by the eviction order',
      },
    ],
    links: 'state entries link to nothing the budget follows',
  },
});

export const RETENTION_CATALOGUE: readonly Dimension[] = [
  STATE_BUDGET,
  capDimension('max_facts', 10_000),
  capDimension('max_open_threads', 1000),
  TTL,
  EVICTION,
  HISTORY,
];

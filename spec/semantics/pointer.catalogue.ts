/**
 * Boundary catalogue of delta operation paths (rule: ./pointer.ts inStateScope, decodePointer,
 * idOfToken; spec/document/rules-delta.ts checkStatePointer; RFC 6901/6902; SPEC §5.6 step 4,
 * §6.2; L2-A2, L2-A5, L2-A13, L2-A14, L2-G4). The grammar bound `^/state(/.*)?$` is
 * spec/document/schema-bounds.ts's.
 */
import { type Dimension, dimension } from './catalogue-model.js';

/**
 * The state every operation meets (the document side): three facts, so an index names the third and
 * `3` is the length; `fact-bb` comes before `fact-b` (an id that is a prefix of another) and `a/b`
 * holds the separator an `id:` token escapes as `~1`.
 */
const DOCUMENT_STATE = {
  summary: 'what the agent knows',
  facts: [
    { id: 'fact-bb', text: 'the neighbour whose id starts with fact-b' },
    { id: 'fact-b', text: 'the fact addressed by id' },
    { id: 'a/b', text: 'the fact whose id holds a slash' },
  ],
};
const FACT = { id: 'fact-new', text: 'a valid fact' };
const state = { 'document:/state': DOCUMENT_STATE };

const op = (path: string, o: 'add' | 'replace' | 'remove' = 'replace', value: unknown = 'x') => ({
  'delta:/operations/0': o === 'remove' ? { op: o, path } : { op: o, path, value },
  ...state,
});

export const POINTER_CATALOGUE: readonly Dimension[] = [
  dimension({
    id: 'delta.operation-path',
    title: 'Where an operation lands',
    rule: 'spec/semantics/pointer.ts; spec/document/rules-delta.ts',
    requirements: ['L2-A2', 'L2-A5', 'L2-A13', 'L2-A14'],
    reads: { delta: ['/operations/0'], document: ['/state'] },
    meets: ['delta-document'],
    families: {
      presence: [
        {
          slug: 'whole-state',
          description: '`/state` itself, and the empty token `/state/`',
          values: [op('/state', 'replace', {}), op('/state/', 'add', 'x')],
          predicts:
            'in scope: the first replaces the state, the second names the member "" of state (schema-invalid result: nothing written)',
        },
        {
          slug: 'remove-missing',
          description: 'remove of an absent member, an index past the end, an absent collection',
          values: [op('/state/summary', 'remove'), op('/state/facts/7', 'remove'), op('/state/open_threads/0', 'remove')],
          predicts: 'a no-op with a warning; the rest of the delta applies (L2-A13)',
        },
      ],
      numeric: [
        {
          slug: 'index-edges',
          description:
            'replace at length, add at length + 1, add at length, index with a leading zero, `-1` (three facts, each value a valid fact)',
          values: [
            op('/state/facts/3', 'replace', FACT),
            op('/state/facts/4', 'add', FACT),
            op('/state/facts/3', 'add', FACT),
            op('/state/facts/01', 'replace', FACT),
            op('/state/facts/-1', 'replace', FACT),
          ],
          predicts:
            'add at length appends; replace at length, add past it, `01` and `-1` fail the whole delta (RFC 6901 array index), nothing written (L2-A5)',
        },
      ],
      text: [
        {
          slug: 'state-case',
          description: '`/State/summary`',
          values: [op('/State/summary')],
          predicts: 'schema-invalid (pattern): the delta is rejected (L2-A1/L2-A2)',
          schemaInvalid: true,
          exclusion: 'a grammar bound, generated from spec/document/schema-bounds.ts',
        },
        {
          slug: 'line-terminator',
          description: 'a line feed or U+2028 inside a token',
          values: [op('/state/summary\n'), op('/state/a\u2028b')],
          predicts: 'schema-invalid: `.` matches no line terminator',
          schemaInvalid: true,
          exclusion: 'a grammar bound (schema-bounds.ts derives it from the pattern)',
        },
      ],
      separators: [
        {
          slug: 'state-prefix',
          description: '`/statex/a` and `/state-old`',
          values: [op('/statex/a'), op('/state-old')],
          predicts: 'schema-invalid (the pattern needs `/state` then `/` or the end): rejected',
          schemaInvalid: true,
          exclusion: 'a grammar bound',
        },
        {
          slug: 'dotdot-token',
          description: '`/state/../spec/role/instructions` (`..` is a literal member under RFC 6901)',
          values: [op('/state/../spec/role/instructions')],
          predicts: 'refused, or applied as the literal key `..` inside /state; never an effect outside /state (L2-A2)',
        },
        {
          slug: 'trailing-slash',
          description: '`/state/summary/`',
          values: [op('/state/summary/')],
          predicts: 'names member "" below a string: the operation fails, nothing written',
        },
      ],
      wildcards: [
        {
          slug: 'dash-append',
          description: '`/state/facts/-` (append), and `-` mid-path `/state/facts/-/text`',
          values: [op('/state/facts/-', 'add', { id: 'f', text: 't' }), op('/state/facts/-/text')],
          predicts: 'the first appends; the second names nothing (fails the delta)',
        },
      ],
      escaping: [
        {
          slug: 'tilde-escapes',
          description: '`~1` (a `/` in a key), `~0` (a `~`), a bare `~`, `~2`',
          values: [op('/state/a~1b', 'add'), op('/state/a~0b', 'add'), op('/state/a~b', 'add'), op('/state/a~2b', 'add')],
          predicts: '`~1` and `~0` name the keys `a/b` and `a~b` inside state; `~` and `~2` are not pointers: rejected',
        },
        {
          slug: 'percent-encoded',
          description: '`/state/%2e%2e/spec`, `/state/a%2fb`, and a replace whose decoded path names the instructions',
          values: [op('/state/%2e%2e/spec', 'add'), op('/state/a%2fb', 'add'), op('/state/%2e%2e/spec/role/instructions')],
          predicts: 'literal keys inside state or rejected; a decoding applicator would leave /state (never allowed)',
        },
      ],
      duplicates: [
        {
          slug: 'two-ops-one-path',
          description: 'two operations on the same path',
          values: [
            {
              'delta:/operations': [
                { op: 'replace', path: '/state/summary', value: 'a' },
                { op: 'replace', path: '/state/summary', value: 'b' },
              ],
              ...state,
            },
          ],
          predicts: 'applied in order: the last value stays',
        },
      ],
      order: [
        {
          slug: 'ops-in-order',
          description: 'an add then a remove of the same entry, and the reverse',
          values: [
            {
              'delta:/operations': [
                { op: 'add', path: '/state/facts/-', value: { id: 'f', text: 't' } },
                { op: 'remove', path: '/state/facts/id:f' },
              ],
              ...state,
            },
          ],
          predicts: 'operations apply in order (RFC 6902): the entry is gone',
        },
      ],
      links: [
        {
          slug: 'id-pointer',
          description: '`/state/facts/id:<id>`, an `id:` naming no entry, an empty `id:`, and an id containing `/` (`id:a~1b`)',
          values: [
            op('/state/facts/id:fact-b/text'),
            op('/state/facts/id:gone', 'remove'),
            op('/state/facts/id:'),
            op('/state/facts/id:a~1b/text'),
          ],
          predicts:
            'the entry with that id at apply time (L2-A14); a missing id on remove warns (L2-A13), on replace fails the delta (L2-A5)',
        },
      ],
    },
  }),
];

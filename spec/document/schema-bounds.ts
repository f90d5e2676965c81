/**
 * Grammar boundaries of the two OAP schemas (issue 20 part 3): for every `pattern`, `minLength`,
 * `maxLength`, `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `minItems`,
 * `maxItems`, `enum`, `const` and `format` of agent-profile.schema.json and
 * agent-state-delta.schema.json, at every place it applies (a `$defs` entry used at five places
 * is five bounds), the values just inside and just outside the bound, and a minimal document
 * holding each one at its place.
 *
 * The values are derived from the keyword alone, never by asking the validator, so a test can hold
 * the validator (and through it the deterministic L1-P1/L1-P2 cases generated from here) to them:
 * - `pattern`: pattern-grammar.ts (every character class at its position, every alternative, the
 *   longest legal value and one past it, one-edit misses);
 * - `maxLength` n: n characters, as ASCII and as characters outside the BMP (n code points, 2n
 *   UTF-16 units: JSON Schema counts code points), inside; n + 1 of each outside;
 * - `minLength` n: n characters (for 1 also a single space and a single astral character) inside,
 *   n - 1 outside;
 * - `minimum`/`maximum`: the bound and its neighbour inside, one step past outside (1 for
 *   integers, the next double for numbers), and `-0` beside a bound of 0;
 * - `exclusiveMinimum`/`exclusiveMaximum`: one step inside, the bound itself outside;
 * - `maxItems`/`minItems`: the empty list where allowed and exactly n distinct items inside, one
 *   item more (or fewer) outside;
 * - `enum`/`const`: every member inside; the first member in the other letter case, with a
 *   trailing space, and the empty string outside;
 * - `format: date-time`: RFC 3339 §5.6's edge forms inside (lower-case `t`/`z`, nine fraction
 *   digits, `-00:00`, `±23:59`, a leap second, 29 February of 2000 and 2024, years 0000 and 9999)
 *   and one-field misses outside.
 *
 * Two kinds of value are kept apart: `beyondSchema`, admitted by the keyword but refused by a rule
 * the schema cannot express (`oap: "1.9"` is schema-valid and refused as a higher minor, L1-P4);
 * and `disputed`, where the format's standard and this project's validator (ajv-formats) differ.
 * JSON Schema 2020-12 makes `format` an annotation unless a validator opts in
 * (INTERPRETATIONS.md, "JSON Schema format"), so a format bound's outside values may not be
 * required of a harness (`outsideJudged: false`); its inside values may.
 */
import { escapePointerToken } from '../semantics/pointer.js';
import { patternBoundary } from './pattern-grammar.js';
import { schemaSource } from './schema.js';

export type OapSchema = 'profile' | 'delta';

const BOUND_KEYWORDS = [
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
  'enum',
  'const',
  'format',
] as const;
type BoundKeyword = (typeof BOUND_KEYWORDS)[number];

interface BoundValue {
  value: unknown;
  why: string;
  /** The issue code the project refuses an outside value with, when a rule answers before the keyword's own `schema.<keyword>`. */
  refusedAs?: string;
}

export interface SchemaBound {
  /** `<schema>:<pointer>:<keyword>`, stable across runs. */
  id: string;
  schema: OapSchema;
  /** Where the bound applies, as a JSON Pointer into the document; `*` stands for every array item or free key. */
  pointer: string;
  keyword: BoundKeyword;
  limit: unknown;
  inside: BoundValue[];
  outside: BoundValue[];
  /** Admitted by the keyword, refused by a rule beyond the schema (named in `rule`). */
  beyondSchema: Array<BoundValue & { rule: string }>;
  /** Values on which the keyword's standard and this project's validator differ (`reading` says how). */
  disputed: Array<BoundValue & { reading: string }>;
  /** May a case require a harness to refuse the outside values? */
  outsideJudged: boolean;
}

type SchemaNode = Record<string, unknown>;

const SCHEMA_FILE: Record<OapSchema, 'profile' | 'delta'> = { profile: 'profile', delta: 'delta' };

const roots = new Map<OapSchema, SchemaNode>();
function root(schema: OapSchema): SchemaNode {
  let r = roots.get(schema);
  if (r === undefined) {
    r = schemaSource(SCHEMA_FILE[schema]).schema as SchemaNode;
    roots.set(schema, r);
  }
  return r;
}

function resolve(schema: OapSchema, node: SchemaNode): SchemaNode {
  const ref = node['$ref'];
  if (typeof ref !== 'string') return node;
  const m = /^#\/\$defs\/(.+)$/.exec(ref);
  if (!m) throw new Error(`unsupported $ref ${ref}`);
  const target = (root(schema)['$defs'] as Record<string, SchemaNode>)[m[1]!];
  if (target === undefined) throw new Error(`unknown $ref ${ref}`);
  return resolve(schema, target);
}

const isNode = (v: unknown): v is SchemaNode => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The child schema for one pointer token (`*` = array items or free keys). */
function childNode(schema: OapSchema, node: SchemaNode, token: string): SchemaNode | undefined {
  const n = resolve(schema, node);
  if (token === '*' || (/^\d+$/.test(token) && isNode(n['items']))) {
    if (isNode(n['items'])) return resolve(schema, n['items']);
    if (isNode(n['additionalProperties'])) return resolve(schema, n['additionalProperties']);
    return undefined;
  }
  const props = n['properties'];
  return isNode(props) && isNode(props[token]) ? resolve(schema, props[token] as SchemaNode) : undefined;
}

/** Every place in a schema, depth first: its instance pointer and its (resolved) schema. */
function places(schema: OapSchema): Array<{ pointer: string; node: SchemaNode }> {
  const out: Array<{ pointer: string; node: SchemaNode }> = [];
  const visit = (pointer: string, raw: SchemaNode): void => {
    const node = resolve(schema, raw);
    out.push({ pointer, node });
    if (isNode(node['properties'])) {
      for (const [k, v] of Object.entries(node['properties'])) if (isNode(v)) visit(`${pointer}/${escapePointerToken(k)}`, v);
    }
    if (isNode(node['items'])) visit(`${pointer}/*`, node['items']);
    if (isNode(node['additionalProperties'])) visit(`${pointer}/*`, node['additionalProperties']);
  };
  visit('', root(schema));
  return out;
}

/** Every instance pointer the schema names, with its resolved schema (for completeness checks). */
export function schemaPlaces(schema: OapSchema): Array<{ pointer: string; type: unknown }> {
  return places(schema).map(({ pointer, node }) => ({
    pointer,
    type: node['type'] ?? (node['enum'] ? 'enum' : node['const'] !== undefined ? 'const' : 'any'),
  }));
}

// ---------------------------------------------------------------- minimal values and placement

const BASE_TIMESTAMP = '2026-01-01T00:00:00Z';

/** A minimal valid value of `node`; `index` makes list items distinct where the schema allows. */
function minimal(schema: OapSchema, raw: SchemaNode, index = 0): unknown {
  const node = resolve(schema, raw);
  if ('const' in node) return node['const'];
  if (Array.isArray(node['enum'])) return node['enum'][0];
  switch (node['type']) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of (node['required'] as string[] | undefined) ?? []) {
        out[key] = minimal(schema, ((node['properties'] as Record<string, SchemaNode>)[key] ?? {}) as SchemaNode, index);
      }
      complete(schema, node, out, index);
      return out;
    }
    case 'array':
      return [];
    case 'string': {
      if (node['format'] === 'date-time') return BASE_TIMESTAMP;
      if (typeof node['pattern'] === 'string') {
        const re = new RegExp(node['pattern'], 'u');
        const base = patternBoundary(node['pattern']).shortest;
        return index > 0 && re.test(`${base}${index}`) ? `${base}${index}` : base;
      }
      const min = typeof node['minLength'] === 'number' ? node['minLength'] : 1;
      return `${'a'.repeat(Math.max(1, min))}${index > 0 ? index : ''}`;
    }
    case 'integer':
    case 'number': {
      const lo =
        typeof node['minimum'] === 'number'
          ? node['minimum']
          : typeof node['exclusiveMinimum'] === 'number'
            ? node['exclusiveMinimum'] + 1
            : 0;
      const hi = typeof node['maximum'] === 'number' ? node['maximum'] : Number.POSITIVE_INFINITY;
      return Math.min(lo + index, hi);
    }
    case 'boolean':
      return false;
    default:
      return 'a';
  }
}

/** Does `obj` satisfy an `if` of the OAP schemas (`properties` with `const`/`enum`, and `required`)? */
function ifHolds(cond: SchemaNode, obj: Record<string, unknown>): boolean {
  for (const key of (cond['required'] as string[] | undefined) ?? []) if (!(key in obj)) return false;
  for (const [key, sub] of Object.entries((cond['properties'] as Record<string, SchemaNode> | undefined) ?? {})) {
    if (!(key in obj)) continue;
    if ('const' in sub && obj[key] !== sub['const']) return false;
    if (Array.isArray(sub['enum']) && !sub['enum'].includes(obj[key])) return false;
  }
  return true;
}

/** Add the members an `allOf` of `if`/`then` requires of `obj` and drop the ones it forbids. */
function complete(schema: OapSchema, node: SchemaNode, obj: Record<string, unknown>, index: number): void {
  for (const key of (node['required'] as string[] | undefined) ?? []) {
    if (!(key in obj)) obj[key] = minimal(schema, ((node['properties'] as Record<string, SchemaNode>)[key] ?? {}) as SchemaNode, index);
  }
  for (const part of (node['allOf'] as SchemaNode[] | undefined) ?? []) {
    const cond = part['if'];
    const then = part['then'];
    if (!isNode(cond) || !isNode(then) || !ifHolds(cond, obj)) continue;
    for (const key of (then['required'] as string[] | undefined) ?? []) {
      if (!(key in obj)) obj[key] = minimal(schema, ((node['properties'] as Record<string, SchemaNode>)[key] ?? {}) as SchemaNode, index);
    }
    const not = then['not'];
    if (isNode(not)) for (const key of (not['required'] as string[] | undefined) ?? []) delete obj[key];
  }
}

/** The smallest valid document of a schema. */
export function minimalDocument(schema: OapSchema): Record<string, unknown> {
  return minimal(schema, root(schema)) as Record<string, unknown>;
}

/**
 * The key a free-key place (`env/*`, `headers/*`, `annotations/*`, ...) gets for `value`: the
 * profile rule for MCP env (rules-mcp.ts, SPEC §3.4 "same-name `${VARIABLE}` references") wants an
 * env value to name its own key, so a `${NAME}` value is placed under `NAME`.
 */
function freeKeyFor(value: unknown): string {
  const m = typeof value === 'string' ? /^\$\{([^}]*)\}$/.exec(value) : null;
  return m && m[1] !== '' ? m[1]! : 'K';
}

/**
 * Rules beyond the schema that a placement must keep satisfied: history entries ascend and are
 * not above `metadata.revision` (rules-history.ts), so the revision is raised to the last entry's.
 */
function keepDocumentRules(schema: OapSchema, doc: Record<string, unknown>, pointer: string): void {
  if (schema !== 'profile' || pointer === '/metadata/revision' || !Array.isArray(doc['history'])) return;
  const revisions = (doc['history'] as unknown[]).map((e) =>
    isNode(e) && Number.isInteger(e['revision']) ? (e['revision'] as number) : 0,
  );
  const top = Math.max(1, ...revisions);
  if (top > 1) (doc['metadata'] as Record<string, unknown>)['revision'] = top;
}

/**
 * `doc` (by default a minimal valid document of `schema`) with `value` at `pointer` (`*` = the
 * first array item or a free key; `undefined` removes the member): every object on the way gets its
 * required members, and the `if`/`then` parts of the schema are kept (an `http` transport gets a
 * `url`, a `remove` loses its `value`). `doc` is changed in place and returned.
 */
export function placeAt(
  schema: OapSchema,
  pointer: string,
  value: unknown,
  doc: Record<string, unknown> = minimalDocument(schema),
): Record<string, unknown> {
  if (pointer === '') throw new Error('placeAt needs a pointer below the document root');
  const tokens = pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  const path: Array<{ node: SchemaNode; obj: Record<string, unknown> | unknown[] }> = [];
  let node: SchemaNode = root(schema);
  let cur: Record<string, unknown> | unknown[] = doc;
  // A removal happens after the required members are completed, so a required member can be removed.
  let removal: { obj: Record<string, unknown>; key: string } | undefined;
  tokens.forEach((token, i) => {
    const child = childNode(schema, node, token);
    if (child === undefined) throw new Error(`${schema} schema has no place ${pointer}`);
    path.push({ node: resolve(schema, node), obj: cur });
    const last = i === tokens.length - 1;
    if (Array.isArray(cur)) {
      const index = /^\d+$/.test(token) ? Number(token) : 0;
      if (last) cur[index] = value;
      else {
        while (cur.length <= index) cur.push(minimal(schema, child, cur.length));
        cur = cur[index] as Record<string, unknown> | unknown[];
      }
    } else {
      const key = token === '*' ? freeKeyFor(value) : token;
      if (last && value === undefined) removal = { obj: cur, key };
      else if (last) cur[key] = value;
      else {
        if (!(key in cur)) cur[key] = minimal(schema, child, 0);
        cur = cur[key] as Record<string, unknown> | unknown[];
      }
    }
    node = child;
  });
  for (const { node: n, obj } of path.reverse()) if (!Array.isArray(obj) && n['type'] === 'object') complete(schema, n, obj, 0);
  if (removal !== undefined) delete removal.obj[removal.key];
  keepDocumentRules(schema, doc, pointer);
  return doc;
}

// ---------------------------------------------------------------- values per keyword

function nextUp(x: number): number {
  if (x === 0) return Number.MIN_VALUE;
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, x);
  const bits = buf.getBigUint64(0);
  buf.setBigUint64(0, x > 0 ? bits + 1n : bits - 1n);
  return buf.getFloat64(0);
}
const nextDown = (x: number): number => -nextUp(-x);

const ASTRAL = '😀';

function lengthValues(node: SchemaNode, keyword: 'minLength' | 'maxLength', n: number): { inside: BoundValue[]; outside: BoundValue[] } {
  const pattern = typeof node['pattern'] === 'string' ? node['pattern'] : undefined;
  if (pattern !== undefined) {
    // Both the pattern and the length hold at this place: fill the pattern's open part.
    const at = (len: number): string => patternBoundary(pattern, len).longest.value;
    return keyword === 'maxLength'
      ? {
          inside: [{ value: at(n), why: `${n} characters, the longest the pattern allows here` }],
          outside: [{ value: at(n + 1), why: `${n + 1} characters, one past maxLength` }],
        }
      : { inside: [{ value: at(n), why: `${n} characters` }], outside: n > 0 ? [{ value: at(n - 1), why: `${n - 1} characters` }] : [] };
  }
  if (keyword === 'maxLength') {
    return {
      inside: [
        { value: 'a'.repeat(n), why: `${n} ASCII characters, the most maxLength allows` },
        { value: ASTRAL.repeat(n), why: `${n} characters outside the BMP: ${n} code points but ${2 * n} UTF-16 units` },
      ],
      outside: [
        { value: 'a'.repeat(n + 1), why: `${n + 1} ASCII characters, one past maxLength` },
        { value: ASTRAL.repeat(n + 1), why: `${n + 1} characters outside the BMP, one past maxLength in code points` },
      ],
    };
  }
  return {
    inside: [
      { value: 'a'.repeat(n), why: `${n} characters, the fewest minLength allows` },
      ...(n === 1
        ? [
            { value: ' ', why: 'a single space: one character, blank' },
            { value: ASTRAL, why: 'one character outside the BMP (two UTF-16 units)' },
          ]
        : []),
    ],
    outside: n > 0 ? [{ value: 'a'.repeat(n - 1), why: `${n - 1} characters, one short of minLength` }] : [],
  };
}

function numberValues(node: SchemaNode, keyword: BoundKeyword, limit: number): { inside: BoundValue[]; outside: BoundValue[] } {
  const integer = node['type'] === 'integer';
  const up = (x: number): number => (integer ? x + 1 : nextUp(x));
  const down = (x: number): number => (integer ? x - 1 : nextDown(x));
  const step = integer ? '1' : 'the next double';
  const zero = limit === 0 ? [{ value: -0, why: 'negative zero, which equals 0' }] : [];
  switch (keyword) {
    case 'minimum':
      return {
        inside: [{ value: limit, why: 'the minimum itself' }, { value: up(limit), why: `${step} above the minimum` }, ...zero],
        outside: [{ value: down(limit), why: `${step} below the minimum` }],
      };
    case 'maximum':
      return {
        inside: [{ value: limit, why: 'the maximum itself' }, { value: down(limit), why: `${step} below the maximum` }, ...zero],
        outside: [{ value: up(limit), why: `${step} above the maximum` }],
      };
    case 'exclusiveMinimum':
      return {
        inside: [{ value: up(limit), why: `${step} above the exclusive minimum` }],
        outside: [{ value: limit, why: 'the exclusive minimum itself' }, ...zero],
      };
    default:
      return {
        inside: [{ value: down(limit), why: `${step} below the exclusive maximum` }],
        outside: [{ value: limit, why: 'the exclusive maximum itself' }, ...zero],
      };
  }
}

function itemValues(
  schema: OapSchema,
  node: SchemaNode,
  keyword: 'minItems' | 'maxItems',
  n: number,
): { inside: BoundValue[]; outside: BoundValue[] } {
  const items = isNode(node['items']) ? node['items'] : {};
  const list = (count: number): unknown[] => Array.from({ length: count }, (_, i) => minimal(schema, items, i));
  if (keyword === 'maxItems') {
    const min = typeof node['minItems'] === 'number' ? node['minItems'] : 0;
    return {
      inside: [
        ...(min === 0 ? [{ value: [], why: 'the empty list' }] : []),
        { value: list(n), why: `${n} items, the most maxItems allows` },
      ],
      outside: [{ value: list(n + 1), why: `${n + 1} items, one past maxItems` }],
    };
  }
  return {
    inside: [{ value: list(n), why: `${n} items, the fewest minItems allows` }],
    outside: n > 0 ? [{ value: list(n - 1), why: `${n - 1} items, one short of minItems` }] : [],
  };
}

function caseFlipped(s: string): string {
  const first = s[0] ?? '';
  const up = first.toUpperCase();
  return (up !== first ? up : first.toLowerCase()) + s.slice(1);
}

function enumValues(members: readonly unknown[]): { inside: BoundValue[]; outside: BoundValue[] } {
  const inside = members.map((m) => ({ value: m, why: `the member ${JSON.stringify(m)}` }));
  const first = members.find((m): m is string => typeof m === 'string');
  const candidates: BoundValue[] =
    first === undefined
      ? []
      : [
          { value: caseFlipped(first), why: `${JSON.stringify(first)} with its first letter in the other case` },
          { value: `${first} `, why: `${JSON.stringify(first)} with a trailing space` },
          { value: '', why: 'the empty string' },
        ];
  return { inside, outside: candidates.filter((c) => !members.includes(c.value)) };
}

/** RFC 3339 §5.6 `date-time` edges, one field at a time from a base value. */
const DATE_TIME = {
  inside: [
    [BASE_TIMESTAMP, 'the base form'],
    ['2026-01-01t00:00:00z', 'lower-case t and z (RFC 3339 §5.6 NOTE)'],
    ['2026-01-01T00:00:00.5Z', 'one fraction digit'],
    ['2026-01-01T00:00:00.000000001Z', 'nine fraction digits'],
    ['2026-01-01T00:00:00+00:00', 'offset +00:00'],
    ['2026-01-01T00:00:00-00:00', 'offset -00:00 (unknown local offset, RFC 3339 §4.3)'],
    ['2026-01-01T00:00:00+23:59', 'the largest positive offset'],
    ['2026-01-01T00:00:00-23:59', 'the largest negative offset'],
    ['2016-12-31T23:59:60Z', 'a leap second that happened'],
    ['2024-02-29T00:00:00Z', '29 February of a leap year'],
    ['2000-02-29T00:00:00Z', '29 February of a year divisible by 400'],
    ['2026-04-30T00:00:00Z', 'the last day of a 30-day month'],
    ['2026-12-31T23:59:59Z', 'the last second of a year'],
    ['0000-01-01T00:00:00Z', 'the smallest four-digit year'],
    ['9999-12-31T23:59:59.999Z', 'the largest four-digit year'],
  ],
  outside: [
    ['2025-02-29T00:00:00Z', '29 February of a common year'],
    ['2100-02-29T00:00:00Z', '29 February of a century not divisible by 400'],
    ['2026-04-31T00:00:00Z', 'day 31 of a 30-day month'],
    ['2026-01-32T00:00:00Z', 'day 32'],
    ['2026-01-00T00:00:00Z', 'day 0'],
    ['2026-00-01T00:00:00Z', 'month 0'],
    ['2026-13-01T00:00:00Z', 'month 13'],
    ['2026-01-01T24:00:00Z', 'hour 24'],
    ['2026-01-01T00:60:00Z', 'minute 60'],
    ['2026-01-01T00:00:61Z', 'second 61'],
    ['2026-01-01T00:00:00+24:00', 'offset hour 24'],
    ['2026-01-01T00:00:00+00:60', 'offset minute 60'],
    ['2026-01-01T00:00:00', 'no offset'],
    ['2026-01-01', 'a date without a time'],
    ['2026-01-01T00:00Z', 'no seconds'],
    ['2026-01-01T00:00:00.Z', 'a fraction with no digit'],
    ['2026-1-01T00:00:00Z', 'a one-digit month'],
    ['26-01-01T00:00:00Z', 'a two-digit year'],
    [` ${BASE_TIMESTAMP}`, 'a leading space'],
    [`${BASE_TIMESTAMP}\n`, 'a trailing line feed'],
  ],
  disputed: [
    [
      '2026-01-01 00:00:00Z',
      'a space for T: RFC 3339 §5.6 permits it only by agreement ("for the sake of readability"); ajv-formats accepts it',
    ],
    ['2026-01-01T00:00:00+0100', 'an offset without its colon: outside RFC 3339 §5.6 (time-numoffset has ":"); ajv-formats accepts it'],
    [
      '2026-01-01T23:59:60Z',
      'a leap second on a day that had none: outside by the leap-second table RFC 3339 defers to; ajv-formats accepts every 23:59:60 UTC',
    ],
  ],
} as const;

/** Rules beyond the schema that refuse some values a keyword admits, by place. */
const BEYOND_SCHEMA: ReadonlyArray<{ pointer: string; refuses: (v: unknown) => boolean; rule: string }> = [
  {
    pointer: '/oap',
    refuses: (v) => typeof v === 'string' && /^1\.([0-9]+)$/.test(v) && Number(v.slice(2)) > 0,
    rule: 'version-minor: a minor above 0 is not implemented (SPEC §2.4, L1-P4)',
  },
];

/** Places where a rule refuses outside values before the schema is consulted. */
const REFUSED_BEFORE_SCHEMA: ReadonlyArray<{ pointer: string; code: string }> = [
  // An unknown kind gets no schema at all: rejected rather than guessed (SPEC Appendix A, L1-P5).
  { pointer: '/kind', code: 'kind.unknown' },
];

function valuesFor(
  schema: OapSchema,
  pointer: string,
  node: SchemaNode,
  keyword: BoundKeyword,
): Omit<SchemaBound, 'id' | 'schema' | 'pointer' | 'keyword' | 'outsideJudged'> {
  const limit = node[keyword];
  let inside: BoundValue[] = [];
  let outside: BoundValue[] = [];
  let disputed: Array<BoundValue & { reading: string }> = [];
  switch (keyword) {
    case 'pattern': {
      const maxLen = typeof node['maxLength'] === 'number' ? node['maxLength'] : 64;
      const b = patternBoundary(limit as string, maxLen);
      inside = b.inside;
      outside = b.outside;
      break;
    }
    case 'minLength':
    case 'maxLength':
      ({ inside, outside } = lengthValues(node, keyword, limit as number));
      break;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      ({ inside, outside } = numberValues(node, keyword, limit as number));
      break;
    case 'minItems':
    case 'maxItems':
      ({ inside, outside } = itemValues(schema, node, keyword, limit as number));
      break;
    case 'enum':
      ({ inside, outside } = enumValues(limit as unknown[]));
      break;
    case 'const':
      ({ inside, outside } = enumValues([limit]));
      break;
    case 'format':
      if (limit !== 'date-time') throw new Error(`${schema}:${pointer}: format ${String(limit)} has no boundary values here`);
      inside = DATE_TIME.inside.map(([value, why]) => ({ value, why }));
      outside = DATE_TIME.outside.map(([value, why]) => ({ value, why }));
      disputed = DATE_TIME.disputed.map(([value, reading]) => ({ value, why: 'disputed edge', reading }));
      break;
  }
  const rules = BEYOND_SCHEMA.filter((r) => r.pointer === pointer);
  const beyondSchema = inside.flatMap((v) => rules.filter((r) => r.refuses(v.value)).map((r) => ({ ...v, rule: r.rule })));
  const first = REFUSED_BEFORE_SCHEMA.find((r) => r.pointer === pointer);
  return {
    limit,
    inside: inside.filter((v) => !rules.some((r) => r.refuses(v.value))),
    outside: first ? outside.map((v) => ({ ...v, refusedAs: first.code })) : outside,
    beyondSchema,
    disputed,
  };
}

/** Where a bound is, without its values: what a list of cases needs before any case runs. */
export type BoundPlace = Pick<SchemaBound, 'id' | 'schema' | 'pointer' | 'keyword' | 'outsideJudged'>;

/** JSON Schema 2020-12 makes `format` an annotation: its outside values may not be required of a harness. */
const outsideJudgedFor = (keyword: BoundKeyword): boolean => keyword !== 'format';

function boundPlacesOf(): Array<BoundPlace & { node: SchemaNode }> {
  const out: Array<BoundPlace & { node: SchemaNode }> = [];
  for (const schema of ['profile', 'delta'] as const) {
    for (const { pointer, node } of places(schema)) {
      if (pointer === '') continue;
      for (const keyword of BOUND_KEYWORDS) {
        if (keyword in node)
          out.push({ id: `${schema}:${pointer}:${keyword}`, schema, pointer, keyword, outsideJudged: outsideJudgedFor(keyword), node });
      }
    }
  }
  return out;
}

/** Every bound of both OAP schemas in schema order, without values (cheap: the schemas are only walked). */
export function boundPlaces(): BoundPlace[] {
  return boundPlacesOf().map(({ node: _, ...place }) => place);
}

let bounds: SchemaBound[] | undefined;

/** Every bound of both OAP schemas, in schema order (profile first), each with its values (derived once). */
export function schemaBounds(): readonly SchemaBound[] {
  bounds ??= boundPlacesOf().map(({ node, ...place }) => ({ ...place, ...valuesFor(place.schema, place.pointer, node, place.keyword) }));
  return bounds;
}

import { isDeepStrictEqual } from 'node:util';
import { parsePointer, pointerOf } from '../semantics/pointer.js';

/**
 * Where an observation departs from its expectation, in the data's own terms: computed once when a
 * failure is recorded and rendered by every format (`/budgets/max_tool_calls: 10 vs 100`, not two
 * whole objects). How a value is compared is its shape:
 *
 * | shape   | compared                         | a difference names                                       |
 * | ------- | -------------------------------- | -------------------------------------------------------- |
 * | `value` | whole                            | the pointer, both values                                 |
 * | `map`   | by key (an object)               | the key's pointer; a key on one side only is `(absent)` on the other |
 * | `list`  | by position (an ordered array)   | the index's pointer                                      |
 * | `set`   | by value (an array whose order means nothing) | the set's pointer, its `extra` and `missing` members |
 * | `keyed` | by a key field (an array of objects each named by it) | `<pointer>/<key value>`, like a map          |
 * | `text`  | by line (a string)               | the string's pointer, the `line` of the observation      |
 *
 * Without a shape, objects are maps, arrays lists, strings with a line break text and anything else
 * a value; a spec rule that knows a dimension is a set says so (spec/semantics/contract-shape.ts).
 * Values of different kinds at one place are one difference there (`""` is the whole value).
 */
export function differencesOf(expected: unknown, observed: unknown, opts: CompareOptions = {}): Difference[] {
  if (expected === undefined && observed === undefined) return [];
  const all = compare(expected, observed, opts.shape, opts.at === undefined ? [] : parsePointer(opts.at));
  // A list absent on one side and empty on the other says nothing beside a real difference.
  const telling = all.filter((d) => !absentAgainstEmptyList(d));
  return telling.length > 0 ? telling : all;
}

const isEmptyList = (v: unknown): boolean => Array.isArray(v) && v.length === 0;

function absentAgainstEmptyList(d: Difference): boolean {
  return (d.expected === undefined && isEmptyList(d.observed)) || (d.observed === undefined && isEmptyList(d.expected));
}

/** One differing place between the expectation and the observation. */
export interface Difference {
  /** RFC 6901 pointer into the compared value; a keyed list's member is `<list>/<key value>`. */
  pointer: string;
  expected?: unknown;
  observed?: unknown;
  /** A set (compared by value): the members only the observation has. */
  extra?: unknown[];
  /** A set: the members only the expectation has. */
  missing?: unknown[];
  /** Text (compared by line): the 1-based line of the observation where the two part (for a missing line, where it would be). */
  line?: number;
}

/** How a value is compared (see `differencesOf`). */
export type Shape =
  | { kind: 'value' }
  | { kind: 'text' }
  | { kind: 'set' }
  | { kind: 'list'; items?: Shape }
  | { kind: 'keyed'; key: string; items?: Shape }
  | { kind: 'map'; fields?: Readonly<Record<string, Shape>>; values?: Shape };

export interface CompareOptions {
  /** The shape of the compared values; inferred from the values where absent. */
  shape?: Shape | undefined;
  /** Where the compared values sit (a pointer), so every difference names its place in the whole. */
  at?: string | undefined;
}

/** The shape at a pointer below `shape` (the shape of a map's field, a list's items), when it says. */
export function shapeAt(shape: Shape | undefined, pointer: string): Shape | undefined {
  let s = shape;
  for (const token of parsePointer(pointer)) {
    if (s === undefined) return undefined;
    if (s.kind === 'map') s = s.fields?.[token] ?? s.values;
    else if (s.kind === 'list' || s.kind === 'keyed') s = s.items;
    else return undefined;
  }
  return s;
}

/**
 * One line for a difference, its values written by `show`: `/a: 1 vs 2` (expected vs observed),
 * `/tools: extra "git/commit", "write"; missing "read"` for a set, `/text line 3: "a" vs "b"` for text.
 */
export function describeDifference(d: Difference, show: (value: unknown) => string): string {
  const where = d.pointer === '' ? '(root)' : d.pointer;
  if (d.extra !== undefined || d.missing !== undefined) {
    const parts = [
      ...(d.extra?.length ? [`extra ${d.extra.map(show).join(', ')}`] : []),
      ...(d.missing?.length ? [`missing ${d.missing.map(show).join(', ')}`] : []),
    ];
    return `${where}: ${parts.join('; ')}`;
  }
  return `${where}${d.line !== undefined ? ` line ${d.line}` : ''}: ${show(d.expected)} vs ${show(d.observed)}`;
}

// ---------------------------------------------------------------------------------------------

type Tokens = readonly (string | number)[];

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function inferred(expected: unknown, observed: unknown): Shape {
  if (Array.isArray(expected) && Array.isArray(observed)) return { kind: 'list' };
  if (isMap(expected) && isMap(observed)) return { kind: 'map' };
  if (typeof expected === 'string' && typeof observed === 'string' && (expected.includes('\n') || observed.includes('\n')))
    return { kind: 'text' };
  return { kind: 'value' };
}

/** The two values as they are, in one difference at `at`. */
function whole(expected: unknown, observed: unknown, at: Tokens): Difference[] {
  if (isDeepStrictEqual(expected, observed)) return [];
  return [
    {
      pointer: pointerOf(at),
      ...(expected !== undefined ? { expected } : {}),
      ...(observed !== undefined ? { observed } : {}),
    },
  ];
}

function compare(expected: unknown, observed: unknown, given: Shape | undefined, at: Tokens): Difference[] {
  if (expected === undefined || observed === undefined) return whole(expected, observed, at);
  const shape = given ?? inferred(expected, observed);
  switch (shape.kind) {
    case 'map':
      if (!isMap(expected) || !isMap(observed)) return whole(expected, observed, at);
      return [...new Set([...Object.keys(expected), ...Object.keys(observed)])].flatMap((key) =>
        compare(expected[key], observed[key], shape.fields?.[key] ?? shape.values, [...at, key]),
      );
    case 'list':
      if (!Array.isArray(expected) || !Array.isArray(observed)) return whole(expected, observed, at);
      return Array.from({ length: Math.max(expected.length, observed.length) }, (_, i) =>
        compare(expected[i], observed[i], shape.items, [...at, i]),
      ).flat();
    case 'set':
      if (!Array.isArray(expected) || !Array.isArray(observed)) return whole(expected, observed, at);
      return compareSets(expected, observed, at);
    case 'keyed': {
      const e = keyedMembers(expected, shape.key);
      const o = keyedMembers(observed, shape.key);
      // Members without their key, or two with one key, have no name to be compared by.
      if (e === undefined || o === undefined) return compare(expected, observed, { kind: 'list', ...itemsOf(shape) }, at);
      return [...new Set([...e.keys(), ...o.keys()])].flatMap((key) => compare(e.get(key), o.get(key), shape.items, [...at, key]));
    }
    case 'text':
      if (typeof expected !== 'string' || typeof observed !== 'string') return whole(expected, observed, at);
      return compareLines(expected, observed, at);
    case 'value':
      return whole(expected, observed, at);
  }
}

const itemsOf = (shape: { items?: Shape }): { items?: Shape } => (shape.items ? { items: shape.items } : {});

/** Members of a set by value: what only the observation has, and what only the expectation has. */
function compareSets(expected: readonly unknown[], observed: readonly unknown[], at: Tokens): Difference[] {
  const extra = observed.filter((o, i) => !expected.some((e) => isDeepStrictEqual(e, o)) && firstAt(observed, o) === i);
  const missing = expected.filter((e, i) => !observed.some((o) => isDeepStrictEqual(e, o)) && firstAt(expected, e) === i);
  if (extra.length > 0 || missing.length > 0)
    return [{ pointer: pointerOf(at), ...(extra.length ? { extra } : {}), ...(missing.length ? { missing } : {}) }];
  // The same members, once with a repeat: the set says nothing, the values do.
  return sameMultiset(expected, observed) ? [] : [{ pointer: pointerOf(at), expected, observed }];
}

const firstAt = (list: readonly unknown[], v: unknown): number => list.findIndex((x) => isDeepStrictEqual(x, v));

function sameMultiset(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  const count = (list: readonly unknown[], v: unknown) => list.filter((x) => isDeepStrictEqual(x, v)).length;
  return a.every((v) => count(a, v) === count(b, v));
}

/** An array of objects by the string value of `key`, or undefined when one lacks it or two share it. */
function keyedMembers(list: unknown, key: string): Map<string, unknown> | undefined {
  if (!Array.isArray(list)) return undefined;
  const out = new Map<string, unknown>();
  for (const m of list) {
    const k = isMap(m) ? m[key] : undefined;
    if (typeof k !== 'string' || out.has(k)) return undefined;
    out.set(k, m);
  }
  return out;
}

/** Beyond this many line pairs, two texts are one difference: a line diff would cost more than it tells. */
const MAX_LINE_PAIRS = 250_000;

/**
 * Two texts by line: the longest common subsequence of their lines aligns them, and each run of
 * lines between aligned ones is reported line by line, a changed line as both, an added or removed
 * line as one side.
 */
function compareLines(expected: string, observed: string, at: Tokens): Difference[] {
  if (expected === observed) return [];
  const a = expected.split('\n');
  const b = observed.split('\n');
  const pointer = pointerOf(at);
  if (a.length * b.length > MAX_LINE_PAIRS) return whole(expected, observed, at);
  const out: Difference[] = [];
  // lcs[i][j]: length of the longest common subsequence of a[i..] and b[j..].
  const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  let i = 0;
  let j = 0;
  const removed: string[] = [];
  const added: { text: string; line: number }[] = [];
  const flush = (): void => {
    const n = Math.max(removed.length, added.length);
    for (let k = 0; k < n; k++) {
      const r = removed[k];
      const ad = added[k];
      out.push({
        pointer,
        line: ad?.line ?? j + 1,
        ...(r !== undefined ? { expected: r } : {}),
        ...(ad !== undefined ? { observed: ad.text } : {}),
      });
    }
    removed.length = 0;
    added.length = 0;
  };
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      flush();
      i++;
      j++;
    } else if (j < b.length && (i === a.length || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) {
      added.push({ text: b[j]!, line: j + 1 });
      j++;
    } else {
      removed.push(a[i]!);
      i++;
    }
  }
  flush();
  return out;
}

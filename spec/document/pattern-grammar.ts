/**
 * Boundary values of a JSON Schema `pattern`, derived from the pattern itself (issue 20 part 3).
 *
 * The OAP 1.0.1 schemas use a small subset of ECMA-262 regular expressions: anchors, literal and
 * escaped characters, character classes of ranges and single characters, groups (capturing or
 * `(?:...)`) with alternation, `.` and the quantifiers `?`, `*`, `+`, `{n}`, `{m,n}`. This module
 * parses exactly that subset (anything else throws, so a schema change that leaves it is noticed)
 * and walks the parse tree the way boundary-value analysis walks a grammar:
 *
 * - inside: the shortest legal value; every member edge of every character class (first and last
 *   character of each range, each single character) at its own position; every alternative; every
 *   repetition count at its edges (the minimum, the minimum raised to one for optional parts, the
 *   maximum); `.` as an ASCII letter, a space, a non-ASCII letter and a character outside the BMP.
 * - outside, one edit from a legal value: each class position holding the character just below and
 *   just above each range, a member of another class of the same pattern, the other letter case and
 *   a non-ASCII letter, wherever the class does not contain them; each repetition one short of its
 *   minimum and one past its maximum; each alternative with a character added or its last one
 *   dropped; each literal run with its last character dropped, a letter added after it (a prefix
 *   that is not the whole name, `/statex`) or its first letter in the other case; `.` holding a line terminator (ECMA-262 `.` matches none); a leading space and a trailing
 *   line feed (`$` without the `m` flag does not match before a final newline, unlike Python's).
 *
 * Every candidate is checked against the compiled pattern before it is returned, so a value is
 * listed inside only when the pattern matches it and outside only when it does not; `why` says
 * which edge produced it. Values are deterministic: no randomness, no clock.
 */

type Node =
  | { t: 'seq'; items: Node[] }
  | { t: 'alt'; options: Node[] }
  | { t: 'char'; c: string }
  | { t: 'class'; ranges: Array<[number, number]> }
  | { t: 'dot' }
  | { t: 'repeat'; node: Node; min: number; max: number };

/** One generated value and the edge it stands for. */
interface PatternValue {
  value: string;
  why: string;
}

const LINE_TERMINATORS = ['\n', '\r', '\u2028', '\u2029'];
/** What `.` stands for inside: an ASCII letter, a space, a non-ASCII letter, a character outside the BMP. */
const DOT_MEMBERS = ['a', ' ', 'é', '😀'];

class Parser {
  private i = 0;
  constructor(private readonly src: string) {}

  parse(): Node {
    if (this.src[0] !== '^' || !this.src.endsWith('$') || this.src.endsWith('\\$')) {
      throw new Error(`pattern ${this.src} is not anchored at both ends; only anchored patterns are supported`);
    }
    this.i = 1;
    const node = this.alternation(this.src.length - 1);
    if (this.i !== this.src.length - 1) throw new Error(`pattern ${this.src}: unexpected ${this.src[this.i]} at ${this.i}`);
    return node;
  }

  private alternation(end: number): Node {
    const options = [this.sequence(end)];
    while (this.i < end && this.src[this.i] === '|') {
      this.i++;
      options.push(this.sequence(end));
    }
    return options.length === 1 ? options[0]! : { t: 'alt', options };
  }

  private sequence(end: number): Node {
    const items: Node[] = [];
    while (this.i < end && this.src[this.i] !== '|' && this.src[this.i] !== ')') items.push(this.quantified(this.atom()));
    return { t: 'seq', items };
  }

  private atom(): Node {
    const c = this.src[this.i]!;
    if (c === '(') {
      this.i += this.src.startsWith('(?:', this.i) ? 3 : 1;
      if (this.src[this.i] === '?') throw new Error(`pattern ${this.src}: lookaround is not supported`);
      const inner = this.alternation(this.src.length - 1);
      if (this.src[this.i] !== ')') throw new Error(`pattern ${this.src}: unclosed group`);
      this.i++;
      return inner;
    }
    if (c === '[') return this.characterClass();
    if (c === '.') {
      this.i++;
      return { t: 'dot' };
    }
    if (c === '\\') {
      const e = this.src[this.i + 1]!;
      if (/[A-Za-z0-9]/.test(e)) throw new Error(`pattern ${this.src}: escape \\${e} is not supported`);
      this.i += 2;
      return { t: 'char', c: e };
    }
    if ('*+?{}^$'.includes(c)) throw new Error(`pattern ${this.src}: unexpected ${c} at ${this.i}`);
    this.i++;
    return { t: 'char', c };
  }

  private characterClass(): Node {
    this.i++;
    if (this.src[this.i] === '^') throw new Error(`pattern ${this.src}: negated classes are not supported`);
    const ranges: Array<[number, number]> = [];
    while (this.src[this.i] !== ']') {
      if (this.i >= this.src.length) throw new Error(`pattern ${this.src}: unclosed class`);
      const lo = this.classChar();
      if (this.src[this.i] === '-' && this.src[this.i + 1] !== ']') {
        this.i++;
        ranges.push([lo, this.classChar()]);
      } else ranges.push([lo, lo]);
    }
    this.i++;
    return { t: 'class', ranges };
  }

  private classChar(): number {
    let c = this.src[this.i]!;
    if (c === '\\') {
      c = this.src[this.i + 1]!;
      if (/[A-Za-z0-9]/.test(c)) throw new Error(`pattern ${this.src}: class escape \\${c} is not supported`);
      this.i++;
    }
    this.i++;
    return c.codePointAt(0)!;
  }

  private quantified(node: Node): Node {
    const c = this.src[this.i];
    if (c === '?' || c === '*' || c === '+') {
      this.i++;
      return { t: 'repeat', node, min: c === '+' ? 1 : 0, max: c === '?' ? 1 : Number.POSITIVE_INFINITY };
    }
    if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i));
      if (!m) throw new Error(`pattern ${this.src}: malformed quantifier at ${this.i}`);
      this.i += m[0].length;
      const min = Number(m[1]);
      const max = m[2] === undefined ? min : m[3] === '' ? Number.POSITIVE_INFINITY : Number(m[3]);
      return { t: 'repeat', node, min, max };
    }
    return node;
  }
}

function parse(pattern: string): Node {
  return new Parser(pattern).parse();
}

const chr = (cp: number): string => String.fromCodePoint(cp);

function inClass(node: Extract<Node, { t: 'class' }>, c: string): boolean {
  const cp = c.codePointAt(0)!;
  return node.ranges.some(([lo, hi]) => cp >= lo && cp <= hi);
}

function shortest(node: Node): string {
  switch (node.t) {
    case 'seq':
      return node.items.map(shortest).join('');
    case 'alt':
      return shortest(node.options[0]!);
    case 'char':
      return node.c;
    case 'class':
      return chr(node.ranges[0]![0]);
    case 'dot':
      return DOT_MEMBERS[0]!;
    case 'repeat':
      return shortest(node.node).repeat(node.min);
  }
}

/** Upper bound on the length (UTF-16 units for finite parts), Infinity when a part is unbounded. */
function maxLength(node: Node): number {
  switch (node.t) {
    case 'seq':
      return node.items.reduce((n, x) => n + maxLength(x), 0);
    case 'alt':
      return Math.max(...node.options.map(maxLength));
    case 'char':
    case 'class':
    case 'dot':
      return 1;
    case 'repeat':
      return node.max === Number.POSITIVE_INFINITY ? Number.POSITIVE_INFINITY : node.max * maxLength(node.node);
  }
}

/**
 * The longest legal value: every repetition at its maximum, unbounded ones filled up to `fill`
 * characters in total. With `bump`, that one repetition is taken once past its maximum.
 */
function longest(node: Node, fill: number, bump?: Node): string {
  switch (node.t) {
    case 'seq': {
      const fixed = node.items.filter((x) => maxLength(x) !== Number.POSITIVE_INFINITY);
      const fixedText = new Map(fixed.map((x) => [x, longest(x, fill, bump)]));
      const used = [...fixedText.values()].reduce((n, s) => n + [...s].length, 0);
      const open = node.items.filter((x) => !fixedText.has(x));
      const share = open.length === 0 ? 0 : Math.max(0, Math.floor((fill - used) / open.length));
      return node.items.map((x) => fixedText.get(x) ?? longest(x, share, bump)).join('');
    }
    case 'alt': {
      const options = node.options.map((o) => longest(o, fill, bump));
      const lengths = options.map((o) => [...o].length);
      return options[lengths.indexOf(Math.max(...lengths))]!;
    }
    case 'char':
      return node.c;
    case 'class':
      return chr(node.ranges[0]![0]);
    case 'dot':
      return DOT_MEMBERS[0]!;
    case 'repeat': {
      if (node.max !== Number.POSITIVE_INFINITY) return longest(node.node, fill, bump).repeat(node === bump ? node.max + 1 : node.max);
      const one = shortest(node.node);
      const unit = Math.max(1, [...one].length);
      const inner = maxLength(node.node) === Number.POSITIVE_INFINITY ? longest(node.node, Math.max(0, fill - 1), bump) : one;
      const times = Math.max(node.min, Math.floor(fill / unit));
      return inner === one ? one.repeat(times) : inner;
    }
  }
}

/** Legal variants of `node`, each differing from its shortest form in one place. */
function insideVariants(node: Node, path: string): PatternValue[] {
  switch (node.t) {
    case 'seq': {
      const out: PatternValue[] = [];
      node.items.forEach((item, i) => {
        const before = node.items.slice(0, i).map(shortest).join('');
        const after = node.items
          .slice(i + 1)
          .map(shortest)
          .join('');
        for (const v of insideVariants(item, `${path}.${i}`)) out.push({ value: before + v.value + after, why: v.why });
      });
      return out;
    }
    case 'alt':
      return node.options.flatMap((o, i) => [
        { value: shortest(o), why: `alternative ${i + 1} at ${path}` },
        ...insideVariants(o, `${path}|${i}`),
      ]);
    case 'char':
      return [];
    case 'class':
      return node.ranges.flatMap(([lo, hi]) =>
        lo === hi
          ? [{ value: chr(lo), why: `class member ${JSON.stringify(chr(lo))} at ${path}` }]
          : [
              { value: chr(lo), why: `first of range ${chr(lo)}-${chr(hi)} at ${path}` },
              { value: chr(hi), why: `last of range ${chr(lo)}-${chr(hi)} at ${path}` },
            ],
      );
    case 'dot':
      return DOT_MEMBERS.map((c) => ({ value: c, why: `. as ${JSON.stringify(c)} at ${path}` }));
    case 'repeat': {
      const once = Math.max(node.min, 1);
      const inner = shortest(node.node);
      const out: PatternValue[] = [];
      if (node.min === 0) out.push({ value: '', why: `repetition at ${path} absent (minimum 0)` });
      if (once <= node.max) {
        out.push({ value: inner.repeat(once), why: `repetition at ${path} ${once} time(s)` });
        // Each variant of the repeated part, in the first of `once` repetitions.
        for (const v of insideVariants(node.node, `${path}*`)) {
          out.push({ value: v.value + inner.repeat(once - 1), why: v.why });
        }
      }
      if (node.max !== Number.POSITIVE_INFINITY && node.max > once) {
        out.push({ value: inner.repeat(node.max), why: `repetition at ${path} at its maximum ${node.max}` });
      }
      return out;
    }
  }
}

/** Repetitions with a finite maximum above 1 (the ones that bound a length). */
function boundedRepeats(node: Node): Array<Extract<Node, { t: 'repeat' }>> {
  switch (node.t) {
    case 'seq':
      return node.items.flatMap(boundedRepeats);
    case 'alt':
      return node.options.flatMap(boundedRepeats);
    case 'repeat':
      return [...(node.max !== Number.POSITIVE_INFINITY && node.max > 1 ? [node] : []), ...boundedRepeats(node.node)];
    default:
      return [];
  }
}

/** Every character class of the pattern, for "a member of another class". */
function classesOf(node: Node): Array<Extract<Node, { t: 'class' }>> {
  switch (node.t) {
    case 'seq':
      return node.items.flatMap(classesOf);
    case 'alt':
      return node.options.flatMap(classesOf);
    case 'repeat':
      return classesOf(node.node);
    case 'class':
      return [node];
    default:
      return [];
  }
}

function caseFlip(c: string): string {
  const up = c.toUpperCase();
  return up !== c ? up : c.toLowerCase();
}

/** Illegal variants of `node`, one edit from a legal value; `others` are every class of the pattern. */
function outsideCandidates(node: Node, path: string, others: ReadonlyArray<Extract<Node, { t: 'class' }>>): PatternValue[] {
  switch (node.t) {
    case 'seq': {
      const out: PatternValue[] = [];
      node.items.forEach((item, i) => {
        const before = node.items.slice(0, i).map(shortest).join('');
        const after = node.items
          .slice(i + 1)
          .map(shortest)
          .join('');
        for (const v of outsideCandidates(item, `${path}.${i}`, others)) out.push({ value: before + v.value + after, why: v.why });
      });
      // Each literal run: its last character dropped, its first letter in the other case.
      let run = '';
      let start = 0;
      const flush = (end: number): void => {
        if (run === '') return;
        const before = node.items.slice(0, start).map(shortest).join('');
        const after = node.items.slice(end).map(shortest).join('');
        out.push({ value: before + run.slice(0, -1) + after, why: `literal ${JSON.stringify(run)} at ${path} without its last character` });
        // A name that merely starts with the literal (`/statex` for `/state`): a prefix, not a segment.
        out.push({ value: `${before}${run}x${after}`, why: `literal ${JSON.stringify(run)} at ${path} followed by one more letter` });
        const letter = [...run].findIndex((c) => caseFlip(c) !== c);
        if (letter >= 0) {
          const flipped = run.slice(0, letter) + caseFlip(run[letter]!) + run.slice(letter + 1);
          out.push({ value: before + flipped + after, why: `literal ${JSON.stringify(run)} at ${path} in the other letter case` });
        }
        run = '';
      };
      node.items.forEach((item, i) => {
        if (item.t === 'char') {
          if (run === '') start = i;
          run += item.c;
        } else flush(i);
      });
      flush(node.items.length);
      return out;
    }
    case 'alt':
      return node.options.flatMap((o, i) => {
        const s = shortest(o);
        return [
          { value: `${s}x`, why: `alternative ${i + 1} at ${path} with a character added` },
          ...(s.length > 0 ? [{ value: s.slice(0, -1), why: `alternative ${i + 1} at ${path} without its last character` }] : []),
          ...outsideCandidates(o, `${path}|${i}`, others),
        ];
      });
    case 'char':
      return [];
    case 'class': {
      const candidates = new Map<string, string>();
      for (const [lo, hi] of node.ranges) {
        if (lo > 0) candidates.set(chr(lo - 1), `just below ${chr(lo)} at ${path}`);
        candidates.set(chr(hi + 1), `just above ${chr(hi)} at ${path}`);
        candidates.set(caseFlip(chr(lo)), `${chr(lo)} in the other letter case at ${path}`);
      }
      for (const other of others) {
        for (const [lo, hi] of other.ranges) {
          for (const c of [chr(lo), chr(hi)])
            if (!candidates.has(c)) candidates.set(c, `${JSON.stringify(c)}, a member of another class, at ${path}`);
        }
      }
      candidates.set('é', `a non-ASCII letter at ${path}`);
      return [...candidates].filter(([c]) => !inClass(node, c)).map(([value, why]) => ({ value, why }));
    }
    case 'dot':
      return LINE_TERMINATORS.map((c) => ({ value: c, why: `. as the line terminator ${JSON.stringify(c)} at ${path}` }));
    case 'repeat': {
      const inner = shortest(node.node);
      const out: PatternValue[] = [];
      if (node.min > 0) out.push({ value: inner.repeat(node.min - 1), why: `repetition at ${path} one short of its minimum ${node.min}` });
      if (node.max !== Number.POSITIVE_INFINITY) {
        out.push({ value: inner.repeat(node.max + 1), why: `repetition at ${path} one past its maximum ${node.max}` });
      }
      const once = Math.max(node.min, 1);
      if (once <= node.max) {
        for (const v of outsideCandidates(node.node, `${path}*`, others)) out.push({ value: v.value + inner.repeat(once - 1), why: v.why });
      }
      return out;
    }
  }
}

/** The boundary values of an anchored pattern, each checked against the compiled pattern. */
export interface PatternBoundary {
  shortest: string;
  /** The longest legal value (unbounded parts filled so the whole is `fill` characters long). */
  longest: PatternValue;
  /** One past the longest, where the pattern bounds the length itself. */
  onePast: PatternValue | undefined;
  inside: PatternValue[];
  outside: PatternValue[];
}

function unique(values: PatternValue[]): PatternValue[] {
  const seen = new Set<string>();
  return values.filter((v) => !seen.has(v.value) && seen.add(v.value) !== undefined);
}

/**
 * Inside and outside values of `pattern`. `fill` is the total length given to the longest value
 * when the pattern leaves the length unbounded (a schema's `maxLength` at the same place).
 */
export function patternBoundary(pattern: string, fill = 64): PatternBoundary {
  // One pattern is asked for again and again (a minimal list item per index): derived once.
  const key = `${fill}\0${pattern}`;
  let b = derived.get(key);
  if (b === undefined) {
    b = derive(pattern, fill);
    derived.set(key, b);
  }
  return { ...b, inside: [...b.inside], outside: [...b.outside] };
}

const derived = new Map<string, PatternBoundary>();

function derive(pattern: string, fill: number): PatternBoundary {
  const tree = parse(pattern);
  // ajv compiles `pattern` with the `u` flag (unicodeRegExp), as ECMA-262 JSON Schema validators do.
  const re = new RegExp(pattern, 'u');
  const base = shortest(tree);
  const bounded = maxLength(tree) !== Number.POSITIVE_INFINITY;
  const longestValue = longest(tree, fill);
  const longestEdge = { value: longestValue, why: bounded ? 'the longest legal value' : `the longest value at ${fill} characters` };
  const inside = unique([{ value: base, why: 'the shortest legal value' }, longestEdge, ...insideVariants(tree, '$')]).filter((v) =>
    re.test(v.value),
  );
  // One past the longest: the repetition that sets the length (the widest bounded one, the last
  // on a tie) taken once more, everything else at its maximum.
  const widest = boundedRepeats(tree).reduce<Extract<Node, { t: 'repeat' }> | undefined>(
    (best, r) => (best === undefined || r.max >= best.max ? r : best),
    undefined,
  );
  const past = widest ? longest(tree, fill, widest) : undefined;
  const onePast = past !== undefined && !re.test(past) ? { value: past, why: 'one past the longest legal value' } : undefined;
  const outside = unique([
    ...(onePast ? [onePast] : []),
    ...outsideCandidates(tree, '$', classesOf(tree)),
    { value: ` ${base}`, why: 'a leading space before a legal value' },
    { value: `${base}\n`, why: 'a trailing line feed after a legal value ($ does not match before it)' },
    { value: '', why: 'the empty string' },
  ]).filter((v) => !re.test(v.value));
  return { shortest: base, longest: longestEdge, onePast, inside, outside };
}

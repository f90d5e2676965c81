import { escapePointerToken, parsePointer } from '../semantics/pointer.js';
import { issue, type OapIssue } from './issue.js';
import { hasOwn, setOwn, type JsonObject } from './json-data.js';
import type { ParseLimits } from './limits.js';
import { ParseAbort, type Locate, type ParseResult } from './parse-result.js';
import { LineIndex } from './source.js';

/**
 * Strict RFC 8259 parser. `JSON.parse` cannot be used directly: it keeps the last of duplicate
 * keys without saying so, turns 1e400 into Infinity silently, recurses on nesting, and reports no
 * positions. This scanner is iterative (an explicit stack), so depth is a counter check rather
 * than a stack overflow, and it records where every member and element starts so that issues
 * found later (schema, rules) can be given line/column.
 */
export function parseJson(text: string, limits: ParseLimits): ParseResult {
  const parser = new JsonParser(text, limits);
  try {
    const value = parser.parse();
    if (parser.issues.length > 0) return { ok: false, issues: parser.issues };
    return { ok: true, value, locate: parser.locator(value) };
  } catch (err) {
    if (err instanceof ParseAbort) return { ok: false, issues: [...parser.issues, err.issue] };
    throw err;
  }
}

interface Frame {
  container: JsonObject | unknown[];
  isArray: boolean;
  /** This container's token in its parent; unused for the root. */
  token: string | number;
  /** Member key awaiting its value (objects only). */
  key: string;
  /** The pending member repeats an earlier key; its value is parsed but not stored. */
  duplicate: boolean;
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const PLAIN_RUN = /[^"\\\u0000-\u001f]*/y;
const HEX4 = /^[0-9a-fA-F]{4}$/;

const ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

class JsonParser {
  readonly issues: OapIssue[] = [];
  private pos = 0;
  private readonly lines: LineIndex;
  private readonly stack: Frame[] = [];
  private readonly memberOffsets = new WeakMap<object, Map<string, number>>();
  private readonly elementOffsets = new WeakMap<object, number[]>();
  private rootOffset = 0;

  constructor(
    private readonly text: string,
    private readonly limits: ParseLimits,
  ) {
    this.lines = new LineIndex(text);
  }

  parse(): unknown {
    const text = this.text;
    this.skipWs();
    this.rootOffset = this.pos;
    let result: unknown;
    value: for (;;) {
      this.skipWs();
      const start = this.pos;
      const c = text.charCodeAt(start);
      let v: unknown;
      if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
        const isArray = c === 0x5b;
        if (this.stack.length >= this.limits.maxDepth) {
          this.abort('limit.depth', `nesting deeper than ${this.limits.maxDepth}`, start);
        }
        const container: JsonObject | unknown[] = isArray ? [] : {};
        this.recordStart(start);
        this.pos++;
        this.skipWs();
        if (text.charCodeAt(this.pos) === (isArray ? 0x5d : 0x7d)) {
          this.pos++;
          v = container;
        } else {
          this.stack.push({ container, isArray, token: this.currentToken(), key: '', duplicate: false });
          if (!isArray) this.readKey();
          continue;
        }
      } else {
        this.recordStart(start);
        v = this.scalar(c);
      }
      // Attach the completed value, then close as many containers as the input closes.
      for (;;) {
        const top = this.stack[this.stack.length - 1];
        if (top === undefined) {
          result = v;
          break value;
        }
        if (top.isArray) (top.container as unknown[]).push(v);
        else if (!top.duplicate) setOwn(top.container as JsonObject, top.key, v);
        this.skipWs();
        const d = text.charCodeAt(this.pos);
        if (d === 0x2c /* , */) {
          this.pos++;
          if (!top.isArray) this.readKey();
          continue value;
        }
        if (d === (top.isArray ? 0x5d : 0x7d)) {
          this.pos++;
          this.stack.pop();
          v = top.container;
          continue;
        }
        this.unexpected(top.isArray ? "',' or ']'" : "',' or '}'");
      }
    }
    this.skipWs();
    if (this.pos < text.length) this.abort('parse.syntax', 'unexpected content after the JSON value', this.pos);
    return result;
  }

  locator(root: unknown): Locate {
    return (pointer) => {
      let tokens: string[];
      try {
        tokens = parsePointer(pointer);
      } catch {
        return undefined;
      }
      let cur = root;
      let offset = this.rootOffset;
      for (const token of tokens) {
        if (Array.isArray(cur)) {
          if (!/^(?:0|[1-9][0-9]*)$/.test(token)) return undefined;
          const at = this.elementOffsets.get(cur)?.[Number(token)];
          if (at === undefined) return undefined;
          offset = at;
          cur = cur[Number(token)];
        } else if (cur !== null && typeof cur === 'object') {
          const at = this.memberOffsets.get(cur)?.get(token);
          if (at === undefined) return undefined;
          offset = at;
          cur = (cur as JsonObject)[token];
        } else {
          return undefined;
        }
      }
      return this.lines.position(offset);
    };
  }

  // Members are located at their key (where an editor should put the cursor); elements at
  // their first character.
  private recordStart(offset: number): void {
    const top = this.stack[this.stack.length - 1];
    if (top === undefined || !top.isArray) return;
    let list = this.elementOffsets.get(top.container);
    if (list === undefined) {
      list = [];
      this.elementOffsets.set(top.container, list);
    }
    list.push(offset);
  }

  private currentToken(): string | number {
    const top = this.stack[this.stack.length - 1];
    if (top === undefined) return '';
    return top.isArray ? (top.container as unknown[]).length : top.key;
  }

  private readKey(): void {
    this.skipWs();
    const top = this.stack[this.stack.length - 1]!;
    const keyStart = this.pos;
    if (this.text.charCodeAt(keyStart) !== 0x22) this.unexpected('a string key');
    const key = this.string();
    const obj = top.container as JsonObject;
    top.key = key;
    top.duplicate = hasOwn(obj, key);
    if (top.duplicate) {
      this.issues.push(issue('duplicate-key', this.pointerHere(), `duplicate key "${key}"`, this.lines.position(keyStart)));
    } else {
      let members = this.memberOffsets.get(obj);
      if (members === undefined) {
        members = new Map();
        this.memberOffsets.set(obj, members);
      }
      members.set(key, keyStart);
    }
    this.skipWs();
    if (this.text.charCodeAt(this.pos) !== 0x3a /* : */) this.unexpected("':'");
    this.pos++;
  }

  private scalar(c: number): unknown {
    const text = this.text;
    const start = this.pos;
    if (c === 0x22) return this.string();
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      NUMBER.lastIndex = start;
      const m = NUMBER.exec(text);
      if (m === null) this.abort('parse.syntax', 'invalid number', start);
      this.pos = NUMBER.lastIndex;
      const n = Number(m[0]);
      if (!Number.isFinite(n)) {
        this.issues.push(
          issue('non-finite', this.pointerHere(), `number ${m[0]} is outside the IEEE 754 double range`, this.lines.position(start)),
        );
      }
      return n;
    }
    for (const [word, value] of LITERALS) {
      if (text.startsWith(word, start)) {
        this.pos += word.length;
        return value;
      }
    }
    this.unexpected('a JSON value');
  }

  private string(): string {
    const text = this.text;
    const start = this.pos;
    let i = start + 1;
    let out = '';
    for (;;) {
      PLAIN_RUN.lastIndex = i;
      PLAIN_RUN.exec(text);
      const runEnd = PLAIN_RUN.lastIndex;
      out += text.slice(i, runEnd);
      i = runEnd;
      if (i >= text.length) this.abort('parse.syntax', 'unterminated string', start);
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        this.pos = i + 1;
        return out;
      }
      if (c !== 0x5c) this.abort('parse.syntax', 'unescaped control character in string', i);
      const e = text.charAt(i + 1);
      const simple = ESCAPES[e];
      if (simple !== undefined) {
        out += simple;
        i += 2;
      } else if (e === 'u' && HEX4.test(text.slice(i + 2, i + 6))) {
        // Lone surrogates are grammatical JSON (RFC 8259 §8.2); the rules reject them later
        // because JCS cannot represent them.
        out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
        i += 6;
      } else {
        this.abort('parse.syntax', 'invalid escape sequence in string', i);
      }
    }
  }

  private skipWs(): void {
    const text = this.text;
    let i = this.pos;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
    this.pos = i;
  }

  private pointerHere(): string {
    if (this.stack.length === 0) return '';
    let p = '';
    for (let i = 1; i < this.stack.length; i++) p += `/${escapePointerToken(this.stack[i]!.token)}`;
    return `${p}/${escapePointerToken(this.currentToken())}`;
  }

  private unexpected(expected: string): never {
    if (this.pos >= this.text.length) this.abort('parse.syntax', `unexpected end of input; expected ${expected}`, this.pos);
    const ch = JSON.stringify(this.text.charAt(this.pos));
    this.abort('parse.syntax', `unexpected ${ch}; expected ${expected}`, this.pos);
  }

  private abort(code: string, message: string, offset: number): never {
    const pointer = code === 'limit.depth' ? this.pointerHere() : '';
    throw new ParseAbort(issue(code, pointer, message, this.lines.position(offset)));
  }
}

const LITERALS: ReadonlyArray<readonly [string, unknown]> = [
  ['true', true],
  ['false', false],
  ['null', null],
];

import { pointerOf } from '../semantics/pointer.js';
import { isPlainObject } from './json-data.js';

/** A position in a value as a parent-linked list, so pointers are only built when reported. */
export interface PathLink {
  readonly parent: PathLink | undefined;
  readonly token: string | number;
}

export function pointerOfPath(path: PathLink | undefined): string {
  const tokens: Array<string | number> = [];
  for (let p = path; p !== undefined; p = p.parent) tokens.push(p.token);
  return pointerOf(tokens.reverse());
}

export interface JsonVisitor {
  /** Every string value, and every object key (`isKey`, with `path` naming that member). */
  string?(value: string, path: PathLink | undefined, isKey: boolean): void;
  number?(value: number, path: PathLink | undefined): void;
  /** Something that is not JSON data: a cycle, or a value JSON has no form for. */
  invalid?(reason: 'cycle' | 'not-json', path: PathLink | undefined, detail: string): void;
}

type Frame = { value: unknown; path: PathLink | undefined } | { exit: object };

/**
 * Depth-first walk over JSON-shaped data without recursion, so values handed in by callers
 * (not only parsed documents, which are depth-limited) cannot overflow the stack. Members whose
 * value is `undefined` are treated as absent, as JSON.stringify and JCS do.
 */
export function walkJson(root: unknown, visitor: JsonVisitor): void {
  const stack: Frame[] = [{ value: root, path: undefined }];
  const onPath = new Set<object>();
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if ('exit' in frame) {
      onPath.delete(frame.exit);
      continue;
    }
    const { value, path } = frame;
    switch (typeof value) {
      case 'string':
        visitor.string?.(value, path, false);
        continue;
      case 'number':
        visitor.number?.(value, path);
        continue;
      case 'boolean':
        continue;
      case 'object':
        break;
      default:
        visitor.invalid?.('not-json', path, typeof value);
        continue;
    }
    if (value === null) continue;
    if (onPath.has(value)) {
      visitor.invalid?.('cycle', path, 'circular reference');
      continue;
    }
    if (Array.isArray(value)) {
      onPath.add(value);
      stack.push({ exit: value });
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], path: { parent: path, token: i } });
    } else if (isPlainObject(value)) {
      onPath.add(value);
      stack.push({ exit: value });
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        const member = value[key];
        if (member === undefined) continue;
        const memberPath = { parent: path, token: key };
        visitor.string?.(key, memberPath, true);
        stack.push({ value: member, path: memberPath });
      }
    } else {
      visitor.invalid?.('not-json', path, (value as object).constructor?.name ?? 'object');
    }
  }
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** RFC 8785 (via I-JSON) cannot represent strings with unpaired UTF-16 surrogates. */
export function hasLoneSurrogate(s: string): boolean {
  return LONE_SURROGATE.test(s);
}

/**
 * What a delta's operations do to a profile (SPEC §6.2, RFC 6902 over RFC 6901 pointers): the
 * prediction the catalogue's delta-document cases judge an applicator against. Operations apply in
 * order to one copy; any failure fails the whole delta, nothing written (L2-A5). A pointer is
 * decoded token by token (`~1` after the split, never before: an `id:a~1b` token names the entry
 * `a/b`), must start at `/state` (L2-A2), and an array token is an RFC 6901 index (`0` or digits
 * without a leading zero), `-` (append, `add` only) or `id:<entry id>` naming the entry with exactly
 * that id at apply time (L2-A14). `add` sets an object member, inserts at an index up to the
 * length, and addressed to an `id:` token replaces that entry or appends when none has the id;
 * `replace` needs an existing target; `remove` of a missing target is a no-op with a warning
 * (L2-A13). A missing `state` block and state collection are created by `add`, as a profile that
 * has learned nothing has none. The result must still be a valid profile, else the delta fails.
 */
import { validateProfileSchema } from '../document/schema.js';
import { arrayIndexOf, decodePointer, idOfToken } from './pointer.js';

export interface StateOperation {
  op: string;
  path: string;
  value?: unknown;
}

export type OperationsOutcome = { applied: true; doc: Record<string, unknown>; warnings: string[] } | { applied: false; why: string };

const COLLECTIONS = new Set(['facts', 'preferences', 'glossary', 'open_threads']);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

class Failed extends Error {}

/** The index an existing array element is named by (an index below the length or an exact `id:`), else undefined. */
function existingIndex(arr: unknown[], token: string): number | undefined {
  const id = idOfToken(token);
  if (id !== undefined) {
    const i = arr.findIndex((e) => isRecord(e) && e['id'] === id);
    return i < 0 ? undefined : i;
  }
  const i = arrayIndexOf(token);
  return i !== undefined && i < arr.length ? i : undefined;
}

/** Apply one operation to `doc` in place; a warning for a remove of a missing target. */
function applyOne(doc: Record<string, unknown>, op: StateOperation): string | undefined {
  const tokens = decodePointer(op.path);
  if (tokens === undefined) throw new Failed(`${op.path} is not a JSON Pointer`);
  if (tokens[0] !== 'state') throw new Failed(`${op.path} is outside /state`);
  if (op.op !== 'add' && op.op !== 'replace' && op.op !== 'remove') throw new Failed(`op ${op.op}`);
  const missing = (at: string): string => {
    if (op.op === 'remove') return `${op.path}: ${at} does not exist (nothing removed)`;
    throw new Failed(`${op.path}: ${at} does not exist`);
  };
  let container: unknown = doc;
  for (let i = 0; i < tokens.length - 1; i++) {
    const token = tokens[i] as string;
    let next: unknown;
    if (Array.isArray(container)) {
      const at = existingIndex(container, token);
      next = at === undefined ? undefined : container[at];
    } else if (isRecord(container)) next = Object.hasOwn(container, token) ? container[token] : undefined;
    if (next === undefined && op.op === 'add' && isRecord(container)) {
      if (i === 0) next = container[token] = {};
      else if (i === 1 && COLLECTIONS.has(token)) next = container[token] = [];
    }
    if (next === undefined) return missing(tokens.slice(0, i + 1).join('/'));
    container = next;
  }
  const last = tokens[tokens.length - 1] as string;
  const value = structuredClone(op.value);
  if (Array.isArray(container)) {
    const at = last === '-' ? undefined : existingIndex(container, last);
    if (op.op === 'add') {
      const index = arrayIndexOf(last);
      if (last === '-' || (idOfToken(last) !== undefined && at === undefined)) container.push(value);
      else if (idOfToken(last) !== undefined && at !== undefined) container[at] = value;
      else if (index !== undefined && index <= container.length) container.splice(index, 0, value);
      else throw new Failed(`${op.path}: not an array position`);
      return undefined;
    }
    if (at === undefined) return missing(op.path);
    if (op.op === 'replace') container[at] = value;
    else container.splice(at, 1);
    return undefined;
  }
  if (!isRecord(container)) throw new Failed(`${op.path}: the parent is neither an object nor an array`);
  if (op.op === 'add') {
    container[last] = value;
    return undefined;
  }
  if (!Object.hasOwn(container, last)) return missing(op.path);
  if (op.op === 'replace') container[last] = value;
  else delete container[last];
  return undefined;
}

/** The profile after `operations`, or why the delta fails as a whole. */
export function applyStateOperations(profile: Record<string, unknown>, operations: readonly StateOperation[]): OperationsOutcome {
  const doc = structuredClone(profile);
  const warnings: string[] = [];
  try {
    for (const op of operations) {
      const warning = applyOne(doc, op);
      if (warning !== undefined) warnings.push(warning);
    }
  } catch (e) {
    if (e instanceof Failed) return { applied: false, why: e.message };
    throw e;
  }
  const issues = validateProfileSchema(doc);
  if (issues.length > 0) return { applied: false, why: `the result is not a valid profile (${issues[0]?.pointer}: ${issues[0]?.message})` };
  return { applied: true, doc, warnings };
}

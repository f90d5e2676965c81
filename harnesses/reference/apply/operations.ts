/**
 * Applying delta operations to an in-memory copy of the profile (SPEC §6.2). The caller applies
 * every operation to one copy and writes only if all succeeded, which is what makes application
 * atomic (L2-A5). Semantics: `add` on an existing object key replaces it and on an array index
 * inserts; `add` addressed to an existing `id:` entry replaces that entry (upsert keeps repeated
 * deltas idempotent); `replace` needs an existing target; `remove` of a missing target is a no-op
 * with a warning (L2-A13). Missing `state` and state collections are created on `add`, since a
 * profile that has learned nothing yet has no state block.
 */
import { isObject, type JsonObject } from '../document.js';
import type { Quirks } from '../quirks.js';
import { idOfToken, parsePointer } from '../../../spec/semantics/index.js';

export interface DeltaOperation {
  op: 'add' | 'replace' | 'remove';
  path: string;
  value?: unknown;
}

export class OperationError extends Error {}

export type OpResult = { applied: true } | { applied: false; warning: string };

const COLLECTION_SHAPES: Record<string, () => unknown> = {
  facts: () => [],
  preferences: () => [],
  glossary: () => [],
  open_threads: () => [],
  metrics: () => ({}),
};

export function applyOperation(doc: JsonObject, op: DeltaOperation, quirks: Quirks): OpResult {
  if (op.op !== 'add' && op.op !== 'replace' && op.op !== 'remove') throw new OperationError(`op "${String(op.op)}" is not supported`);
  const tokens = parsePointer(op.path);
  if (tokens.length === 0) throw new OperationError('an operation cannot replace the whole document');
  let container: unknown = doc;
  for (let i = 0; i < tokens.length - 1; i++) {
    const token = tokens[i]!;
    let next = step(container, token, quirks);
    if (next === undefined && op.op === 'add') next = createMissing(container, token, i, tokens);
    if (next === undefined) {
      if (op.op === 'remove') return missing(op, quirks);
      throw new OperationError(`${op.path}: "${tokens.slice(0, i + 1).join('/')}" does not exist`);
    }
    container = next;
  }
  const last = tokens[tokens.length - 1]!;
  if (Array.isArray(container)) return applyToArray(container, last, op, quirks);
  if (isObject(container)) return applyToObject(container, last, op, quirks);
  throw new OperationError(`${op.path}: parent is not an object or array`);
}

function step(container: unknown, token: string, quirks: Quirks): unknown {
  if (Array.isArray(container)) {
    const index = arrayIndex(container, token, quirks);
    return index === undefined ? undefined : container[index];
  }
  if (isObject(container)) return Object.hasOwn(container, token) ? container[token] : undefined;
  return undefined;
}

function createMissing(container: unknown, token: string, depth: number, tokens: string[]): unknown {
  if (!isObject(container)) return undefined;
  if (depth === 0 && token === 'state') {
    const created = {};
    container[token] = created;
    return created;
  }
  if (depth === 1 && tokens[0] === 'state' && COLLECTION_SHAPES[token]) {
    const created = COLLECTION_SHAPES[token]!();
    container[token] = created;
    return created;
  }
  return undefined;
}

/** Index of an existing element named by a decimal index or an `id:` token; undefined if none. */
function arrayIndex(arr: unknown[], token: string, quirks: Quirks): number | undefined {
  const id = quirks.has('no-id-pointers') ? undefined : idOfToken(token);
  if (id !== undefined) {
    const i = arr.findIndex((e) => isObject(e) && e['id'] === id);
    return i < 0 ? undefined : i;
  }
  if (!/^(0|[1-9][0-9]*)$/.test(token)) return undefined;
  const i = Number(token);
  // The L2-A5 mutant (issue 14): a bounds check one too generous, so index == length "exists".
  return i < arr.length || (quirks.has('array-index-off-by-one') && i === arr.length) ? i : undefined;
}

function applyToArray(arr: unknown[], token: string, op: DeltaOperation, quirks: Quirks): OpResult {
  const byId = !quirks.has('no-id-pointers') && idOfToken(token) !== undefined;
  const existing = token === '-' ? undefined : arrayIndex(arr, token, quirks);
  if (op.op === 'add') {
    if (token === '-') arr.push(structuredClone(op.value));
    else if (byId) {
      if (existing === undefined) arr.push(structuredClone(op.value));
      else arr[existing] = structuredClone(op.value);
    } else if (/^(0|[1-9][0-9]*)$/.test(token) && (Number(token) <= arr.length || quirks.has('array-add-index-clamped')))
      // The L2-A5 mutant (issue 14) has no bounds check: splice clamps an index past the end to an append.
      arr.splice(Number(token), 0, structuredClone(op.value));
    else throw new OperationError(`${op.path}: not an array position`);
    return { applied: true };
  }
  if (existing === undefined) {
    if (op.op === 'remove') return missing(op, quirks);
    // The L2-A5 mutant (issue 14): `replace` of an `id:` entry that does not exist upserts it, like `add`.
    if (byId && quirks.has('replace-by-id-upserts')) {
      arr.push(structuredClone(op.value));
      return { applied: true };
    }
    throw new OperationError(`${op.path}: no such element`);
  }
  if (op.op === 'replace') arr[existing] = structuredClone(op.value);
  else arr.splice(existing, 1);
  return { applied: true };
}

function applyToObject(obj: JsonObject, key: string, op: DeltaOperation, quirks: Quirks): OpResult {
  const has = Object.hasOwn(obj, key);
  if (op.op === 'add') {
    obj[key] = structuredClone(op.value);
    return { applied: true };
  }
  if (!has) {
    if (op.op === 'remove') return missing(op, quirks);
    throw new OperationError(`${op.path}: no such member`);
  }
  if (op.op === 'replace') obj[key] = structuredClone(op.value);
  else delete obj[key];
  return { applied: true };
}

function missing(op: DeltaOperation, quirks: Quirks): OpResult {
  if (quirks.has('remove-missing-is-error')) throw new OperationError(`${op.path}: nothing to remove`);
  // The L2-A13 mutant (issue 14): an `id:` that names no entry is an error (index-addressed removes still warn).
  if (quirks.has('remove-missing-id-is-error') && parsePointer(op.path).some((t) => idOfToken(t) !== undefined))
    throw new OperationError(`${op.path}: no entry with that id`);
  return { applied: false, warning: `${op.path}: nothing to remove (no-op)` };
}

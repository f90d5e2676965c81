/**
 * Applying delta operations to an in-memory copy of the profile (SPEC §6.2). The caller applies
 * every operation to one copy and writes only if all succeeded, which is what makes application
 * atomic (L2-A5). Semantics: `add` on an existing object key replaces it and on an array index
 * inserts; `add` addressed to an existing `id:` entry replaces that entry (upsert keeps repeated
 * deltas idempotent); `replace` needs an existing target; `remove` of a missing target is a no-op
 * with a warning (L2-A13). Missing `state` and state collections are created on `add`, since a
 * profile that has learned nothing yet has no state block.
 */
import { isObject, type JsonObject } from '../json.js';
import type { Rules } from '../rules.js';
import { type DeltaOperation, OperationError, type OpResult } from './operation.js';

const COLLECTION_SHAPES: Record<string, () => unknown> = {
  facts: () => [],
  preferences: () => [],
  glossary: () => [],
  open_threads: () => [],
  metrics: () => ({}),
};

export function applyOperation(doc: JsonObject, op: DeltaOperation, rules: Rules): OpResult {
  if (op.op !== 'add' && op.op !== 'replace' && op.op !== 'remove') throw new OperationError(`op "${String(op.op)}" is not supported`);
  const tokens = rules.operationTokens(op.path);
  if (tokens.length === 0) throw new OperationError('an operation cannot replace the whole document');
  let container: unknown = doc;
  for (let i = 0; i < tokens.length - 1; i++) {
    const token = tokens[i]!;
    let next = step(container, token, rules);
    if (next === undefined && op.op === 'add') next = createMissing(container, token, i, tokens);
    if (next === undefined) {
      if (op.op === 'remove') return rules.removeMissing(op);
      throw new OperationError(`${op.path}: "${tokens.slice(0, i + 1).join('/')}" does not exist`);
    }
    container = next;
  }
  const last = tokens[tokens.length - 1]!;
  if (Array.isArray(container)) return applyToArray(container, last, op, rules);
  if (isObject(container)) return applyToObject(container, last, op, rules);
  throw new OperationError(`${op.path}: parent is not an object or array`);
}

function step(container: unknown, token: string, rules: Rules): unknown {
  if (Array.isArray(container)) {
    const index = arrayIndex(container, token, rules);
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
function arrayIndex(arr: unknown[], token: string, rules: Rules): number | undefined {
  const id = rules.entryId(token);
  if (id !== undefined) {
    const i = rules.entryWithId(arr, id);
    return i < 0 ? undefined : i;
  }
  const i = rules.indexOfToken(token, arr.length);
  return i !== undefined && rules.indexExists(i, arr.length) ? i : undefined;
}

function applyToArray(arr: unknown[], token: string, op: DeltaOperation, rules: Rules): OpResult {
  const byId = rules.entryId(token) !== undefined;
  const existing = token === '-' ? undefined : arrayIndex(arr, token, rules);
  if (op.op === 'add') {
    const at = rules.indexOfToken(token, arr.length);
    if (token === '-') arr.push(structuredClone(op.value));
    else if (byId) {
      if (existing === undefined) arr.push(structuredClone(op.value));
      else arr[existing] = structuredClone(op.value);
    } else if (at !== undefined && rules.insertAllowed(at, arr.length)) rules.addAtIndex(arr, at, structuredClone(op.value));
    else throw new OperationError(`${op.path}: not an array position`);
    return { applied: true };
  }
  if (existing === undefined) return op.op === 'remove' ? rules.removeMissing(op) : rules.replaceMissing(arr, op, byId);
  if (op.op === 'replace') arr[existing] = structuredClone(op.value);
  else arr.splice(existing, 1);
  return { applied: true };
}

function applyToObject(obj: JsonObject, key: string, op: DeltaOperation, rules: Rules): OpResult {
  const has = Object.hasOwn(obj, key);
  if (op.op === 'add') {
    obj[key] = structuredClone(op.value);
    return { applied: true };
  }
  if (!has) {
    if (op.op === 'remove') return rules.removeMissing(op);
    throw new OperationError(`${op.path}: no such member`);
  }
  if (op.op === 'replace') obj[key] = structuredClone(op.value);
  else delete obj[key];
  return { applied: true };
}

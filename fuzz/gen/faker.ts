/**
 * Schema-driven random profiles from json-schema-faker 0.6.3, seeded (its own PRNG, `seed`
 * option), bounded (maxItems 3, maxLength 40) and few per run: ~20-60 ms per document, against
 * microseconds for the fast-check arbitraries.
 *
 * The raw output is not always valid: the generator ignores some keywords (a `minLength` on entry
 * text), and it knows nothing of the rules beyond the schema (history newest last and never above
 * `metadata.revision`, credential-shaped strings). The faker property claims every document it
 * generates is valid, so `fakerDocument` repairs what it can, draws again when it cannot, and only
 * ever returns a document for which `fakerProblem` finds nothing.
 */
import { readFileSync } from 'node:fs';
import { generateSync, type JsonSchema } from 'json-schema-faker';
import { fromRoot } from '../../spec/package-root.js';
import { arrayIndexOf, decodePointer, historyByRevision, timeOf, valueAt } from '../../spec/semantics/index.js';
import { oracleIssues } from '../oracle-gate.js';
import { deriveSeed } from '../rng.js';

type Doc = Record<string, unknown>;

let schema: JsonSchema | undefined;
function profileSchema(): JsonSchema {
  schema ??= JSON.parse(readFileSync(fromRoot('spec', 'schemas', 'oap-1.0.1', 'agent-profile.schema.json'), 'utf8')) as JsonSchema;
  return schema;
}

/** The raw generator output for `seed`: the same document on any machine. */
function rawFakerDocument(seed: number): unknown {
  return generateSync(profileSchema(), { seed, maxItems: 3, maxLength: 40 });
}

/** Draws per seed before giving up on json-schema-faker and returning the fallback document. */
const MAX_DRAWS = 8;

/**
 * A valid random profile for `seed`, the same on any machine. Pinned: the version this suite
 * speaks (a random `1.N` is a higher minor the adapter must reject, L1-P4), and no `extends`
 * (random base names never resolve; inheritance is fuzzed by the extends property). Repaired: a
 * history in order and within the revision, unique entry ids and glossary terms, and array
 * entries the oracle refuses removed. When a draw cannot be repaired the next derived seed is
 * drawn; after MAX_DRAWS the document is a fixed minimal one (the generator test shows it never is).
 */
export function fakerDocument(seed: number): Doc {
  for (let draw = 0; draw < MAX_DRAWS; draw++) {
    const doc = repair(pin(rawFakerDocument(draw === 0 ? seed : deriveSeed(seed, `faker-draw-${draw}`) || 1)));
    if (fakerProblem(doc) === undefined) return doc;
  }
  return {
    oap: '1.0',
    kind: 'AgentProfile',
    metadata: { name: 'fz-faker', description: 'Fallback document of the faker generator.' },
    spec: { role: { instructions: 'You are fz-faker.' } },
  };
}

/**
 * Why `doc` is not a document the faker property may call valid, or undefined: the oracle (schema
 * and every rule) refuses it, or it breaks what the property assumes beyond the oracle: entry ids
 * (facts, preferences, open threads) and glossary terms are unique, since `prompt.state.included`
 * and id pointers name entries by them; history times do not go backwards, since a harness may
 * reasonably read "newest last" by time as well as by revision.
 */
export function fakerProblem(doc: Doc): string | undefined {
  const errors = oracleIssues(doc);
  if (errors.length > 0) return `the oracle refuses the document: ${errors[0]!.code} at ${errors[0]!.pointer || '/'}`;
  const state = isObject(doc.state) ? doc.state : {};
  const ids = ['facts', 'preferences', 'open_threads'].flatMap((k) => entries(state[k]).map((e) => e.id));
  const dupId = ids.find((id, i) => ids.indexOf(id) !== i);
  if (dupId !== undefined) return `two state entries share the id ${JSON.stringify(dupId)}`;
  const terms = entries(state.glossary).map((e) => e.term);
  const dupTerm = terms.find((t, i) => terms.indexOf(t) !== i);
  if (dupTerm !== undefined) return `two glossary entries share the term ${JSON.stringify(dupTerm)}`;
  const times = entries(doc.history).map((e) => Date.parse(String(e.at)));
  const back = times.findIndex((t, i) => i > 0 && t < times[i - 1]!);
  if (back > 0) return `history entry ${back} is older than the entry before it`;
  return undefined;
}

function isObject(v: unknown): v is Doc {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function entries(v: unknown): Doc[] {
  return Array.isArray(v) ? v.filter(isObject) : [];
}

function pin(raw: unknown): Doc {
  const doc: Doc = isObject(raw) ? { ...raw } : {};
  doc.oap = '1.0';
  doc.kind = 'AgentProfile';
  delete doc.extends;
  return doc;
}

function repair(doc: Doc): Doc {
  orderHistory(doc);
  uniqueIds(doc);
  // Removing an entry can only shorten arrays; two rounds cover an entry inside an entry.
  for (let round = 0; round < 2; round++) {
    const errors = oracleIssues(doc);
    if (errors.length === 0) break;
    const targets = errors.map((e) => entryOf(e.pointer)).filter((t): t is (string | number)[] => t !== undefined);
    if (targets.length < errors.length) break;
    for (const t of uniqueDescending(targets)) removeAt(doc, t);
  }
  return doc;
}

/**
 * History newest last (SPEC §3.10) in the spec model's order, which is revision order: entries
 * sorted by the revision they log, then renumbered consecutively to end at the profile's revision
 * (raised to the number of entries when it is lower, or absent). The times are then dealt out in
 * that order, oldest first, since a harness may reasonably read "newest last" by time as well
 * (`fakerProblem`).
 */
function orderHistory(doc: Doc): void {
  const history = historyByRevision(entries(doc.history));
  if (!Array.isArray(doc.history) || history.length === 0) return;
  const meta = isObject(doc.metadata) ? doc.metadata : undefined;
  const declared = meta?.revision;
  let current = Number.isInteger(declared) ? (declared as number) : 1;
  if (current < history.length) {
    current = history.length;
    if (meta) meta.revision = current;
  }
  const times = history.map((e) => e.at).sort((a, b) => timeOf(a) - timeOf(b));
  history.forEach((e, i) => {
    e.revision = current - history.length + 1 + i;
    e.at = times[i];
  });
  doc.history = history;
}

/** Entry ids unique across facts, preferences and open threads; glossary terms unique. */
function uniqueIds(doc: Doc): void {
  if (!isObject(doc.state)) return;
  const state = doc.state;
  const fresh = (taken: Set<string>, base: string, max: number): string => {
    let n = 2;
    let v = base;
    while (taken.has(v)) v = `${base.slice(0, max - String(n).length - 1)}-${n++}`;
    taken.add(v);
    return v;
  };
  const ids = new Set<string>();
  for (const k of ['facts', 'preferences', 'open_threads'])
    for (const e of entries(state[k])) if (typeof e.id === 'string') e.id = fresh(ids, e.id, 120);
  const terms = new Set<string>();
  for (const e of entries(state.glossary)) if (typeof e.term === 'string') e.term = fresh(terms, e.term, 200);
}

/** The tokens of the nearest array element at or above `pointer`, or undefined when there is none. */
function entryOf(pointer: string): (string | number)[] | undefined {
  const tokens = decodePointer(pointer) ?? [];
  for (let n = tokens.length; n > 0; n--) {
    const index = arrayIndexOf(tokens[n - 1]!);
    if (index !== undefined) return [...tokens.slice(0, n - 1), index];
  }
  return undefined;
}

/** Distinct paths, later (and deeper) ones first, so removing one never shifts another. */
function uniqueDescending(paths: (string | number)[][]): (string | number)[][] {
  const seen = new Map(paths.map((p) => [JSON.stringify(p), p]));
  const cmp = (a: (string | number)[], b: (string | number)[]): number => {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const x = a[i]!;
      const y = b[i]!;
      if (x === y) continue;
      if (typeof x === 'number' && typeof y === 'number') return x - y;
      return String(x) < String(y) ? -1 : 1;
    }
    return a.length - b.length;
  };
  return [...seen.values()].sort((a, b) => cmp(b, a));
}

function removeAt(doc: Doc, path: (string | number)[]): void {
  const node = valueAt(doc, path.slice(0, -1).map(String));
  if (Array.isArray(node)) node.splice(path[path.length - 1] as number, 1);
}

/**
 * Legal forms and accommodations. Where the spec allows a document or a delta to say the same thing
 * in more than one way (an optional member left out or given its default, an append written as
 * `/-`, as the next index or as `id:<new id>`, a delta pinned by digest or by revision alone, one
 * encoding or another), a harness may accept only some of them. Refusing a legal form is a defect
 * of the ID that form belongs to, and one case owns it (suites/calibration); every other case is
 * built in a form the harness accepted, so it still judges its own requirement.
 *
 * The calibration phase (suites/calibration) learns which accommodations a harness needs; the run
 * carries them to every case (runner/engine: RunConfig), and the case runner opens the case scope
 * (./scope.ts) with those that apply to the case: all of them but the ones whose aspect the case
 * is about (`CaseDef.about`). The document writer (`serializeDocument`), the working encoding and the
 * adapter boundary of `apply_delta` (`accommodateDelta`) read the scope; nothing else does.
 * Every accommodation that changed an input is recorded on the case's record.
 */
import { isDeepStrictEqual } from 'node:util';
import { ACCOMMODATIONS, type Accommodation, FILLED_UPDATED_AT, type FormAspect } from './accommodations.js';
import { caseScope } from './scope.js';

/** The accommodation of `aspect` in scope, if any; it is recorded as used only by `use`. */
function inScope(aspect: FormAspect): Accommodation | undefined {
  return caseScope()?.accommodations.find((a) => ACCOMMODATIONS[a].aspect === aspect);
}

/**
 * The accommodations in scope of the given aspects (none outside a case): what a case that is about
 * one aspect builds its other aspects with, when it builds a form explicitly (suites/calibration).
 */
export function accommodationsInScope(aspects: readonly FormAspect[]): Accommodation[] {
  return (caseScope()?.accommodations ?? []).filter((a) => aspects.includes(ACCOMMODATIONS[a].aspect));
}

function use(a: Accommodation): void {
  caseScope()?.used(a);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

// ------------------------------------------------------------------------------------- profiles

/** `doc` with the optional metadata members the accommodations name filled in where absent. */
export function fillOptionalMetadata(doc: unknown, accommodations: readonly Accommodation[]): { doc: unknown; filled: Accommodation[] } {
  if (!isRecord(doc) || doc['kind'] !== 'AgentProfile' || !isRecord(doc['metadata'])) return { doc, filled: [] };
  const metadata = { ...doc['metadata'] };
  const filled: Accommodation[] = [];
  if (accommodations.includes('metadata-revision') && metadata['revision'] === undefined) {
    metadata['revision'] = 1;
    filled.push('metadata-revision');
  }
  if (accommodations.includes('metadata-updated-at') && metadata['updated_at'] === undefined) {
    metadata['updated_at'] = FILLED_UPDATED_AT;
    filled.push('metadata-updated-at');
  }
  return filled.length === 0 ? { doc, filled } : { doc: { ...doc, metadata }, filled };
}

/**
 * A profile as the case scope writes it: with the optional metadata the harness would not accept
 * absent. Documents of another kind, and documents in no case scope, are returned as they are.
 */
export function accommodateDocument(doc: unknown): unknown {
  const store = caseScope();
  if (!store) return doc;
  const { doc: out, filled } = fillOptionalMetadata(doc, store.accommodations);
  for (const a of filled) use(a);
  return out;
}

/** The encoding the case scope writes in, when calibration found the preferred one refused. */
export function accommodatedEncoding(claimed: readonly string[]): 'yaml' | 'json' | 'md' | undefined {
  const a = inScope('encoding');
  if (!a) return undefined;
  const encoding = a.slice('encoding-'.length) as 'yaml' | 'json' | 'md';
  if (!claimed.includes(encoding)) return undefined;
  use(a);
  return encoding;
}

// --------------------------------------------------------------------------------------- deltas

/** What a delta transform needs of the profile it is applied to (read by the oracle). */
export interface DeltaTarget {
  /** The profile's logical document; undefined when the oracle cannot read it. */
  doc: Record<string, unknown> | undefined;
  profileDigest: () => string;
  specDigest: () => string;
}

const COLLECTION_APPEND = /^\/state\/(facts|preferences|open_threads|glossary)\/-$/;
const COLLECTION_INDEX = /^\/state\/(facts|preferences|open_threads|glossary)\/(0|[1-9][0-9]*)$/;

/** Rewrite `add /state/<collection>/-` into the accepted form, following each collection's length op by op. */
function rewriteAppends(operations: unknown[], doc: Record<string, unknown> | undefined, form: 'index' | 'id'): unknown[] | undefined {
  const state = isRecord(doc?.['state']) ? doc['state'] : {};
  const length = new Map<string, number>();
  const lengthOf = (c: string): number => length.get(c) ?? (Array.isArray(state[c]) ? (state[c] as unknown[]).length : 0);
  const hasEntry = (c: string, id: string): boolean =>
    Array.isArray(state[c]) && (state[c] as unknown[]).some((e) => isRecord(e) && e['id'] === id);
  let changed = false;
  const out: unknown[] = [];
  for (const op of operations) {
    if (!isRecord(op) || typeof op['path'] !== 'string') return undefined;
    const path = op['path'];
    const append = COLLECTION_APPEND.exec(path);
    const index = COLLECTION_INDEX.exec(path);
    if (op['op'] === 'add' && append) {
      const c = append[1]!;
      const id = isRecord(op['value']) ? op['value']['id'] : undefined;
      if (form === 'id' && typeof id !== 'string') return undefined;
      out.push({ ...op, path: form === 'index' ? `/state/${c}/${lengthOf(c)}` : `/state/${c}/id:${String(id)}` });
      length.set(c, lengthOf(c) + 1);
      changed = true;
      continue;
    }
    const byId = /^\/state\/(facts|preferences|open_threads|glossary)\/id:([^/]+)$/.exec(path);
    const whole = /^\/state(?:\/(facts|preferences|open_threads|glossary))?$/.exec(path);
    if (index && op['op'] === 'add') length.set(index[1]!, lengthOf(index[1]!) + 1);
    else if (index && op['op'] === 'remove' && Number(index[2]) < lengthOf(index[1]!)) length.set(index[1]!, lengthOf(index[1]!) - 1);
    else if (byId && op['op'] === 'remove' && hasEntry(byId[1]!, byId[2]!)) length.set(byId[1]!, lengthOf(byId[1]!) - 1);
    else if (whole?.[1]) length.set(whole[1], op['op'] !== 'remove' && Array.isArray(op['value']) ? op['value'].length : 0);
    else if (whole) {
      // The whole state written or removed: each collection is as long as the value says.
      const value = op['op'] !== 'remove' && isRecord(op['value']) ? op['value'] : {};
      for (const c of ['facts', 'preferences', 'open_threads', 'glossary'])
        length.set(c, Array.isArray(value[c]) ? (value[c] as unknown[]).length : 0);
    }
    out.push(op);
  }
  return changed ? out : undefined;
}

/**
 * A delta as the case scope sends it: appends in the accepted pointer form, and an unpinned delta
 * aimed at the revision on disk pinned the accepted way. A delta that is not an object, or whose
 * operations the rewrite cannot follow, is sent as it is.
 */
export function accommodateDelta(delta: Record<string, unknown>, target: () => DeltaTarget): Record<string, unknown> {
  const append = inScope('append');
  const pin = inScope('pin');
  if (!append && !pin) return delta;
  const t = target();
  let out = delta;
  if (append && Array.isArray(delta['operations'])) {
    const rewritten = rewriteAppends(delta['operations'], t.doc, append === 'append-by-index' ? 'index' : 'id');
    if (rewritten) {
      out = { ...out, operations: rewritten };
      use(append);
    }
  }
  const targetOf = isRecord(out['target']) ? out['target'] : undefined;
  if (pin && targetOf && targetOf['digest'] === undefined && t.doc) {
    const meta = isRecord(t.doc['metadata']) ? t.doc['metadata'] : {};
    const onDisk = typeof meta['revision'] === 'number' ? meta['revision'] : 1;
    // A stale delta (a conflict case) names another revision: a digest of today's file would not be its pin.
    if (targetOf['revision'] === onDisk) {
      const digest = pin === 'pin-profile-digest' ? t.profileDigest() : t.specDigest();
      out = { ...out, target: { ...targetOf, digest } };
      use(pin);
    }
  }
  if (isDeepStrictEqual(out, delta)) return delta;
  caseScope()?.input('delta as sent', out);
  return out;
}

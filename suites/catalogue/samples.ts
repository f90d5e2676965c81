/**
 * A catalogue class's samples (spec/semantics/catalogue-model.ts `Sample`: `"<side>:<pointer>"` →
 * value) turned into the documents a case sends: the minimal profile with the profile-side values
 * placed (spec/document/schema-bounds.ts placeAt keeps every object on the way schema-valid), the
 * permissive policy with the policy-side values set. Nothing else is added, so a generated case is
 * minimal: only the fields its class names differ from the suite's minimal profile and policy.
 */
import { parse as parseYaml } from 'yaml';
import type { HarnessPolicyT } from '../../protocol/messages.js';
import { placeAt } from '../../spec/document/schema-bounds.js';
import type { EquivalenceClass, Sample, Side } from '../../spec/semantics/catalogue-model.js';
import { decodePointer } from '../../spec/semantics/index.js';
import type { CaseContext } from '../kit/types.js';
import { GENERATED_ENCODINGS, minimalProfile, permissivePolicy, workingEncoding, writeProjectProfile } from '../support/index.js';

type Doc = Record<string, unknown>;

/** The sides a sample sets values on. */
function sidesOf(sample: Sample): Set<Side> {
  return new Set(Object.keys(sample).map((k) => k.slice(0, k.indexOf(':')) as Side));
}

/** Every side the class's samples set, over all its values. */
export function classSides(c: EquivalenceClass): Set<Side> {
  return new Set(c.values.flatMap((v) => [...sidesOf(v)]));
}

/** The sample's `[pointer, value]` pairs of one side, in the order written. */
export function valuesOn(sample: Sample, side: Side): Array<[string, unknown]> {
  return Object.entries(sample)
    .filter(([k]) => k.startsWith(`${side}:`))
    .map(([k, v]) => [k.slice(side.length + 1), v]);
}

/** A copy of `value` (samples are shared catalogue data and must never be changed by a case). */
const copy = <T>(value: T): T => (value === undefined ? value : (structuredClone(value) as T));

/** Set (or, for `undefined`, remove) `value` at `pointer` in `doc`, creating objects on the way. */
export function setAt(doc: Doc, pointer: string, value: unknown): void {
  const tokens = decodePointer(pointer);
  if (tokens === undefined || tokens.length === 0) throw new Error(`suite bug: sample pointer ${pointer}`);
  let cur: Doc = doc;
  for (const t of tokens.slice(0, -1)) {
    const next = cur[t];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) cur[t] = {};
    cur = cur[t] as Doc;
  }
  const last = tokens[tokens.length - 1] as string;
  if (value === undefined) delete cur[last];
  else cur[last] = copy(value);
}

/** The document text a class about text sets on `side` (`<side>:source`: a YAML fragment of the document), if any. */
export function sourceOf(sample: Sample, side: Side = 'profile'): string | undefined {
  const text = sample[`${side}:source`];
  return typeof text === 'string' ? text : undefined;
}

/** The `[pointer, value]` leaves of a parsed YAML fragment (lists and scalars whole). */
function leaves(value: unknown, pointer = ''): Array<[string, unknown]> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return pointer === '' ? [] : [[pointer, value]];
  return Object.entries(value).flatMap(([k, v]) => leaves(v, `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`));
}

/**
 * The minimal profile named `name` with the sample's values of `side` (a profile-shaped side) placed;
 * a `source` fragment is placed as YAML 1.2 reads it (SPEC's encoding), the reading the prediction is of.
 */
export function profileFrom(name: string, sample: Sample, side: Side = 'profile'): Doc {
  const doc = minimalProfile(name);
  const source = sourceOf(sample, side);
  const placed = [
    ...valuesOn(sample, side).filter(([pointer]) => pointer !== 'source'),
    ...(source === undefined ? [] : leaves(parseYaml(source, { version: '1.2' }))),
  ];
  for (const [pointer, value] of placed) {
    if (pointer === '/metadata/name') continue;
    placeAt('profile', pointer, copy(value), doc);
  }
  return doc;
}

/** The permissive policy with the sample's policy values set. */
export function policyFrom(sample: Sample): HarnessPolicyT {
  const policy = structuredClone(permissivePolicy()) as unknown as Doc;
  for (const [pointer, value] of valuesOn(sample, 'policy')) setAt(policy, pointer, value);
  return policy as unknown as HarnessPolicyT;
}

/** `spec` of a profile document. */
export const specOf = (doc: Doc): unknown => doc['spec'];

/** Write a generated document into the case's project root, in the generated encoding (GENERATED_ENCODINGS says why); the path. */
export function generatedProfile(ctx: CaseContext, doc: Doc): string {
  return writeProjectProfile(ctx, doc, { encoding: workingEncoding(ctx.handshake, GENERATED_ENCODINGS) });
}

/**
 * The grammar boundaries of the OAP schemas (spec/document/schema-bounds.ts) as the values a case
 * submits, one group per keyword and side, and how a case reports the ones an adapter got wrong.
 * Level 1 judges the profile schema's (validate and instantiate), Level 2 the delta schema's
 * (apply_delta); both group the same way, so a defect at one keyword fails one case of its side.
 * A group knows its bounds from the schemas alone; the values are derived the first time a case
 * runs and kept for the rest of the run, so listing the suite costs nothing.
 */
import { type BoundPlace, type OapSchema, type SchemaBound, boundPlaces, schemaBounds } from '../../spec/document/schema-bounds.js';
import { AdapterProtocolError } from '../../protocol/errors.js';

/** One value at one bound, and the edge it stands for. */
export interface BoundValue {
  bound: SchemaBound;
  value: unknown;
  why: string;
}

type Keyword = SchemaBound['keyword'];
type Side = 'inside' | 'outside' | 'beyond';

/** The keywords in the order their cases come, each with the word its case IDs use. */
export const KEYWORD_SLUGS: Readonly<Record<Keyword, string>> = {
  pattern: 'pattern',
  minLength: 'min-length',
  maxLength: 'max-length',
  minimum: 'minimum',
  maximum: 'maximum',
  exclusiveMinimum: 'exclusive-minimum',
  exclusiveMaximum: 'exclusive-maximum',
  minItems: 'min-items',
  maxItems: 'max-items',
  enum: 'enum',
  const: 'const',
  format: 'format',
};

export interface BoundGroup {
  keyword: Keyword;
  /** The bounds of the group, known without their values. */
  bounds: BoundPlace[];
  /** Every value of the group's side at its bounds, derived once. */
  values(): BoundValue[];
}

/**
 * A schema's bounds of one side, grouped by keyword in KEYWORD_SLUGS order: `inside` (valid),
 * `outside` (refused by the keyword; a `format` bound's never, JSON Schema making `format` an
 * annotation), or `beyond` (admitted by the keyword, refused by a rule beyond the schema).
 * Disputed values are never judged (the format's standard and validators differ on them).
 */
export function boundGroups(schema: OapSchema, side: Side, keep: (bound: BoundPlace) => boolean = () => true): BoundGroup[] {
  const places = boundPlaces().filter((b) => b.schema === schema && keep(b) && (side !== 'outside' || b.outsideJudged));
  return (Object.keys(KEYWORD_SLUGS) as Keyword[]).flatMap((keyword) => {
    const bounds = places.filter((b) => b.keyword === keyword);
    if (bounds.length === 0) return [];
    let values: BoundValue[] | undefined;
    return [{ keyword, bounds, values: () => (values ??= valuesOf(bounds, side)) }];
  });
}

function valuesOf(places: readonly BoundPlace[], side: Side): BoundValue[] {
  const ids = new Set(places.map((b) => b.id));
  return schemaBounds()
    .filter((b) => ids.has(b.id))
    .flatMap((bound) =>
      (side === 'inside' ? bound.inside : side === 'outside' ? bound.outside : bound.beyondSchema).map((v) => ({
        bound,
        value: v.value,
        why: v.why,
      })),
    );
}

/** What a harness answered, or the protocol error it gave instead: never a refusal (INTERPRETATIONS.md "Refusing a document is an answer"). */
export type Answered<T> = { ok: true; result: T } | { ok: false; protocolError: string };

/** The call's answer; a protocol error is kept as the wrong answer it is, anything else (a decline, a crash, a timeout) ends the case as usual. */
export async function answered<T>(call: Promise<T>): Promise<Answered<T>> {
  try {
    return { ok: true, result: await call };
  } catch (err) {
    if (err instanceof AdapterProtocolError) return { ok: false, protocolError: err.message };
    throw err;
  }
}

/** A value as a report shows it: JSON, long ones cut with their length. */
export function valueLabel(v: unknown): string {
  const s = Object.is(v, -0) ? '-0' : (JSON.stringify(v) ?? String(v));
  return s.length > 48 ? `${s.slice(0, 32)}… (${s.length} characters of JSON)` : s;
}

/** How many wrong answers a failure lists in full; the message always gives the count. */
export const LISTED_WRONG = 40;
/** How many of the wrongly answered documents a failure records as inputs. */
export const RECORDED_WRONG = 5;

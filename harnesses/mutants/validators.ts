/**
 * Profile validators of the boundary mutants (issue 20), each off at one edge of the schema's
 * grammar the way a hand-written or misconfigured validator is: string lengths in UTF-16 units,
 * timestamps read by an upper-case-only pattern. The places a keyword applies to come from the
 * schema itself (spec/document/schema-bounds.ts), so the mutant is wrong exactly where the
 * keyword is and nowhere else.
 */
import { type OapSchema, schemaBounds } from '../../spec/document/schema-bounds.js';
import { issue, type OapIssue } from '../../spec/document/issue.js';
import { escapePointerToken } from '../../spec/semantics/index.js';
import { isObject } from '../reference/json.js';

/** Every value of `doc` at a schema place (`*` = every array item or member), with its concrete pointer. */
export function valuesAtPlace(doc: unknown, place: string): Array<{ pointer: string; value: unknown }> {
  let found: Array<{ pointer: string; value: unknown }> = [{ pointer: '', value: doc }];
  for (const token of place.slice(1).split('/')) {
    const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
    found = found.flatMap(({ pointer, value }) => {
      if (token === '*') {
        const entries: Array<[string, unknown]> = Array.isArray(value)
          ? value.map((v, i) => [String(i), v])
          : isObject(value)
            ? Object.entries(value)
            : [];
        return entries.map(([k, v]) => ({ pointer: `${pointer}/${escapePointerToken(k)}`, value: v }));
      }
      return isObject(value) && Object.hasOwn(value, key) ? [{ pointer: `${pointer}/${token}`, value: value[key] }] : [];
    });
  }
  return found;
}

/** A schema's places of one keyword, with its limit. */
function placesOf(schema: OapSchema, keyword: 'maxLength' | 'format'): Array<{ pointer: string; limit: unknown }> {
  return schemaBounds()
    .filter((b) => b.schema === schema && b.keyword === keyword)
    .map((b) => ({ pointer: b.pointer, limit: b.limit }));
}

/**
 * What a validator that counts string length in UTF-16 code units (JavaScript's `.length`, ajv
 * with `unicode: false`) adds to the correct findings: a `maxLength` refusal for every string
 * within the limit in characters but over it in code units (characters outside the BMP count twice).
 */
export function utf16LengthIssues(doc: unknown, schema: OapSchema = 'profile'): OapIssue[] {
  return placesOf(schema, 'maxLength').flatMap(({ pointer, limit }) =>
    valuesAtPlace(doc, pointer)
      .filter(({ value }) => typeof value === 'string' && value.length > (limit as number) && [...value].length <= (limit as number))
      .map(({ pointer: at }) => issue('schema.maxLength', at, `must NOT have more than ${String(limit)} characters`)),
  );
}

/** RFC 3339 §5.6 `date-time`, letters in either case (the RFC's NOTE allows lower-case `t` and `z`). */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

/**
 * What a validator that reads timestamps with an upper-case-only pattern adds: a `format` refusal
 * for every date-time value written with a lower-case `t` or `z`.
 */
export function lowerCaseTimestampIssues(doc: unknown): OapIssue[] {
  return placesOf('profile', 'format').flatMap(({ pointer }) =>
    valuesAtPlace(doc, pointer)
      .filter(({ value }) => typeof value === 'string' && DATE_TIME.test(value) && /[tz]/.test(value))
      .map(({ pointer: at }) => issue('schema.format', at, 'must match format "date-time"')),
  );
}

/**
 * The fuzz generators draw from the boundary catalogue's classes (issue 20 part 2): the values a
 * dimension's classes give one field, on one side, taken from every class that is a case (not
 * excluded, not refused by the schema), so a generator samples the same equivalence classes the
 * fixed cases cover instead of a list of its own. Arrays are flattened to their members.
 */
import { placeAt } from '../../spec/document/schema-bounds.js';
import { CATALOGUE } from '../../spec/semantics/catalogue.js';
import { minimalProfile } from '../../suites/support/index.js';
import { oracleIssues } from '../oracle-gate.js';

/** Every value the catalogue's classes of `dimension` give `<side>:<pointer>`, deduplicated, in catalogue order. */
export function catalogueValues(dimension: string, key: string): unknown[] {
  const d = CATALOGUE.find((x) => x.id === dimension);
  if (d === undefined) throw new Error(`fuzz generator names unknown catalogue dimension ${dimension}`);
  const out: unknown[] = [];
  for (const c of d.classes) {
    if (c.exclusion !== undefined || c.schemaInvalid) continue;
    for (const v of c.values) {
      const x = v[key];
      for (const member of Array.isArray(x) ? x : x === undefined ? [] : [x]) {
        if (!out.some((o) => JSON.stringify(o) === JSON.stringify(member))) out.push(member);
      }
    }
  }
  return out;
}

/** The finite numbers among `catalogueValues`. */
export function catalogueNumbers(dimension: string, key: string): number[] {
  return catalogueValues(dimension, key).filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
}

/** The string values of `catalogueValues`. */
export function catalogueStrings(dimension: string, key: string): string[] {
  return catalogueValues(dimension, key).filter((v): v is string => typeof v === 'string');
}

/**
 * The string values the catalogue gives a profile list at `pointer` (`profile:<pointer>`) that the
 * oracle accepts as one member of that list in a minimal profile: a value the oracle refuses as a
 * document (a root leaving the workspace, a scope outside its pattern) would only be discarded by
 * the property, never judged.
 */
export function catalogueProfileMembers(dimension: string, pointer: string): string[] {
  return catalogueStrings(dimension, `profile:${pointer}`).filter(
    (v) => oracleIssues(placeAt('profile', pointer, [v], minimalProfile('catalogue-member'))).length === 0,
  );
}

import { describe, expect, it } from 'vitest';
import { validationSubject, withoutNullMembers } from '../../spec/document/index.js';

// SPEC §4 rule 3: in a layer that uses `extends`, an explicit null is a merge directive, not a value
// (INTERPRETATIONS.md, L3-E1, null in a layer).
describe('validationSubject', () => {
  it('leaves the null merge directives of a layer with extends out, at every depth', () => {
    const layer = { extends: ['base'], spec: { model: null, role: { instructions: 'x', objectives: null } } };
    expect(validationSubject(layer)).toEqual({ extends: ['base'], spec: { role: { instructions: 'x' } } });
  });
  it('keeps the document as it is without extends, so a null there is judged by the schema', () => {
    const doc = { spec: { model: null } };
    expect(validationSubject(doc)).toBe(doc);
  });
  it('keeps array elements, null included, and never edits its argument', () => {
    const v = { a: [null, { b: null, c: 1 }] };
    expect(withoutNullMembers(v)).toEqual({ a: [null, { c: 1 }] });
    expect(v).toEqual({ a: [null, { b: null, c: 1 }] });
  });
});

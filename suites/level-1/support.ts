/**
 * JSON Pointer matching for the Level 1 cases (the only level that judges where a validation error
 * points, L1-P6, and which adjustment covers a field, L1-I9). Everything the levels share is in
 * suites/support. Pointers are compared with the spec model's (spec/semantics/pointer.ts).
 */
import { isAncestorOrSelf, parentPointer } from '../../spec/semantics/index.js';

/**
 * The pointer matching rule for validation errors (see INTERPRETATIONS.md, Level 1): an error
 * locates the problem when its pointer equals the expected one; for `required` and
 * `additionalProperties` failures the pointer of the object that lacks or carries the member is
 * accepted as well, because both readings are common and both point a reader at the right place.
 */
export function pointerMatches(observed: string, expected: string, parentAccepted: boolean): boolean {
  if (observed === expected) return true;
  return parentAccepted && observed === parentPointer(expected);
}

/** Is `pointer` equal to `field`, below it, or its direct parent (never `""` or `/spec`)? (the I9 coverage rule) */
export function pointerCovers(pointer: string, field: string): boolean {
  return isAncestorOrSelf(field, pointer) || (pointer !== '' && pointer !== '/spec' && pointer === parentPointer(field));
}

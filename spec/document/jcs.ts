import canonicalize from 'canonicalize';
import { hasLoneSurrogate, pointerOfPath, walkJson } from './json-walk.js';

/** A value that has no RFC 8785 form; `code` is an issue code, `pointer` where the value is. */
export class CanonicalizationError extends Error {
  constructor(
    readonly code: string,
    readonly pointer: string,
    message: string,
  ) {
    super(message);
    this.name = 'CanonicalizationError';
  }
}

/**
 * RFC 8785 JSON Canonicalization Scheme.
 *
 * The `canonicalize` package is correct for JSON data: it sorts keys with the default string
 * comparison (UTF-16 code units, as RFC 8785 §3.2.3 requires), serialises numbers with
 * ECMAScript Number-to-String (§3.2.2.3, so -0 → 0, 1e21 → 1e+21) and strings with
 * JSON.stringify (§3.2.2.2). What it does not do is tell us *where* a bad value is, and it
 * quietly accepts non-JSON inputs (functions, Dates via toJSON, Maps as {}). So every value is
 * checked first and refused with our own error: non-finite numbers are `non-finite` (SPEC §2.2
 * MUST reject), never serialised as null.
 */
export function canonicalJson(value: unknown): string {
  assertCanonicalizable(value);
  const out = canonicalize(value);
  if (out === undefined) throw new CanonicalizationError('other.not-json', '', 'value has no JSON form');
  return out;
}

function assertCanonicalizable(value: unknown): void {
  walkJson(value, {
    string(s, path, isKey) {
      if (hasLoneSurrogate(s)) {
        throw new CanonicalizationError(
          'other.lone-surrogate',
          pointerOfPath(path),
          `${isKey ? 'key' : 'string'} contains an unpaired surrogate`,
        );
      }
    },
    number(n, path) {
      if (!Number.isFinite(n)) throw new CanonicalizationError('non-finite', pointerOfPath(path), `${n} cannot be canonicalized`);
    },
    invalid(reason, path, detail) {
      throw new CanonicalizationError(
        reason === 'cycle' ? 'other.cycle' : 'other.not-json',
        pointerOfPath(path),
        `${detail} is not JSON data`,
      );
    },
  });
}

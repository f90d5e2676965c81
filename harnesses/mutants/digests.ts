/**
 * Canonicalisers of the digest mutants, each departing from RFC 8785 (JCS) in one way a real one
 * does: key order, number form, string escaping, or plain JSON.stringify output.
 */
import { createHash } from 'node:crypto';
import { specDigestInput } from '../../spec/document/index.js';
import type { JsonObject } from '../reference/json.js';

/** The digest a harness gets by hashing plain JSON.stringify output: key order as written, so not JCS. */
export function plainJsonDigest(v: unknown): string {
  return `sha256:${createHash('sha256').update(JSON.stringify(v)).digest('hex')}`;
}

/** How a canonicaliser writes keys, numbers and strings; the defaults are RFC 8785's (ECMAScript forms, UTF-16 key order). */
export interface Canonical {
  compare(a: string, b: string): number;
  number(n: number): string;
  string(s: string): string;
}

const RFC8785: Canonical = {
  compare: (a, b) => (a < b ? -1 : a > b ? 1 : 0),
  number: (n) => JSON.stringify(n),
  string: (s) => JSON.stringify(s),
};

export function canonicalDigest(value: unknown, variant: Partial<Canonical>): string {
  const c = { ...RFC8785, ...variant };
  const write = (v: unknown): string => {
    if (v === null || typeof v === 'boolean') return JSON.stringify(v);
    if (typeof v === 'number') return c.number(v);
    if (typeof v === 'string') return c.string(v);
    if (Array.isArray(v)) return `[${v.map(write).join(',')}]`;
    const o = v as JsonObject;
    return `{${Object.keys(o)
      .sort(c.compare)
      .map((k) => `${c.string(k)}:${write(o[k])}`)
      .join(',')}}`;
  };
  return `sha256:${createHash('sha256').update(write(value)).digest('hex')}`;
}

/** Keys sorted by Unicode code point (Python's sorted()), not by UTF-16 code unit as RFC 8785 requires. */
export function byCodePoints(a: string, b: string): number {
  const x = Array.from(a, (ch) => ch.codePointAt(0)!);
  const y = Array.from(b, (ch) => ch.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

/** Python's repr of a float: exponent notation below 1e-4 and from 1e16 on, with a two-digit exponent. */
export function pythonFloatRepr(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e16) return String(n);
  const [mantissa, exp] = n.toExponential().split('e') as [string, string];
  const e = Number(exp);
  if (e < -4 || e >= 16) return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  return String(n);
}

/** JSON with every non-ASCII UTF-16 unit escaped (Python's json.dumps default, ensure_ascii). */
export function asciiJson(s: string): string {
  return JSON.stringify(s).replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Both digests of a document through one canonicaliser (the spec digest over SPEC §2.2's input). */
export function canonicalDigests(doc: unknown, variant: Partial<Canonical>): { profile_digest: string; spec_digest: string } {
  return { profile_digest: canonicalDigest(doc, variant), spec_digest: canonicalDigest(specDigestInput(doc), variant) };
}

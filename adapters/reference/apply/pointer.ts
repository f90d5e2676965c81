/**
 * JSON Pointer handling for delta operations (RFC 6901, SPEC §6.2), including the convenience
 * token `id:<entry-id>` that names an array entry by its stable id and is resolved to the current
 * index at apply time (L2-A14).
 */
import { parsePointer } from '../../../spec/document/issue.js';

export function tokensOf(path: string): string[] {
  return parsePointer(path);
}

/**
 * Is the path inside /state? The first token must be exactly "state", and no token may be "." or
 * "..": JSON Pointer has no relative steps, so such a token can only be an attempt to make a
 * sloppy applicator normalize `/state/../spec` into `/spec`.
 */
export function inStateScope(path: string): boolean {
  if (!path.startsWith('/')) return false;
  const tokens = tokensOf(path);
  return tokens[0] === 'state' && !tokens.some((t) => t === '.' || t === '..');
}

/** Stable addressing: entries by id or appends, which still mean the same thing on a newer revision. */
export function isPositionIndependent(path: string): boolean {
  const tokens = tokensOf(path);
  return tokens.some((t) => t.startsWith('id:')) || tokens[tokens.length - 1] === '-';
}

export function idOfToken(token: string): string | undefined {
  return token.startsWith('id:') ? token.slice(3) : undefined;
}

/** The L2-A2 mutant's mistake: treating a pointer as a file path and normalizing it. */
export function normalizeAsFilePath(path: string): string {
  const out: string[] = [];
  for (const t of path.split('/').slice(1)) {
    if (t === '.') continue;
    if (t === '..') out.pop();
    else out.push(t);
  }
  return `/${out.join('/')}`;
}

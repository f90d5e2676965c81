/**
 * JSON Pointers in deltas (RFC 6901, RFC 6902; SPEC §5.6 step 4, §6.2; conformance.md L2-A2, A14).
 *
 * Reading (INTERPRETATIONS.md#pointers): "`path` is an RFC 6901 JSON
 * Pointer rooted at `/state`" (§6.2), so a path is in scope exactly when its first reference
 * token is `state`. RFC 6901 has no relative steps: **a `..` token is a member literally named
 * `..`**, so `/state/../spec/x` names a key `..` inside `/state` and does not leave it. A harness
 * may apply it as that literal key or refuse it; only an effect outside `/state` violates L2-A2.
 * The convenience token `id:<entry-id>` (§6.2, L2-A14) names the array entry with that `id` at
 * apply time. An operation is position independent (still means the same entry on a newer
 * revision, §6.3 "Operations addressing entries by `id` usually do [apply cleanly]") when it
 * addresses an entry by `id:` or appends with `-`.
 */

/** RFC 6901 encoding of one reference token (`~` → `~0`, `/` → `~1`). */
export function escapePointerToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The pointer naming `tokens` (`[]` → `""`, the whole document). */
export function pointerOf(tokens: ReadonlyArray<string | number>): string {
  return tokens.map((t) => `/${escapePointerToken(t)}`).join('');
}

/** Reference tokens of a pointer, or undefined when it is not one (no leading `/`, or `~` not followed by 0 or 1). */
export function decodePointer(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return undefined;
  const tokens = pointer.slice(1).split('/');
  if (tokens.some((t) => /~(?![01])/.test(t))) return undefined;
  return tokens.map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Reference tokens of a pointer; throws on anything that does not start with `/` (or is `""`). */
export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new Error(`not a JSON Pointer: ${pointer}`);
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Is the operation path inside `/state`? The first token is exactly `state`; later tokens are literal keys. */
export function inStateScope(path: string): boolean {
  return decodePointer(path)?.[0] === 'state';
}

/** The prefix of the convenience token naming an array entry by its `id` (SPEC §6.2). */
const ID_TOKEN_PREFIX = 'id:';

/** The entry id a token names (`id:fact-a` → `fact-a`), or undefined for any other token. */
export function idOfToken(token: string): string | undefined {
  return token.startsWith(ID_TOKEN_PREFIX) ? token.slice(ID_TOKEN_PREFIX.length) : undefined;
}

/** Does the path address entries by `id:` or append (`-`), so it means the same on a newer revision? */
export function isPositionIndependent(path: string): boolean {
  const tokens = decodePointer(path) ?? [];
  return tokens.some((t) => idOfToken(t) !== undefined) || tokens[tokens.length - 1] === '-';
}

/** Is `ancestor` the pointer `pointer` or one of its ancestors (token-wise, so `/a` is not an ancestor of `/ab`)? */
export function isAncestorOrSelf(ancestor: readonly string[], pointer: readonly string[]): boolean {
  return ancestor.length <= pointer.length && ancestor.every((t, i) => pointer[i] === t);
}

/**
 * JSON Pointers (RFC 6901, RFC 6902; SPEC §5.6 step 4, §6.2; conformance.md L2-A2, A14): the one
 * place pointers are encoded, decoded, followed and compared.
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
 *
 * A string is a pointer when it is `""` or starts with `/` and every `~` is followed by `0` or `1`
 * (RFC 6901 §3 `escaped = "~" ( "0" / "1" )`); anything else names no place. The value at a pointer
 * (`valueAt`), one rule for every reader:
 *
 * | step into   | token                                   | gives                                         |
 * | ----------- | --------------------------------------- | --------------------------------------------- |
 * | any value   | none (`""`)                             | the value itself                              |
 * | an object   | a member name                           | that own member; inherited names are not members |
 * | an array    | `0` or a decimal without leading zeros  | that element when it exists (RFC 6901 §4)     |
 * | an array    | `-`                                     | nothing: it names the element after the last  |
 * | an array    | `id:<entry-id>`                         | the first element that is an object whose `id` is that string (§6.2) |
 * | an array    | anything else (`01`, `1.0`, `""`, ...)  | nothing                                       |
 * | a scalar    | any                                     | nothing                                       |
 *
 * "Nothing" is `undefined`, as is any string that is not a pointer. Ancestry is token-wise: `/a` is
 * an ancestor of `/a/b` and of itself, not of `/ab`, and a string that is not a pointer is related to
 * nothing.
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

/** Reference tokens of a pointer; throws on a string that is not one (see `decodePointer`). */
export function parsePointer(pointer: string): string[] {
  const tokens = decodePointer(pointer);
  if (tokens === undefined) throw new Error(`not a JSON Pointer: ${pointer}`);
  return tokens;
}

/** The pointer one token up (`/a/b` → `/a`, `/a` → `""`); undefined for `""` and for a string that is not a pointer. */
export function parentPointer(pointer: string): string | undefined {
  const tokens = decodePointer(pointer);
  return tokens === undefined || tokens.length === 0 ? undefined : pointerOf(tokens.slice(0, -1));
}

/** Is the path inside `/state`? The first token is exactly `state`; later tokens are literal keys. */
export function inStateScope(path: string): boolean {
  return decodePointer(path)?.[0] === 'state';
}

/** The prefix of the convenience token naming an array entry by its `id` (SPEC §6.2). */
const ID_TOKEN_PREFIX = 'id:';

/** The entry id a token names (`id:fact-a` → `fact-a`), or undefined for any other token. */
export function idOfToken(token: string): string | undefined {
  return token.startsWith(ID_TOKEN_PREFIX) ? token.slice(ID_TOKEN_PREFIX.length) : undefined;
}

/** The array index a token spells (RFC 6901 `array-index`: `0` or digits without a leading zero), or undefined. */
export function arrayIndexOf(token: string): number | undefined {
  return /^(0|[1-9][0-9]*)$/.test(token) ? Number(token) : undefined;
}

/** Does the path address entries by `id:` or append (`-`), so it means the same on a newer revision? */
export function isPositionIndependent(path: string): boolean {
  const tokens = decodePointer(path) ?? [];
  return tokens.some((t) => idOfToken(t) !== undefined) || tokens[tokens.length - 1] === '-';
}

type Pointer = string | readonly string[];

const tokensOf = (pointer: Pointer): readonly string[] | undefined => (typeof pointer === 'string' ? decodePointer(pointer) : pointer);

/**
 * Is `ancestor` the pointer `pointer` or one of its ancestors? Token-wise, so `/a` is not an
 * ancestor of `/ab`; either side may be a pointer string or its tokens.
 */
export function isAncestorOrSelf(ancestor: Pointer, pointer: Pointer): boolean {
  const a = tokensOf(ancestor);
  const p = tokensOf(pointer);
  return a !== undefined && p !== undefined && a.length <= p.length && a.every((t, i) => p[i] === t);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One step of `valueAt` (the table in the module comment). */
function step(node: unknown, token: string): unknown {
  if (isObject(node)) return Object.hasOwn(node, token) ? node[token] : undefined;
  if (!Array.isArray(node)) return undefined;
  const id = idOfToken(token);
  if (id !== undefined) return node.find((e) => isObject(e) && e['id'] === id);
  const index = arrayIndexOf(token);
  return index === undefined ? undefined : node[index];
}

/** The value `pointer` (a pointer string or its tokens) names in `doc`, or undefined when it names nothing there. */
export function valueAt(doc: unknown, pointer: Pointer): unknown {
  const tokens = tokensOf(pointer);
  if (tokens === undefined) return undefined;
  let node = doc;
  for (const t of tokens) {
    node = step(node, t);
    if (node === undefined) return undefined;
  }
  return node;
}

import type { Encoding } from './encoding.js';
import { resolveLimits, type ParseLimits } from './limits.js';
import { parseJson } from './parse-json.js';
import { parseMarkdown } from './parse-markdown.js';
import type { ParseResult } from './parse-result.js';
import { parseYaml } from './parse-yaml.js';
import { decodeInput } from './source.js';

/**
 * Bytes or text in one of the three encodings → plain JSON data (objects, arrays, strings,
 * finite numbers, booleans, null), or the issues that prevent it. Limits are enforced before
 * and during parsing; nothing here validates OAP semantics.
 */
export function parseDocument(input: string | Uint8Array, encoding: Encoding, limits?: Partial<ParseLimits>): ParseResult {
  const bounds = resolveLimits(limits);
  const decoded = decodeInput(input, bounds.maxBytes);
  if (!decoded.ok) return { ok: false, issues: [decoded.issue] };
  if (decoded.text.length > CACHED_TEXT_MAX) return parseText(decoded.text, encoding, bounds);
  const key = `${encoding}\0${bounds.maxBytes},${bounds.maxDepth},${bounds.maxAliases},${bounds.maxAliasNodes}\0${decoded.text}`;
  let result = recent.get(key);
  if (result === undefined) {
    result = parseText(decoded.text, encoding, bounds);
    if (recent.size >= CACHE_ENTRIES) recent.delete(recent.keys().next().value!);
  } else recent.delete(key);
  recent.set(key, result);
  // Every caller gets its own value to edit (a delta is applied to the document it parsed).
  return result.ok
    ? { ok: true, value: structuredClone(result.value), locate: result.locate }
    : { ok: false, issues: structuredClone(result.issues) };
}

/**
 * Parsing is a function of the text, the encoding and the limits alone, and a run parses the same
 * documents over and over: the suite writes a fixture, the harness reads it to validate, discover
 * and instantiate, the suite reads it back, and the next case (or mutant) does it again. The last
 * CACHE_ENTRIES results of documents up to CACHED_TEXT_MAX characters are kept, most recent last.
 */
const CACHE_ENTRIES = 512;
const CACHED_TEXT_MAX = 64 * 1024;
const recent = new Map<string, ParseResult>();

function parseText(text: string, encoding: Encoding, bounds: ParseLimits): ParseResult {
  switch (encoding) {
    case 'json':
      return parseJson(text, bounds);
    case 'yaml':
      return parseYaml(text, bounds);
    case 'md':
      return parseMarkdown(text, bounds);
  }
}

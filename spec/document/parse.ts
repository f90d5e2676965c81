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
  switch (encoding) {
    case 'json':
      return parseJson(decoded.text, bounds);
    case 'yaml':
      return parseYaml(decoded.text, bounds);
    case 'md':
      return parseMarkdown(decoded.text, bounds);
  }
}

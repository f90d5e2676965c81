import { issue, type OapIssue } from './issue.js';

export interface Position {
  line: number;
  column: number;
}

export type DecodeResult = { ok: true; text: string } | { ok: false; issue: OapIssue };

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Turns caller input into text, enforcing the byte limit first so that an oversized document is
 * refused before any work proportional to its size. A leading byte order mark is dropped: YAML
 * allows one and RFC 8259 §8.1 lets JSON parsers ignore it, and keeping it would make the
 * encodings disagree about the first key.
 */
export function decodeInput(input: string | Uint8Array, maxBytes: number): DecodeResult {
  if (typeof input === 'string') {
    const size = utf8Length(input, maxBytes);
    if (size > maxBytes) return { ok: false, issue: sizeIssue(size, maxBytes) };
    return { ok: true, text: input.charCodeAt(0) === 0xfeff ? input.slice(1) : input };
  }
  if (input.byteLength > maxBytes) return { ok: false, issue: sizeIssue(input.byteLength, maxBytes) };
  try {
    return { ok: true, text: decoder.decode(input) };
  } catch {
    const offset = firstInvalidUtf8(input);
    const pos = bytePosition(input, offset);
    return {
      ok: false,
      issue: issue('parse.utf8', '', `invalid UTF-8 at byte ${offset}`, pos),
    };
  }
}

export function sizeIssue(size: number, maxBytes: number): OapIssue {
  return issue('limit.size', '', `document is ${size} bytes; the limit is ${maxBytes}`);
}

// Every UTF-16 code unit needs at least one UTF-8 byte and at most three, so most strings are
// classified without counting.
function utf8Length(s: string, maxBytes: number): number {
  if (s.length > maxBytes) return s.length;
  if (s.length * 3 <= maxBytes) return s.length;
  return Buffer.byteLength(s, 'utf8');
}

/** Offset of the first byte that breaks UTF-8 well-formedness (RFC 3629), or -1. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    let max = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      // Reject overlongs (E0 80..9F) and UTF-16 surrogates (ED A0..BF).
      min = b === 0xe0 ? 0xa0 : 0x80;
      if (b === 0xed) max = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = b === 0xf0 ? 0x90 : 0x80;
      if (b === 0xf4) max = 0x8f;
    } else {
      return i;
    }
    const second = bytes[i + 1];
    if (second === undefined || second < min || second > max) return i;
    for (let k = 2; k <= need; k++) {
      const cont = bytes[i + k];
      if (cont === undefined || cont < 0x80 || cont > 0xbf) return i;
    }
    i += need + 1;
  }
  return -1;
}

function bytePosition(bytes: Uint8Array, offset: number): Position {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  // Columns here count bytes, since the line could not be decoded into characters.
  return { line, column: offset - lineStart + 1 };
}

/** Offset → 1-based line/column over decoded text; the line table is built on first use. */
export class LineIndex {
  private starts: number[] | undefined;

  constructor(
    private readonly text: string,
    private readonly lineOffset = 0,
  ) {}

  position(offset: number): Position {
    this.starts ??= lineStarts(this.text);
    const starts = this.starts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1 + this.lineOffset, column: offset - starts[lo]! + 1 };
  }
}

function lineStarts(text: string): number[] {
  const starts = [0];
  let i = text.indexOf('\n');
  while (i !== -1) {
    starts.push(i + 1);
    i = text.indexOf('\n', i + 1);
  }
  return starts;
}

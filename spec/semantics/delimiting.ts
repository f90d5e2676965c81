/**
 * How injected state is delimited (SPEC §3.9 rule 2, §7.4; security.md T4; conformance.md L2-S2).
 *
 * Reading (INTERPRETATIONS.md#state-delimiting): "Mark state as untrusted, agent-authored content,
 * clearly delimited from harness and profile instructions" (§3.9). A rendered state block is its
 * first line (the opener), its last line (the closer) and the content between them. A model does
 * not parse the block, it reads it, so the block is delimited only when its own closer occurs
 * nowhere inside the content: not as a line and not mid-line, in any letter case. Otherwise state
 * text ends the block wherever it repeats the closer, whatever the section map claims. An escaped
 * form of the closer (`&lt;/tag&gt;`, `<\/tag>`) is the harness's escaping working and is not the
 * closer; Unicode confusables and compatibility forms are not judged. Lines end at LF, CRLF or a
 * lone CR.
 */

/** A delimited block: opener and closer lines, and the content span between them (string indexes into the block text). */
export interface DelimitedBlock {
  open: string;
  close: string;
  /** Index of the first character after the opener's line break. */
  contentStart: number;
  /** Index where the closer line starts. */
  contentEnd: number;
  content: string;
}

const LINE_BREAK = /\r\n|\r|\n/g;

/** Split a block into opener, content and closer; undefined when it has fewer than two lines. */
export function delimitedBlock(text: string): DelimitedBlock | undefined {
  const body = text.replace(/(?:\r\n|\r|\n)$/, '');
  const breaks = [...body.matchAll(LINE_BREAK)];
  if (breaks.length === 0) return undefined;
  const first = breaks[0]!;
  const last = breaks[breaks.length - 1]!;
  const contentStart = first.index + first[0].length;
  const contentEnd = last.index + last[0].length;
  return {
    open: body.slice(0, first.index),
    close: body.slice(contentEnd),
    contentStart,
    contentEnd,
    content: contentStart <= last.index ? body.slice(contentStart, last.index) : '',
  };
}

/** A place in the content where the block's own closer occurs. */
export interface CloserBreakout {
  /** Index into the block text. */
  index: number;
  /** The text found there (the closer in whatever letter case it was written). */
  found: string;
}

/**
 * Every occurrence of the block's closer (its last line, surrounding blanks trimmed) inside the
 * content, compared without regard to letter case. Empty when the block is delimited. A block with
 * fewer than two lines or a blank closer has no closer to protect: callers judge that separately.
 */
export function closerBreakouts(text: string): CloserBreakout[] {
  const block = delimitedBlock(text);
  if (!block) return [];
  const closer = block.close.trim().toLowerCase();
  if (closer === '') return [];
  // Case folding can change lengths outside ASCII; fold per character so indexes stay aligned.
  const folded = [...block.content].map((c) => (c.toLowerCase().length === c.length ? c.toLowerCase() : c)).join('');
  const out: CloserBreakout[] = [];
  for (let i = folded.indexOf(closer); i !== -1; i = folded.indexOf(closer, i + 1)) {
    out.push({ index: block.contentStart + i, found: block.content.slice(i, i + closer.length) });
  }
  return out;
}

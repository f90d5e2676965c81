import type { OapIssue } from './issue.js';
import type { Position } from './source.js';

/** Maps a JSON Pointer into the parsed value back to where it was written, when it was. */
export type Locate = (pointer: string) => Position | undefined;

export type ParseResult = { ok: true; value: unknown; locate: Locate } | { ok: false; issues: OapIssue[] };

/** Thrown inside a parser to abandon the whole document (syntax errors, limits). */
export class ParseAbort extends Error {
  constructor(readonly issue: OapIssue) {
    super(issue.message);
    this.name = 'ParseAbort';
  }
}

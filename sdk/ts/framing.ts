/**
 * Newline-delimited JSON framing shared by the runner's stdio client and the adapter SDK.
 *
 * A LineSplitter turns a byte stream into complete lines without ever holding more than
 * `maxLineBytes` of one line in memory: a longer line is reported once as an overflow and the
 * rest of it is discarded as it arrives (the caller normally kills the peer). Lines are decoded
 * as strict UTF-8; invalid bytes are reported instead of being replaced with U+FFFD, because a
 * silently repaired message is a different message.
 */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

export type LineEvent = { kind: 'line'; text: string } | { kind: 'invalid-utf8'; bytes: number } | { kind: 'overflow'; limit: number };

const NEWLINE = 0x0a;

export class LineSplitter {
  private parts: Buffer[] = [];
  private partBytes = 0;
  /** True while discarding the remainder of an over-long line. */
  private discarding = false;
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });

  constructor(
    private readonly onEvent: (event: LineEvent) => void,
    private readonly maxLineBytes = DEFAULT_MAX_LINE_BYTES,
  ) {}

  push(chunk: Buffer): void {
    const length = chunk.length;
    let start = 0;
    while (start < length) {
      const nl = chunk.indexOf(NEWLINE, start);
      if (nl === -1) {
        this.hold(chunk.subarray(start));
        return;
      }
      if (this.discarding) this.discarding = false;
      else if (this.partBytes === 0) {
        // The common case: the whole line is in this chunk; decode it in place.
        if (nl - start > this.maxLineBytes) this.onEvent({ kind: 'overflow', limit: this.maxLineBytes });
        else this.emit(chunk, start, nl);
      } else {
        this.hold(chunk.subarray(start, nl));
        if (this.discarding) this.discarding = false;
        else {
          const bytes = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.partBytes);
          this.parts = [];
          this.partBytes = 0;
          this.emit(bytes, 0, bytes.length);
        }
      }
      start = nl + 1;
    }
  }

  /** Bytes of an unterminated line still buffered (a peer that exits mid-line). */
  get pendingBytes(): number {
    return this.partBytes;
  }

  /** Buffer part of a line whose end has not arrived yet; past the limit, report it and discard. */
  private hold(piece: Buffer): void {
    if (this.discarding) return;
    if (this.partBytes + piece.length > this.maxLineBytes) {
      this.parts = [];
      this.partBytes = 0;
      this.discarding = true;
      this.onEvent({ kind: 'overflow', limit: this.maxLineBytes });
    } else if (piece.length > 0) {
      this.parts.push(piece);
      this.partBytes += piece.length;
    }
  }

  /** One complete line, `bytes[start, end)` without its newline. */
  private emit(bytes: Buffer, start: number, end: number): void {
    // Tolerate CRLF: JSON never ends in \r, so stripping it cannot change a message.
    if (end > start && bytes[end - 1] === 0x0d) end--;
    if (end === start) return; // blank lines carry no message
    let text: string;
    try {
      text = this.decoder.decode(bytes.subarray(start, end));
    } catch {
      this.onEvent({ kind: 'invalid-utf8', bytes: end - start });
      return;
    }
    this.onEvent({ kind: 'line', text });
  }
}

/** One message as one line. JSON.stringify never emits a raw newline, so no escaping is needed. */
export function encodeLine(message: unknown): string {
  return `${JSON.stringify(message)}\n`;
}

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

export type LineEvent =
  | { kind: 'line'; text: string }
  | { kind: 'invalid-utf8'; bytes: number }
  | { kind: 'overflow'; limit: number };

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
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(NEWLINE, start);
      const end = nl === -1 ? chunk.length : nl;
      if (!this.discarding) {
        const piece = chunk.subarray(start, end);
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
      if (nl === -1) break;
      if (this.discarding) this.discarding = false;
      else this.flushLine();
      start = nl + 1;
    }
  }

  /** Bytes of an unterminated line still buffered (a peer that exits mid-line). */
  get pendingBytes(): number {
    return this.partBytes;
  }

  private flushLine(): void {
    const bytes = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.partBytes);
    this.parts = [];
    this.partBytes = 0;
    // Tolerate CRLF: JSON never ends in \r, so stripping it cannot change a message.
    const body = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.subarray(0, bytes.length - 1) : bytes;
    if (body.length === 0) return; // blank lines carry no message
    let text: string;
    try {
      text = this.decoder.decode(body);
    } catch {
      this.onEvent({ kind: 'invalid-utf8', bytes: body.length });
      return;
    }
    this.onEvent({ kind: 'line', text });
  }
}

/** One message as one line. JSON.stringify never emits a raw newline, so no escaping is needed. */
export function encodeLine(message: unknown): string {
  return `${JSON.stringify(message)}\n`;
}

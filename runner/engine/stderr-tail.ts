/**
 * The adapter's stderr, bounded: the last `capacity` bytes are kept (64 KiB per worker by default)
 * and a running byte count lets the engine cut a per-case excerpt (the output written while the
 * case ran, at most 4 KiB, keeping the end because that is where the error usually is).
 */
const STDERR_CAPACITY = 64 * 1024;
const CASE_EXCERPT_BYTES = 4 * 1024;

export class StderrTail {
  private chunks: Buffer[] = [];
  private held = 0;
  private total = 0;

  constructor(private readonly capacity = STDERR_CAPACITY) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    if (chunk.length >= this.capacity) {
      this.chunks = [chunk.subarray(chunk.length - this.capacity)];
      this.held = this.capacity;
      return;
    }
    this.chunks.push(chunk);
    this.held += chunk.length;
    while (this.held - this.chunks[0]!.length >= this.capacity) this.held -= this.chunks.shift()!.length;
  }

  /** Total bytes ever written; use as a mark before a case. */
  get written(): number {
    return this.total;
  }

  /** The last `n` bytes held (n is capped at what is held). */
  tail(n: number): string {
    const want = Math.min(n, this.held, this.capacity);
    if (want <= 0) return '';
    const all = Buffer.concat(this.chunks, this.held);
    return all.subarray(all.length - want).toString('utf8');
  }

  /** Output written since `mark`, at most `max` bytes (its end), or '' when there was none. */
  since(mark: number, max = CASE_EXCERPT_BYTES): string {
    return this.tail(Math.min(this.total - mark, max));
  }
}

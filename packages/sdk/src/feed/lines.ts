/**
 * Line framing of the feed's byte streams (`/all`, `/log`: one JSON document per line, the feed contract, "Endpoints").
 * Works on raw bytes: a line may span several chunks, and a multi-byte UTF-8 character may be split between two
 * chunks; only complete lines are decoded.
 *
 * @packageDocumentation
 */

const NL = 0x0a;

/**
 * Splits a stream of byte chunks into text lines. Feed chunks with {@link LineSplitter.push}; complete lines
 * (without the `\n`, and without a trailing `\r`) are passed to `onLine`; empty lines are dropped.
 */
export class LineSplitter {
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });

  /**
   * @param onLine - called with each complete line, in order.
   * @param maxLineBytes - a line longer than this throws (guards memory against a stream without newlines).
   */
  constructor(
    private readonly onLine: (line: string) => void,
    private readonly maxLineBytes = 256 * 1024 * 1024,
  ) {}

  /**
   * Feeds one chunk.
   * @throws TypeError when a complete line is not valid UTF-8; RangeError when a line exceeds `maxLineBytes`.
   */
  push(chunk: Uint8Array): void {
    const last = chunk.lastIndexOf(NL);
    if (last < 0) {
      this.pending.push(chunk);
      this.pendingBytes += chunk.length;
      if (this.pendingBytes > this.maxLineBytes) throw new RangeError('feed line too long');
      return;
    }
    let complete: Uint8Array;
    if (this.pendingBytes > 0) {
      complete = new Uint8Array(this.pendingBytes + last + 1);
      let off = 0;
      for (const p of this.pending) {
        complete.set(p, off);
        off += p.length;
      }
      complete.set(chunk.subarray(0, last + 1), off);
      this.pending = [];
      this.pendingBytes = 0;
    } else {
      complete = chunk.subarray(0, last + 1);
    }
    if (last + 1 < chunk.length) {
      // copy: the caller may reuse its chunk buffer
      const rest = chunk.slice(last + 1);
      this.pending.push(rest);
      this.pendingBytes = rest.length;
    }
    const text = this.decoder.decode(complete);
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      if (nl < 0) break;
      let end = nl;
      if (end > start && text.charCodeAt(end - 1) === 13) end--;
      if (end > start) this.onLine(text.slice(start, end));
      start = nl + 1;
    }
  }

  /** Bytes of an incomplete last line held back (0 at a clean end of stream). */
  get bufferedBytes(): number {
    return this.pendingBytes;
  }

  /** Drops any incomplete line (after a disconnect). */
  reset(): void {
    this.pending = [];
    this.pendingBytes = 0;
  }
}

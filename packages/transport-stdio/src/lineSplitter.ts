import { decodeUtf8 } from '@mcp-tasks/transport-kit';

/** Options for {@link LineSplitter}. */
export interface LineSplitterOptions {
  /** Longest accepted line in bytes, excluding the newline. */
  readonly maxLineBytes: number;
  /** Receives each complete, non-blank line (UTF-8 decoded, trailing `\r` removed), in order. */
  readonly onLine: (line: string) => void;
  /** Called once per line that grows past `maxLineBytes`; the rest of that line is discarded unbuffered. */
  readonly onOverflow: () => void;
  /** Called once per line that is not valid UTF-8; the line is dropped (never repaired). @default dropped silently */
  readonly onInvalidUtf8?: () => void;
}

/**
 * Splits a byte stream into newline-delimited lines with a hard memory bound: at most `maxLineBytes` of one line
 * are ever buffered. Lines are decoded only once complete, so multi-byte characters split across chunks are safe;
 * decoding is strict (a line with invalid UTF-8 goes to `onInvalidUtf8`, not through U+FFFD replacement).
 */
export class LineSplitter {
  readonly #options: LineSplitterOptions;
  #chunks: Buffer[] = [];
  #size = 0;
  /** True while discarding the remainder of an over-long line. */
  #skipping = false;

  /** Creates a splitter with an empty buffer; feed it chunks in stream order. */
  constructor(options: LineSplitterOptions) {
    this.#options = options;
  }

  /** Feeds one chunk; calls `onLine` for every line it completes. */
  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline;
      if (!this.#skipping) {
        if (this.#size + (end - start) > this.#options.maxLineBytes) {
          this.#chunks = [];
          this.#size = 0;
          this.#skipping = true;
          this.#options.onOverflow();
        } else if (newline !== -1 && this.#size === 0) {
          // Fast path: the whole line is in this chunk; decode it without copying.
          this.#emit(chunk.subarray(start, end));
          start = newline + 1;
          continue;
        } else if (end > start) {
          // Copy: a subarray would pin the whole (possibly large) chunk until the line completes.
          this.#chunks.push(Buffer.from(chunk.subarray(start, end)));
          this.#size += end - start;
        }
      }
      if (newline === -1) return;
      if (this.#skipping) this.#skipping = false;
      else this.#flush();
      start = newline + 1;
    }
  }

  /** Delivers a final line that had no trailing newline (end of stream). */
  end(): void {
    if (!this.#skipping) this.#flush();
    this.#skipping = false;
  }

  #flush(): void {
    if (this.#size === 0) return;
    const bytes = Buffer.concat(this.#chunks, this.#size);
    this.#chunks = [];
    this.#size = 0;
    this.#emit(bytes);
  }

  #emit(bytes: Uint8Array): void {
    const text = decodeUtf8(bytes);
    if (text === undefined) {
      this.#options.onInvalidUtf8?.();
      return;
    }
    const line = text.endsWith('\r') ? text.slice(0, -1) : text;
    if (line.trim().length > 0) this.#options.onLine(line);
  }
}

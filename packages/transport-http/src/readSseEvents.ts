/** One Server-Sent Event as dispatched: its `data` (undefined when it had no data line), `id` and `retry` fields. */
export interface SseFrame {
  readonly data: string | undefined;
  /** The event's `id`, which a client sends back as `Last-Event-ID` to resume the stream after it. */
  readonly id: string | undefined;
  /** The reconnection delay in milliseconds the server asks for (`retry`, digits only). */
  readonly retry: number | undefined;
}

/**
 * Yields each Server-Sent Event in `body` that carries a `data`, `id` or `retry` field, in order (multi-line data
 * joined with `\n`). Comment lines (keep-alives) and other fields are skipped; CRLF, LF and CR line endings are
 * accepted; an `id` containing NUL and a `retry` that is not all digits are ignored, as EventSource does.
 * Runtime-neutral. Returning early (break, or `return()` on the iterator) cancels the body.
 */
export async function* readSseFrames(body: ReadableStream<Uint8Array>): AsyncGenerator<SseFrame, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  let id: string | undefined;
  let retry: number | undefined;
  const field = (line: string): void => {
    const colon = line.indexOf(':');
    const name = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(line.charCodeAt(colon + 1) === 32 ? colon + 2 : colon + 1);
    if (name === 'data') data.push(value);
    else if (name === 'id' && !value.includes('\0')) id = value;
    else if (name === 'retry' && /^\d+$/.test(value)) retry = Number(value);
  };
  const dispatch = (): SseFrame | undefined => {
    const frame =
      data.length > 0 || id !== undefined || retry !== undefined
        ? { data: data.length > 0 ? data.join('\n') : undefined, id, retry }
        : undefined;
    data = [];
    id = undefined;
    retry = undefined;
    return frame;
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      let start = 0;
      for (let i = 0; i < buffer.length; i++) {
        const c = buffer.charCodeAt(i);
        if (c !== 10 && c !== 13) continue;
        // A CR at the end of the chunk may be the first half of CRLF.
        if (c === 13 && i + 1 === buffer.length && !done) break;
        const line = buffer.slice(start, i);
        if (c === 13 && buffer.charCodeAt(i + 1) === 10) i++;
        start = i + 1;
        if (line === '') {
          const frame = dispatch();
          if (frame !== undefined) yield frame;
        } else if (line.charCodeAt(0) !== 58 /* : comment */) {
          field(line);
        }
      }
      buffer = buffer.slice(start);
      if (done) {
        // A final event without its blank line still counts.
        if (buffer !== '' && buffer.charCodeAt(0) !== 58) field(buffer);
        const frame = dispatch();
        if (frame !== undefined) yield frame;
        return;
      }
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

/**
 * Yields the `data` of each Server-Sent Event in `body`, in order (multi-line data joined with `\n`). Comment lines
 * (keep-alives), events without data and other fields are skipped; CRLF, LF and CR line endings are accepted.
 * Runtime-neutral. Returning early (break, or `return()` on the iterator) cancels the body.
 */
export async function* readSseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<string, void, undefined> {
  for await (const frame of readSseFrames(body)) if (frame.data !== undefined) yield frame.data;
}

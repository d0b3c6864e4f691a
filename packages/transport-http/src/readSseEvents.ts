/**
 * Yields the `data` of each Server-Sent Event in `body`, in order (multi-line data joined with `\n`). Comment lines
 * (keep-alives) and other fields are skipped; CRLF, LF and CR line endings are accepted. Runtime-neutral.
 * Returning early (break, or `return()` on the iterator) cancels the body.
 */
export async function* readSseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<string, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
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
          if (data.length > 0) yield data.join('\n');
          data = [];
        } else if (line.startsWith('data')) {
          if (line.length === 4) data.push('');
          else if (line.charCodeAt(4) === 58 /* : */) data.push(line.slice(line.charCodeAt(5) === 32 ? 6 : 5));
        }
      }
      buffer = buffer.slice(start);
      if (done) {
        // A final event without its blank line still counts.
        if (buffer.startsWith('data:')) data.push(buffer.slice(buffer.charCodeAt(5) === 32 ? 6 : 5));
        if (data.length > 0) yield data.join('\n');
        return;
      }
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

/** Why a fetch request body could not be read. */
export type ReadRequestBodyFailure = 'too_large' | 'aborted';

/**
 * Reads a fetch `Request` body as bytes, holding at most `maxBytes`: reading stops (and the stream is cancelled) as
 * soon as the body grows past it. Decoding is the caller's (strict UTF-8).
 */
export async function readRequestBody(
  request: Request,
  maxBytes: number,
): Promise<Uint8Array | ReadRequestBodyFailure> {
  const body = request.body;
  if (body === null) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        reader.cancel().catch(() => {});
        return 'too_large';
      }
      chunks.push(value);
    }
  } catch {
    return 'aborted';
  }
  return chunks.length === 1 ? (chunks[0] as Uint8Array) : concat(chunks, size);
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

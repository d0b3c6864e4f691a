/** Why a fetch request body could not be read. */
export type ReadRequestBodyFailure = 'too_large' | 'aborted';

/**
 * Reads a fetch `Request` body as bytes, holding at most `maxBytes`: reading stops (and the stream is cancelled) as
 * soon as the body grows past it. Decoding is the caller's (strict UTF-8). `declaredBytes` is the request's
 * `Content-Length` when it has one, already checked against `maxBytes`.
 */
export async function readRequestBody(
  request: Request,
  maxBytes: number,
  declaredBytes?: number,
): Promise<Uint8Array | ReadRequestBodyFailure> {
  // A declared length bounds what the platform delivers (HTTP framing), so the body is read in one piece: Node
  // adapters serve `arrayBuffer()` straight from the socket, while `request.body` makes them build a web stream.
  if (declaredBytes !== undefined && declaredBytes <= maxBytes) {
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await request.arrayBuffer());
    } catch {
      return 'aborted';
    }
    return bytes.byteLength > maxBytes ? 'too_large' : bytes;
  }
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

import type { IncomingMessage } from 'node:http';

/** Why a body could not be read. */
export type ReadBodyFailure = 'too_large' | 'aborted';

/**
 * Reads a node request body into one Buffer, holding at most `maxBytes`: a body that grows past it (chunked) stops
 * being buffered at once. The caller answers 413 with `Connection: close`; node:http discards whatever is left of
 * the body. (A declared `Content-Length` over the limit is the caller's to refuse before reading.)
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer | ReadBodyFailure> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) {
        cleanup();
        chunks.length = 0;
        resolve('too_large');
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    };
    const onAborted = (): void => {
      cleanup();
      resolve('aborted');
    };
    const cleanup = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAborted);
      req.off('close', onAborted);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onAborted);
    req.on('close', onAborted);
  });
}

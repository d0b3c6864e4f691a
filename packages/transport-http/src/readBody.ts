import type { IncomingMessage } from 'node:http';

/**
 * Why a body could not be read. `too_large`: past the limit (check `req.complete` to know whether the rest was
 * drained, leaving the connection reusable); `timeout`: not received in time; `aborted`: the client went away.
 */
export type ReadBodyFailure = 'too_large' | 'timeout' | 'aborted';

/** How a body is read: its size limit, how much of an over-size body is read and dropped, and the time allowed. */
export interface ReadBodyLimits {
  readonly maxBytes: number;
  /**
   * Bytes of an over-size body read and discarded (never buffered) so the client finishes sending and reads the
   * 413 instead of a connection reset; past it the caller closes the connection.
   */
  readonly drainBytes: number;
  /** Time allowed for the whole body; 0 disables. */
  readonly timeoutMs: number;
}

/**
 * Reads a node request body into one Buffer, holding at most `maxBytes`. A body that grows past it stops being
 * buffered at once and is drained (read and dropped) up to `drainBytes` more, then reported `too_large`. `done` is
 * called exactly once, from an event of `req` or the timer: a callback rather than a promise, because this runs
 * for every POST and the promise and its extra microtask turn were a measurable share of a small request's cost.
 */
export function readBody(
  req: IncomingMessage,
  limits: ReadBodyLimits,
  done: (outcome: Buffer | ReadBodyFailure) => void,
): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  let settled = false;
  // The listeners stay attached once settled (events after that are ignored): the request lives no longer than its
  // exchange, and removing three listeners from every request cost more than this flag.
  const finish = (outcome: Buffer | ReadBodyFailure): void => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    done(outcome);
  };
  const onData = (chunk: Buffer): void => {
    size += chunk.length;
    if (size <= limits.maxBytes) chunks.push(chunk);
    else if (!over) {
      over = true;
      chunks.length = 0;
    }
    if (over && size > limits.maxBytes + limits.drainBytes) finish('too_large');
  };
  const onEnd = (): void => {
    if (over) finish('too_large');
    else finish(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
  };
  const onAborted = (): void => finish('aborted');
  const timer =
    limits.timeoutMs > 0 ? setTimeout(() => finish(over ? 'too_large' : 'timeout'), limits.timeoutMs) : undefined;
  timer?.unref();
  req.on('data', onData);
  req.on('end', onEnd);
  // `close` alone reports an aborted body: node emits `error` on a request only to listeners it has (an abort
  // destroys the request either way), and one more listener per request is a measurable cost.
  req.on('close', onAborted);
}

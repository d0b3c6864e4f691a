import { delay, ErrorCode, isProtocolError } from '@mcp-tasks/protocol';

/** First wait before retrying a write the store could not take; doubles up to {@link MAX_BACKOFF_MS}. */
const FIRST_BACKOFF_MS = 50;
const MAX_BACKOFF_MS = 1_000;

/**
 * Whether a store call failed because the store cannot answer right now (a database restarting or unreachable):
 * stores report that as a `-32603` `ProtocolError`, while their refusals (closed, not found, limits) are
 * `TaskStoreError`s and a write that loses to a terminal state is no error at all.
 */
export function isTransientStoreError(error: unknown): boolean {
  return isProtocolError(error) && error.code === ErrorCode.InternalError;
}

/** When to stop retrying: past `deadline()` (read before each attempt, so it may move) or once `signal` aborts. */
export interface RetryBounds {
  readonly deadline: () => number;
  readonly signal: AbortSignal;
}

/**
 * Runs `write`, and again after a backoff of 50 ms doubling to 1 s while it fails with a transient store error and
 * the next attempt would start before the deadline. Rejects with the last error otherwise; never leaves a timer
 * behind once `signal` aborts.
 */
export async function retryTransient(write: () => Promise<void>, bounds: RetryBounds): Promise<void> {
  let backoff = FIRST_BACKOFF_MS;
  for (;;) {
    try {
      await write();
      return;
    } catch (error) {
      const retryAt = Date.now() + backoff;
      if (!isTransientStoreError(error) || bounds.signal.aborted || retryAt >= bounds.deadline()) throw error;
      if (!(await pause(backoff, bounds.signal))) throw error;
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
    }
  }
}

/** Waits `ms`; resolves false at once if `signal` aborts meanwhile (clearing the timer). */
function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  return delay(ms, signal).then(
    () => true,
    () => false,
  );
}

/**
 * Retrying a durable task's step: a step that throws a {@link RetryableError} hands its task back to the store with
 * a backoff, and a worker (this instance or another) runs the task again once it is due, replaying the steps that
 * completed before it.
 */

/**
 * Thrown from a durable step (`ctx.step`) to ask for another attempt later: a registry that is busy, a rate limit, a
 * flaky network. Any other exception ends the task as the tool's error, as it would without steps.
 */
export class RetryableError extends Error {
  /** Always `'RetryableError'`. */
  override readonly name = 'RetryableError';
  /** At least this long before the next attempt (e.g. from a `Retry-After`), instead of the policy's backoff. */
  readonly retryAfterMs: number | undefined;

  /** `options.cause` is kept as the error's `cause`. */
  constructor(message: string, options: { readonly cause?: unknown; readonly retryAfterMs?: number } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** True when `error` asks for a retry ({@link RetryableError}). */
export function isRetryableError(error: unknown): error is RetryableError {
  return error instanceof RetryableError;
}

/**
 * How a durable task's retryable step is tried again. The n-th attempt that fails (n = 1 for the first run) waits
 * `min(initialDelayMs × 2^(n-1), maxDelayMs)` before the next; once `maxAttempts` runs failed, the last error ends
 * the task like any exception of the tool (an `isError` result). Attempts count every run of the task's work,
 * including runs cut short by a lost worker.
 */
export interface RetryPolicy {
  /** Runs of the task's work at most, the first included. @default 5 */
  readonly maxAttempts: number;
  /** Wait after the first failed attempt. @default 1_000 */
  readonly initialDelayMs: number;
  /** Longest wait between attempts. @default 60_000 */
  readonly maxDelayMs: number;
}

/** The default {@link RetryPolicy}: 5 attempts, 1 s doubling up to 60 s (1, 2, 4, 8 s). */
export const DEFAULT_RETRY_POLICY: RetryPolicy = Object.freeze({
  maxAttempts: 5,
  initialDelayMs: 1_000,
  maxDelayMs: 60_000,
});

/**
 * How long to wait after attempt `attempt` (1-based) failed with `error`; undefined when no attempt is left. A
 * `retryAfterMs` on the error is honoured when it is longer than the backoff.
 */
export function retryDelayMs(policy: RetryPolicy, attempt: number, error: RetryableError): number | undefined {
  if (attempt >= policy.maxAttempts) return undefined;
  const backoff = Math.min(policy.initialDelayMs * 2 ** Math.max(0, attempt - 1), policy.maxDelayMs);
  return Math.max(backoff, error.retryAfterMs ?? 0);
}

/** How an HTTP client transport reconnects a dropped SSE stream of a 2025-era session. */
export interface HttpReconnectOptions {
  /** Delay before reconnecting when the server named none with an SSE `retry` field. Default 1000 ms. */
  readonly initialDelayMs?: number;
  /** Longest delay between failed attempts; the delay doubles per consecutive failure up to it. Default 30000 ms. */
  readonly maxDelayMs?: number;
  /** Consecutive failed attempts (refused, unreachable, or a stream that ended with nothing) before giving up. Default 5. */
  readonly maxAttempts?: number;
}

/** The delays of {@link HttpReconnectOptions}, resolved. */
export class ReconnectPolicy {
  readonly #initial: number;
  readonly #max: number;
  readonly maxAttempts: number;

  constructor(options: HttpReconnectOptions = {}) {
    this.#initial = options.initialDelayMs ?? 1000;
    this.#max = options.maxDelayMs ?? 30_000;
    this.maxAttempts = options.maxAttempts ?? 5;
  }

  /**
   * The wait before the next attempt: the server's `retry` (or the initial delay) after a stream that ended
   * normally, doubled per consecutive failure up to the maximum, never below what the server asked for.
   */
  delay(retry: number | undefined, failures: number): number {
    const base = retry ?? this.#initial;
    return failures === 0 ? base : Math.max(base, Math.min(base * 2 ** failures, this.#max));
  }
}

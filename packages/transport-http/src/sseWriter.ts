import type { ResponseSink } from './exchange.js';
import { SSE_HEADERS, SSE_KEEP_ALIVE, sseEvent } from './httpReply.js';

/** Tuning of every SSE response of a handler. */
export interface SseOptions {
  /** Interval of SSE keep-alive comments; 0 disables them. */
  readonly keepAliveIntervalMs: number;
  /** A stream whose unsent backlog exceeds this is dropped (slow reader). */
  readonly maxStreamBufferBytes: number;
}

/**
 * Writes JSON-RPC messages as SSE events into a {@link ResponseSink}: opens the 200 `text/event-stream` response,
 * sends `:` keep-alives on a quiet stream, and drops a reader that does not keep up (`onOverflow` runs, then the
 * sink is destroyed). One per streamed response; used by POST exchanges and by session GET streams alike.
 */
export class SseWriter {
  readonly #sink: ResponseSink;
  readonly #options: SseOptions;
  readonly #onOverflow: () => void;
  #keepAlive: ReturnType<typeof setInterval> | undefined;
  #stopped = false;

  constructor(sink: ResponseSink, options: SseOptions, onOverflow: () => void) {
    this.#sink = sink;
    this.#options = options;
    this.#onOverflow = onOverflow;
  }

  /** Starts the response with the SSE head plus `extraHeaders`. */
  open(extraHeaders?: Readonly<Record<string, string>>): void {
    this.#sink.openStream(extraHeaders === undefined ? SSE_HEADERS : { ...SSE_HEADERS, ...extraHeaders });
    const interval = this.#options.keepAliveIntervalMs;
    if (interval > 0) {
      const timer = setInterval(() => this.#write(SSE_KEEP_ALIVE), interval);
      // Node and Bun keep the process alive for a timer unless told otherwise; a quiet stream must not.
      (timer as { unref?: () => void }).unref?.();
      this.#keepAlive = timer;
    }
  }

  /** Writes one message as an `event: message`. */
  send(message: unknown): void {
    this.#write(sseEvent(message));
  }

  /** Stops the keep-alives; the front ends or drops the response itself. Idempotent. */
  stop(): void {
    this.#stopped = true;
    if (this.#keepAlive !== undefined) clearInterval(this.#keepAlive);
    this.#keepAlive = undefined;
  }

  /** Stops and completes the response. */
  end(): void {
    if (this.#stopped) return;
    this.stop();
    this.#sink.end();
  }

  #write(chunk: string): void {
    if (this.#stopped) return;
    // A reader that does not keep up must not grow this process's memory without bound.
    if (this.#sink.write(chunk) > this.#options.maxStreamBufferBytes) {
      this.stop();
      this.#onOverflow();
      this.#sink.destroy();
    }
  }
}

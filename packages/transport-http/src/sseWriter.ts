import { withFields } from '@mcp-tasks/protocol';
import { SSE_HEADERS, SSE_KEEP_ALIVE, sseEvent } from './httpReply.js';
import type { ResponseSink } from './responseSink.js';

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
 *
 * Events sent in the same tick reach the sink as one write, in order, at the end of that tick (a microtask): a
 * listen stream answered with a thousand task states costs one socket write, not a thousand. `end()` writes what
 * is pending first; after `stop()` nothing more is written.
 */
export class SseWriter {
  readonly #sink: ResponseSink;
  readonly #options: SseOptions;
  readonly #onOverflow: () => void;
  #keepAlive: ReturnType<typeof setInterval> | undefined;
  #stopped = false;
  /** Events sent this tick, not yet handed to the sink; a flush is queued while this is non-empty. */
  #pending = '';

  constructor(sink: ResponseSink, options: SseOptions, onOverflow: () => void) {
    this.#sink = sink;
    this.#options = options;
    this.#onOverflow = onOverflow;
  }

  /** Starts the response with the SSE head plus `extraHeaders`. */
  open(extraHeaders?: Readonly<Record<string, string>>): void {
    this.#sink.openStream(extraHeaders === undefined ? SSE_HEADERS : withFields(SSE_HEADERS, extraHeaders));
    const interval = this.#options.keepAliveIntervalMs;
    if (interval > 0) {
      const timer = setInterval(() => this.#write(SSE_KEEP_ALIVE), interval);
      // Node and Bun keep the process alive for a timer unless told otherwise; a quiet stream must not.
      (timer as { unref?: () => void }).unref?.();
      this.#keepAlive = timer;
    }
  }

  /** Writes one message as an `event: message` (handed to the sink at the end of the tick). */
  send(message: unknown): void {
    this.#write(sseEvent(message));
  }

  /** Stops the keep-alives and drops what is not yet written; the front ends or drops the response. Idempotent. */
  stop(): void {
    this.#stopped = true;
    this.#pending = '';
    if (this.#keepAlive !== undefined) clearInterval(this.#keepAlive);
    this.#keepAlive = undefined;
  }

  /** Writes what is pending, stops and completes the response. */
  end(): void {
    if (this.#stopped) return;
    this.#flush();
    if (this.#stopped) return; // the last write overflowed: the sink is destroyed already
    this.stop();
    this.#sink.end();
  }

  #write(chunk: string): void {
    if (this.#stopped) return;
    if (this.#pending === '') queueMicrotask(this.#flush);
    this.#pending += chunk;
    // Even before it reaches the sink, one tick's events must not grow memory without bound (a UTF-16 length is
    // at most the UTF-8 byte count, so this never drops a stream the sink would have kept).
    if (this.#pending.length > this.#options.maxStreamBufferBytes) this.#overflow();
  }

  readonly #flush = (): void => {
    const chunk = this.#pending;
    if (this.#stopped || chunk === '') return;
    this.#pending = '';
    // A reader that does not keep up must not grow this process's memory without bound.
    if (this.#sink.write(chunk) > this.#options.maxStreamBufferBytes) this.#overflow();
  };

  #overflow(): void {
    this.stop();
    this.#onOverflow();
    this.#sink.destroy();
  }
}

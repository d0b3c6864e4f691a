import {
  ErrorCode,
  isRecord,
  type RequestContext,
  type TransportNotification,
  type TransportResponse,
} from '@mcp-tasks/protocol';
import { SSE_HEADERS, SSE_KEEP_ALIVE, sseEvent } from './httpReply.js';
import { httpStatusForError } from './httpStatus.js';

const PENDING = 0;
const STREAMING = 1;
const DONE = 2;

/**
 * Where one exchange writes its response; each front (fetch, node:http) implements it over its own I/O. The
 * exchange calls either `reply` once, or `openStream`, any number of `write`s, then `end` or `destroy`.
 */
export interface ResponseSink {
  /** Sends the whole response: a JSON body, or none (`undefined`, e.g. 202), with any extra `headers`. */
  reply(status: number, body: string | undefined, headers?: Readonly<Record<string, string>>): void;
  /** Starts a 200 response with `headers` whose body is written piecewise. */
  openStream(headers: Readonly<Record<string, string>>): void;
  /** Writes one piece of the body; returns how many bytes are still queued, unsent, for this response. */
  write(chunk: string): number;
  /** Completes the body. */
  end(): void;
  /** Drops the response at once (a reader that does not keep up). */
  destroy(): void;
}

/** Tuning for one exchange, fixed per handler. */
export interface ExchangeOptions {
  /** Interval of SSE keep-alive comments; 0 disables them. */
  readonly keepAliveIntervalMs: number;
  /** A stream whose unsent backlog exceeds this is dropped (slow reader): the request is aborted. */
  readonly maxStreamBufferBytes: number;
}

/**
 * One HTTP request/response pair as the runtime sees it: the {@link RequestContext} of the message, and the writer
 * of what comes back. Answers with plain JSON unless a notification arrives first, then switches to SSE
 * (`event: message`, one JSON-RPC message per event) and ends the stream with the response.
 *
 * Ownership: the exchange owns the abort signal; the front calls {@link Exchange.close} when the client went away
 * (connection closed, response stream cancelled), which aborts it unless the response was already complete.
 */
export class Exchange implements RequestContext {
  readonly principal: string | undefined;
  readonly #sink: ResponseSink;
  readonly #options: ExchangeOptions;
  #state = PENDING;
  #controller: AbortController | undefined;
  #closedEarly = false;
  #keepAlive: ReturnType<typeof setInterval> | undefined;

  constructor(sink: ResponseSink, principal: string | undefined, options: ExchangeOptions) {
    this.principal = principal;
    this.#sink = sink;
    this.#options = options;
  }

  /** Created on first use: most requests finish without anyone reading the signal. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#closedEarly) this.#controller.abort();
    }
    return this.#controller.signal;
  }

  /** Bound, so the runtime may pass `context.notify` around on its own. */
  readonly notify = (notification: TransportNotification): void => {
    if (this.#state === DONE) return;
    if (this.#state === PENDING) this.#startStream();
    this.#writeEvent(notification);
  };

  /** Writes the runtime's answer; `undefined` (a notification was accepted) becomes 202 with no body. */
  finish(response: TransportResponse | undefined): void {
    if (this.#state === DONE) return;
    if (this.#state === STREAMING) {
      if (response !== undefined) this.#writeEvent(response);
      this.#end();
      this.#sink.end();
      return;
    }
    this.#end();
    if (response === undefined) this.#sink.reply(202, undefined);
    else if (!('error' in response)) this.#sink.reply(200, JSON.stringify(response));
    else {
      const { code, data } = response.error;
      const retryAfter = code === ErrorCode.TooManyTasks ? { 'retry-after': retryAfterSeconds(data) } : undefined;
      this.#sink.reply(httpStatusForError(code), JSON.stringify(response), retryAfter);
    }
  }

  /** The client went away before the response was complete: aborts the request. Idempotent. */
  readonly close = (): void => {
    if (this.#state === DONE) return;
    this.#end();
    this.#closedEarly = true;
    this.#controller?.abort();
  };

  #startStream(): void {
    this.#state = STREAMING;
    this.#sink.openStream(SSE_HEADERS);
    const interval = this.#options.keepAliveIntervalMs;
    if (interval > 0) {
      const timer = setInterval(() => this.#write(SSE_KEEP_ALIVE), interval);
      // Node and Bun keep the process alive for a timer unless told otherwise; a quiet stream must not.
      (timer as { unref?: () => void }).unref?.();
      this.#keepAlive = timer;
    }
  }

  #writeEvent(message: unknown): void {
    this.#write(sseEvent(message));
  }

  #write(chunk: string): void {
    // A reader that does not keep up must not grow this process's memory without bound.
    if (this.#sink.write(chunk) > this.#options.maxStreamBufferBytes) {
      this.close();
      this.#sink.destroy();
    }
  }

  #end(): void {
    this.#state = DONE;
    if (this.#keepAlive !== undefined) clearInterval(this.#keepAlive);
  }
}

/** `Retry-After` for a task-limit error: its `data.retryAfterSeconds` when that is a sane whole number, else 1. */
function retryAfterSeconds(data: unknown): string {
  const seconds = isRecord(data) ? data.retryAfterSeconds : undefined;
  return typeof seconds === 'number' && Number.isInteger(seconds) && seconds >= 0 && seconds <= 86_400
    ? String(seconds)
    : '1';
}

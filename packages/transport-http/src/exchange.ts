import type { ServerResponse } from 'node:http';
import type { RequestContext, TransportNotification, TransportResponse } from '@mcp-tasks/protocol';
import { httpStatusForError } from './httpStatus.js';

const PENDING = 0;
const STREAMING = 1;
const DONE = 2;

/** Writes one JSON body with an exact Content-Length (keeps the connection reusable). */
export function writeJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  extraHeaders?: Readonly<Record<string, string>>,
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...extraHeaders,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
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
 * Ownership: the exchange owns the abort signal; it aborts it when the response closes before the runtime
 * answered (the client went away or closed the stream), and never after a completed response.
 */
export class Exchange implements RequestContext {
  readonly principal: string | undefined;
  readonly headers: Readonly<Record<string, string | undefined>>;
  #res: ServerResponse;
  #options: ExchangeOptions;
  #state = PENDING;
  #controller: AbortController | undefined;
  #closedEarly = false;
  #keepAlive: ReturnType<typeof setInterval> | undefined;

  constructor(
    res: ServerResponse,
    principal: string | undefined,
    headers: Readonly<Record<string, string | undefined>>,
    options: ExchangeOptions,
  ) {
    this.principal = principal;
    this.headers = headers;
    this.#res = res;
    this.#options = options;
    res.once('close', this.#onClose);
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
    const res = this.#res;
    if (this.#state === STREAMING) {
      if (response !== undefined) this.#writeEvent(response);
      this.#end();
      res.end();
      return;
    }
    this.#end();
    if (response === undefined) {
      res.writeHead(202);
      res.end();
    } else {
      writeJson(res, 'error' in response ? httpStatusForError(response.error.code) : 200, response);
    }
  }

  #startStream(): void {
    this.#state = STREAMING;
    this.#res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
    });
    const interval = this.#options.keepAliveIntervalMs;
    if (interval > 0) {
      this.#keepAlive = setInterval(() => this.#res.write(':\n\n'), interval);
      this.#keepAlive.unref();
    }
  }

  #writeEvent(message: unknown): void {
    const res = this.#res;
    res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
    // A reader that does not keep up must not grow this process's memory without bound.
    if (res.writableLength > this.#options.maxStreamBufferBytes) res.destroy();
  }

  #end(): void {
    this.#state = DONE;
    if (this.#keepAlive !== undefined) clearInterval(this.#keepAlive);
  }

  readonly #onClose = (): void => {
    if (this.#state === DONE) return;
    this.#end();
    this.#closedEarly = true;
    this.#controller?.abort();
  };
}

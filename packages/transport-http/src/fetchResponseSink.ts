import { onAbort, withFields } from '@mcp-tasks/protocol';
import { ClientWatch } from './clientWatch.js';
import type { OpenResponse } from './exchange.js';
import { type HttpReply, JSON_HEADERS } from './httpReply.js';
import type { ResponseSink } from './responseSink.js';

const encoder = new TextEncoder();

/** A binding reply as a fetch `Response`. */
export function toResponse(reply: HttpReply): Response {
  return new Response(reply.body ?? null, { status: reply.status, headers: reply.headers });
}

/**
 * The fetch side of an exchange: {@link FetchResponseSink.response} resolves with a JSON `Response` when the runtime
 * answers first, or with a streaming one (a `ReadableStream` of SSE events) when it notifies first. The exchange it
 * serves ({@link FetchResponseSink.watch}) is closed when the reader cancels that stream or the request aborts.
 */
export class FetchResponseSink extends ClientWatch implements ResponseSink {
  readonly response: Promise<Response>;
  #resolve!: (response: Response) => void;
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  #request: Request | undefined;
  #exchange: OpenResponse | undefined;
  #gone: HttpReply | undefined;
  #open = false;
  #settled = false;

  constructor() {
    super();
    this.response = new Promise((resolve) => {
      this.#resolve = resolve;
    });
  }

  reply(status: number, body: string | undefined, headers?: Readonly<Record<string, string>>): void {
    const base = body === undefined ? undefined : JSON_HEADERS;
    this.#settle(
      new Response(body ?? null, { status, headers: headers === undefined ? base : withFields(base ?? {}, headers) }),
    );
  }

  /**
   * The client went away before any response: settles {@link FetchResponseSink.response} with `reply` (nobody may
   * read it, but the platform must not be left waiting on a promise that never settles). No-op once settled.
   */
  abandon(reply: HttpReply): void {
    this.#settle(toResponse(reply));
  }

  #settle(response: Response): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#resolve(response);
  }

  /**
   * Ties the sink to the exchange writing into it and to its request: once someone needs to know (the answer streams
   * or the exchange's signal is made, which may come first: the runtime runs as soon as the message is dispatched),
   * an abort of `request.signal` closes `exchange` and settles the response with `gone`. On Node the adapters make
   * `request.signal` (an `AbortController`) on first use, a cost most requests, answered at once, never pay.
   */
  watch(request: Request, exchange: OpenResponse, gone: HttpReply): void {
    this.#request = request;
    this.#exchange = exchange;
    this.#gone = gone;
    this.arm();
  }

  protected startWatching(): void {
    const signal = (this.#request as Request).signal;
    if (signal.aborted) this.#clientGone();
    else onAbort(signal, () => this.#clientGone());
  }

  #clientGone(): void {
    this.#exchange?.close();
    this.abandon(this.#gone as HttpReply);
  }

  openStream(headers: Readonly<Record<string, string>>): void {
    this.watchClient();
    // highWaterMark 0 with a byte-size strategy: -desiredSize is exactly the unsent backlog.
    const stream = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#controller = controller;
        },
        cancel: () => {
          this.#open = false;
          this.#exchange?.close();
        },
      },
      { highWaterMark: 0, size: (chunk) => chunk.byteLength },
    );
    this.#open = true;
    this.#settle(new Response(stream, { status: 200, headers }));
  }

  write(chunk: string): number {
    const controller = this.#controller;
    if (!this.#open || controller === undefined) return 0;
    controller.enqueue(encoder.encode(chunk));
    return -(controller.desiredSize ?? 0);
  }

  end(): void {
    if (!this.#open) return;
    this.#open = false;
    this.#controller?.close();
  }

  destroy(): void {
    if (!this.#open) return;
    this.#open = false;
    this.#controller?.error(new Error('The reader did not keep up with the event stream'));
  }
}

import {
  encodeMessage,
  isRecord,
  type OutboundRequest,
  type PeerRequestOptions,
  type PeerSession,
  type RequestContext,
  type TransportNotification,
  type TransportRequest,
  type TransportResponse,
  withFields,
} from '@mcp-tasks/protocol';
import { httpStatusForError } from './httpStatus.js';
import type { ResponseSink } from './responseSink.js';
import { type SseOptions, SseWriter } from './sseWriter.js';

const PENDING = 0;
const STREAMING = 1;
const DONE = 2;

/** Tuning for one exchange, fixed per handler. */
export type ExchangeOptions = SseOptions;

/**
 * A response the front keeps open until it completes: the front calls `close` when the client goes away. `close` may
 * be a method: call it on the object (`open.close()`), never detached.
 */
export interface OpenResponse {
  /** The client went away (connection closed, response stream cancelled). Idempotent. */
  close(): void;
}

/** What a session gives the exchanges of its 2025-era messages. */
export interface ExchangeSession {
  readonly peer: PeerSession;
  /** Sends a server-to-client request with the session's ids and routing; `deliver` writes it (and its cancel). */
  sendRequest(
    message: OutboundRequest,
    options: PeerRequestOptions | undefined,
    deliver: (message: TransportRequest | TransportNotification) => void,
  ): Promise<TransportResponse>;
  /** Writes a message where messages of no request go (the GET stream, or its queue). */
  route(message: TransportRequest | TransportNotification): void;
}

/** How a 2025-era exchange differs from a 2026-07-28 one. */
export interface LegacyExchangeOptions {
  readonly session: ExchangeSession;
  /** Headers of the response when it switches to SSE (a new session's `Mcp-Session-Id`). */
  readonly streamHeaders?: Readonly<Record<string, string>>;
  /** JSON-RPC errors ride HTTP 200 (a live session), rather than the status of their code. */
  readonly errorsOnOk: boolean;
}

/**
 * One HTTP request/response pair as the runtime sees it: the {@link RequestContext} of the message, and the writer
 * of what comes back. Answers with plain JSON unless a notification (or, in a 2025-era session, a server-to-client
 * request) arrives first, then switches to SSE (`event: message`, one JSON-RPC message per event) and ends the
 * stream with the response.
 *
 * Ownership: the exchange owns the abort signal; the front calls {@link Exchange.close} when the client went away
 * (connection closed, response stream cancelled), which aborts it unless the response was already complete, or the
 * message is a 2025-era one (there a dropped connection is not a cancel; {@link Exchange.cancel} is).
 */
export class Exchange implements RequestContext, OpenResponse {
  readonly principal: string | undefined;
  readonly session: PeerSession | undefined;
  readonly #sink: ResponseSink;
  readonly #legacy: LegacyExchangeOptions | undefined;
  readonly #sseOptions: ExchangeOptions;
  /** Made when the answer turns into a stream: most answers are plain JSON. */
  #sse: SseWriter | undefined;
  #state = PENDING;
  #controller: AbortController | undefined;
  #aborted = false;
  /** Cancelled by the client (`notifications/cancelled`): the runtime's answer is not written. */
  #withdrawn = false;

  constructor(
    sink: ResponseSink,
    principal: string | undefined,
    options: ExchangeOptions,
    legacy?: LegacyExchangeOptions,
  ) {
    this.principal = principal;
    this.#sink = sink;
    this.#legacy = legacy;
    this.#sseOptions = options;
    this.session = legacy?.session.peer;
    if (legacy !== undefined) {
      // A 2025-era exchange must always learn of a dropped connection: its later messages go to the session instead.
      sink.watchClient?.();
    }
  }

  /**
   * A 2025-era exchange's server-to-client requests, written on this request's own stream while it is open (else
   * the session's); undefined on a 2026-07-28 exchange. Each read returns a new function bound to this exchange.
   *
   * A getter over a prototype method, not a closure kept by the exchange: measured on Node 20, with such a closure
   * (made in the constructor, or cached on first read) nearly everything a 2025-era request allocated survived the
   * young-generation collections of the first second, V8's allocation-site pretenuring then placed those objects in
   * the old generation, and a `tools/call` cost 50–70 µs of server CPU instead of 37–42. Why V8 kept them is not
   * known; a function bound per read does not have the effect (see the bench README, "Fourth pass").
   */
  get request(): RequestContext['request'] {
    return this.#legacy === undefined ? undefined : this.#sendRequest.bind(this);
  }

  #sendRequest(message: OutboundRequest, requestOptions?: PeerRequestOptions): Promise<TransportResponse> {
    return (this.#legacy as LegacyExchangeOptions).session.sendRequest(message, requestOptions, (outbound) =>
      this.#deliver(outbound),
    );
  }

  /** Created on first use: most requests finish without anyone reading the signal. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort();
      else this.#sink.watchClient?.();
    }
    return this.#controller.signal;
  }

  /** Bound, so the runtime may pass `context.notify` around on its own. */
  readonly notify = (notification: TransportNotification): void => {
    if (this.#state === DONE) return;
    (this.#state === PENDING ? this.#startStream() : (this.#sse as SseWriter)).send(notification);
  };

  /** Writes the runtime's answer; `undefined` (a notification was accepted) becomes 202 with no body. */
  finish(response: TransportResponse | undefined, headers?: Readonly<Record<string, string>>): void {
    if (this.#state === DONE) return;
    if (this.#withdrawn && response !== undefined) {
      // The client cancelled the request, so it gets no response (cancellation page); the POST, which must still be
      // answered, gets an SSE stream that ends without one.
      const sse = this.#state === PENDING ? this.#startStream() : (this.#sse as SseWriter);
      this.#state = DONE;
      sse.end();
      return;
    }
    if (this.#state === STREAMING) {
      this.#state = DONE;
      const sse = this.#sse as SseWriter;
      if (response !== undefined) sse.send(response);
      sse.end();
      return;
    }
    this.#state = DONE;
    if (response === undefined) this.#sink.reply(202, undefined, headers);
    else if (!('error' in response) || this.#legacy?.errorsOnOk === true)
      this.#sink.reply(200, encodeMessage(response), headers);
    else {
      const { code, data } = response.error;
      const status = httpStatusForError(code, data);
      const retryAfter = status === 429 || status === 503 ? { 'retry-after': retryAfterSeconds(data) } : undefined;
      this.#sink.reply(status, encodeMessage(response), withFields(headers ?? {}, retryAfter ?? {}));
    }
  }

  /** The client went away before the response was complete: aborts the request (2026-07-28 only). Idempotent. */
  close(): void {
    if (this.#state === DONE) return;
    this.#state = DONE;
    this.#sse?.stop();
    if (this.#legacy === undefined) this.cancel();
  }

  /** Aborts `signal`: the request was cancelled, or its session ended. Idempotent. */
  cancel(): void {
    this.#aborted = true;
    this.#controller?.abort();
  }

  /**
   * The client cancelled the request (`notifications/cancelled`, 2025 era): aborts `signal` like {@link cancel},
   * and the answer the runtime then returns is not written. Idempotent.
   */
  withdraw(): void {
    this.#withdrawn = true;
    this.cancel();
  }

  /** Server-to-client messages of this request go on its own stream while it is open, else the session's. */
  #deliver(message: TransportRequest | TransportNotification): void {
    if (this.#state === DONE) {
      this.#legacy?.session.route(message);
      return;
    }
    (this.#state === PENDING ? this.#startStream() : (this.#sse as SseWriter)).send(message);
  }

  #startStream(): SseWriter {
    this.#state = STREAMING;
    const sse = new SseWriter(this.#sink, this.#sseOptions, () => {
      this.#state = DONE;
      this.cancel();
    });
    this.#sse = sse;
    sse.open(this.#legacy?.streamHeaders);
    return sse;
  }
}

/** `Retry-After` for a retryable error: its `data.retryAfterSeconds` when that is a sane whole number, else 1. */
function retryAfterSeconds(data: unknown): string {
  const seconds = isRecord(data) ? data.retryAfterSeconds : undefined;
  return typeof seconds === 'number' && Number.isInteger(seconds) && seconds >= 0 && seconds <= 86_400
    ? String(seconds)
    : '1';
}

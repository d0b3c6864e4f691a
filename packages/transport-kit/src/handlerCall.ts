import type {
  OutboundRequest,
  PeerRequestOptions,
  PeerSession,
  RequestContext,
  TransportNotification,
  TransportRequestId,
  TransportResponse,
} from '@mcp-tasks/protocol';

/**
 * The connection's session as a handler call sees it: a {@link PeerSession} that can also ask on behalf of one
 * inbound request (the 2025 era's `ConnectionSession`, which the composing `ServerSession` passes in).
 */
export interface CallSession extends PeerSession {
  requestFor(inbound: AbortSignal, message: OutboundRequest, options?: PeerRequestOptions): Promise<TransportResponse>;
}

/**
 * One handler call, and the {@link RequestContext} the handler gets for it. Its `AbortController` is created only
 * when the handler first reads `context.signal`: most requests (e.g. `tasks/get`) never do, and the controller was a
 * measurable share of their cost. An abort that comes first is remembered and the signal is handed out already
 * aborted.
 *
 * The call is its own context, as the HTTP transport's exchange is: a separate object literal with its own `signal`
 * getter per message cost about 2.5 µs per message through the session (measured in process, where a whole
 * `tasks/get` takes 5–7 µs), far more than the two bound functions below. `signal` is an accessor of the class, so (as over HTTP) a wrapper that
 * spreads the context must carry `signal` over by reading it.
 */
export class HandlerCall implements RequestContext {
  readonly principal: string | undefined;
  readonly session: CallSession;
  /** The request's id; undefined for a notification or a message that is neither. */
  readonly id: TransportRequestId | undefined;
  /** The message's method when it had a string one. */
  readonly method: string | undefined;
  readonly #send: (notification: TransportNotification) => void;
  #controller: AbortController | undefined;
  #abortReason: unknown;
  #aborted = false;
  /** Set once the handler settled: later `notify()` calls are dropped. */
  done = false;
  /** True for a `subscriptions/listen` request (counted against the listen cap while it runs). */
  listen = false;

  constructor(
    principal: string | undefined,
    send: (notification: TransportNotification) => void,
    session: CallSession,
    id: TransportRequestId | undefined,
    method: string | undefined,
  ) {
    this.principal = principal;
    this.#send = send;
    this.session = session;
    this.id = id;
    this.method = method;
  }

  get aborted(): boolean {
    return this.#aborted;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#abortReason);
    }
    return this.#controller.signal;
  }

  /** Bound (a handler may pass it around on its own). */
  readonly notify = (notification: TransportNotification): void => {
    // After the response, a cancellation or close, nothing more may be written for this request.
    if (!this.done && !this.#aborted) this.#send(notification);
  };

  /** Bound. Tied to this request: cancelling it (or closing the connection) withdraws what it asked the client. */
  readonly request = (message: OutboundRequest, options?: PeerRequestOptions): Promise<TransportResponse> =>
    this.session.requestFor(this.signal, message, options);

  /** The first reason wins, as with `AbortController`. */
  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#abortReason = reason;
    this.#controller?.abort(reason);
  }
}

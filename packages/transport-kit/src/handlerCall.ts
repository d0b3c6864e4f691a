import type {
  OutboundRequest,
  PeerRequestOptions,
  RequestContext,
  TransportNotification,
  TransportRequestId,
  TransportResponse,
} from '@mcp-tasks/protocol';
import type { ConnectionSession } from './peerSession.js';

/**
 * One handler call, and the {@link RequestContext} the handler gets for it. Its `AbortController` is created only
 * when the handler first reads `context.signal`: most requests (e.g. `tasks/get`) never do, and the controller was a
 * measurable share of their cost. An abort that comes first is remembered and the signal is handed out already
 * aborted.
 *
 * The call is its own context: a separate context object with a getter and two closures per message was most of
 * this class's cost on the message transports' hot path. `notify` and `request` stay bound functions (a handler
 * may pass them around on their own), but each is made on first read: most requests read neither.
 */
export class HandlerCall implements RequestContext {
  readonly principal: string | undefined;
  readonly session: ConnectionSession;
  /** The request's id; undefined for a notification or a message that is neither. */
  readonly id: TransportRequestId | undefined;
  /** The message's method when it had a string one. */
  readonly method: string | undefined;
  readonly #send: (notification: TransportNotification) => void;
  #notify: ((notification: TransportNotification) => void) | undefined;
  #request: NonNullable<RequestContext['request']> | undefined;
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
    session: ConnectionSession,
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

  /** Bound, made on first read. */
  get notify(): (notification: TransportNotification) => void {
    this.#notify ??= (notification) => {
      // After the response, a cancellation or close, nothing more may be written for this request.
      if (!this.done && !this.#aborted) this.#send(notification);
    };
    return this.#notify;
  }

  /** Bound, made on first read. Tied to this request: cancelling it (or closing the connection) withdraws what it asked the client. */
  get request(): (message: OutboundRequest, options?: PeerRequestOptions) => Promise<TransportResponse> {
    this.#request ??= (message, options) => this.session.requestFor(this.signal, message, options);
    return this.#request;
  }

  /** The first reason wins, as with `AbortController`. */
  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#abortReason = reason;
    this.#controller?.abort(reason);
  }
}

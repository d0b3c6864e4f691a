import type { RequestContext, TransportNotification } from '@mcp-tasks/protocol';
import type { ConnectionSession } from './peerSession.js';

/**
 * One handler call. Its `AbortController` is created only when the handler first reads `context.signal`: most
 * requests (e.g. `tasks/get`) never do, and the controller was a measurable share of their cost. An abort that
 * comes first is remembered and the signal is handed out already aborted.
 */
export class HandlerCall {
  readonly context: RequestContext;
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
  ) {
    const call = this;
    this.context = {
      principal,
      get signal() {
        return call.signal;
      },
      notify: (notification) => {
        // After the response, a cancellation or close, nothing more may be written for this request.
        if (!call.done && !call.#aborted) send(notification);
      },
      session,
      // Tied to this request: cancelling it (or closing the connection) withdraws what it asked the client.
      request: (message, options) => session.requestFor(call.signal, message, options),
    };
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

  /** The first reason wins, as with `AbortController`. */
  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#abortReason = reason;
    this.#controller?.abort(reason);
  }
}

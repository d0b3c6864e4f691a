import {
  type ClientPeerHandler,
  ErrorCode,
  TransportError,
  type TransportRequest,
  type TransportRequestId,
  type TransportResponse,
} from '@mcp-tasks/protocol';

/**
 * The server-to-client requests of one client transport: hands each to the installed {@link ClientPeerHandler}
 * (or answers -32601 without one), sends the response back through `reply`, and aborts the handler's signal when
 * the server cancels the request or the transport closes. A cancelled request gets no response, as the
 * cancellation rules ask.
 */
export class ServerRequests {
  handler: ClientPeerHandler | undefined;
  readonly #running = new Map<TransportRequestId, AbortController>();
  readonly #reply: (response: TransportResponse) => Promise<void>;
  readonly #warn: (message: string) => void;

  constructor(reply: (response: TransportResponse) => Promise<void>, warn: (message: string) => void) {
    this.#reply = reply;
    this.#warn = warn;
  }

  /** Starts serving `request`; its response is sent when the handler resolves. */
  serve(request: TransportRequest): void {
    void this.#serve(request);
  }

  /** Aborts the running request named by `requestId`; false when there is none (the notification is not ours). */
  cancel(requestId: unknown): boolean {
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return false;
    const controller = this.#running.get(requestId);
    if (controller === undefined) return false;
    this.#running.delete(requestId);
    controller.abort(new Error('The server cancelled the request'));
    return true;
  }

  /** Aborts every running request (the transport is closing); none of them is answered. */
  abortAll(reason: unknown): void {
    for (const controller of this.#running.values()) controller.abort(reason);
    this.#running.clear();
  }

  async #serve(request: TransportRequest): Promise<void> {
    const controller = new AbortController();
    this.#running.set(request.id, controller);
    let response: TransportResponse;
    try {
      response =
        this.handler === undefined
          ? {
              jsonrpc: '2.0',
              id: request.id,
              error: { code: ErrorCode.MethodNotFound, message: `Method not found: ${request.method}` },
            }
          : await this.handler.onRequest(request, { signal: controller.signal });
    } catch (error) {
      // The handler must not reject; if it does, the server still deserves an answer.
      const message = error instanceof Error ? error.message : 'Internal error';
      response = { jsonrpc: '2.0', id: request.id, error: { code: ErrorCode.InternalError, message } };
    } finally {
      if (this.#running.get(request.id) === controller) this.#running.delete(request.id);
    }
    if (controller.signal.aborted) return;
    try {
      await this.#reply(response);
    } catch (error) {
      // Closing the transport while the answer was on its way is not worth a warning.
      if (error instanceof TransportError && error.code === 'closed') return;
      const why = error instanceof Error ? error.message : String(error);
      this.#warn(`Could not send the response to server request ${JSON.stringify(request.id)}: ${why}`);
    }
  }
}

import type {
  ClientPeerHandler,
  TransportNotification,
  TransportRequest,
  TransportRequestId,
  TransportResponse,
} from '@mcp-tasks/protocol';
import { ErrorCode, isRecord, TransportError, withFields } from '@mcp-tasks/protocol';

/** Default {@link ClientPeerDispatchOptions.maxConcurrent}: server requests a client runs at once per connection. */
export const DEFAULT_MAX_SERVER_REQUESTS = 64;

/** Options for {@link ClientPeerDispatch}. */
export interface ClientPeerDispatchOptions {
  /** Writes one response to the server. May throw or reject (connection gone); that is reported, not rethrown. */
  readonly send: (response: TransportResponse) => void | Promise<void>;
  /**
   * Server requests that may run at once; one more is answered `-32600` with `data.limit: 'maxServerRequests'`
   * and not handed to the handler. @default 64
   */
  readonly maxConcurrent?: number;
  /** Also sees every notification that belongs to none of the client's requests, handler or not. */
  readonly onUnroutedNotification?: (notification: TransportNotification) => void;
  /** Non-fatal problems: a handler that rejected or returned nothing, a response that could not be written. */
  readonly onError?: (error: Error) => void;
}

/**
 * The client side of a 2025-era session on a connection: what a server sends that is not the answer to one of the
 * client's requests. Server requests go to the installed {@link ClientPeerHandler} and its response is written back
 * (`-32601` while none is installed); the server's `notifications/cancelled` naming one of them aborts its signal
 * and its response is then not sent; other notifications go to `handler.onNotification` (dropped without one).
 */
export class ClientPeerDispatch {
  readonly #options: ClientPeerDispatchOptions;
  readonly #maxConcurrent: number;
  readonly #running = new Map<TransportRequestId, AbortController>();
  #handler: ClientPeerHandler | undefined;

  /** Creates the dispatch with no handler installed (server requests answer `-32601` until one is). */
  constructor(options: ClientPeerDispatchOptions) {
    this.#options = options;
    this.#maxConcurrent = options.maxConcurrent ?? DEFAULT_MAX_SERVER_REQUESTS;
  }

  /** Server requests being handled. */
  get inFlight(): number {
    return this.#running.size;
  }

  /** The installed receiver of server-initiated messages, if any. */
  get handler(): ClientPeerHandler | undefined {
    return this.#handler;
  }

  /** Installs the receiver of server-initiated messages, replacing any earlier one. */
  setHandler(handler: ClientPeerHandler): void {
    this.#handler = handler;
  }

  /**
   * Takes the server's `notifications/cancelled` naming one of its running requests: aborts the handler's signal
   * with the notification's `reason`, and the response is then not sent. False for any other notification, or a
   * cancellation naming no running server request (one of the client's own requests, or one that came too late),
   * which the caller routes on.
   */
  takeCancellation(notification: TransportNotification): boolean {
    const params = notification.params;
    if (notification.method !== 'notifications/cancelled' || !isRecord(params)) return false;
    const id = params.requestId;
    if (typeof id !== 'string' && typeof id !== 'number') return false;
    const controller = this.#running.get(id);
    if (controller === undefined) return false;
    this.#running.delete(id);
    const reason = typeof params.reason === 'string' ? params.reason : 'Request cancelled by the server';
    controller.abort(new DOMException(reason, 'AbortError'));
    return true;
  }

  /** Handles one server request (a message with `method` and `id`). */
  readonly receiveRequest = (request: TransportRequest): void => {
    const { id } = request;
    const handler = this.#handler;
    if (handler === undefined) {
      this.#reply({ jsonrpc: '2.0', id, error: { code: ErrorCode.MethodNotFound, message: 'Method not found' } });
      return;
    }
    if (this.#running.has(id)) {
      const message = 'Invalid Request: a request with this id is still in flight';
      this.#reply({ jsonrpc: '2.0', id, error: { code: ErrorCode.InvalidRequest, message } });
      return;
    }
    if (this.#running.size >= this.#maxConcurrent) {
      const message = `Invalid Request: too many server requests running (limit ${this.#maxConcurrent})`;
      const data = { limit: 'maxServerRequests', max: this.#maxConcurrent };
      this.#reply({ jsonrpc: '2.0', id, error: { code: ErrorCode.InvalidRequest, message, data } });
      return;
    }
    const controller = new AbortController();
    this.#running.set(id, controller);
    let answer: Promise<TransportResponse>;
    try {
      answer = Promise.resolve(handler.onRequest(request, { signal: controller.signal }));
    } catch (error) {
      answer = Promise.reject(error);
    }
    answer
      .then((response) => {
        if (!isRecord(response))
          throw new Error(`The peer handler answered server request ${JSON.stringify(id)} with nothing`);
        // The server matches by id, so the response names this request whatever the handler put there.
        return withFields(response, { id }) as TransportResponse;
      })
      .catch((error: unknown): TransportResponse => {
        this.#options.onError?.(error instanceof Error ? error : new Error(String(error)));
        return { jsonrpc: '2.0', id, error: { code: ErrorCode.InternalError, message: 'Internal error' } };
      })
      .then((response) => {
        if (this.#running.get(id) !== controller) return; // Cancelled or closed: the server expects nothing.
        this.#running.delete(id);
        this.#reply(response);
      });
  };

  /** Handles one notification that belongs to none of the client's pending requests. */
  readonly receiveNotification = (notification: TransportNotification): void => {
    if (this.takeCancellation(notification)) return;
    this.#options.onUnroutedNotification?.(notification);
    try {
      this.#handler?.onNotification(notification);
    } catch (error) {
      this.#options.onError?.(error instanceof Error ? error : new Error(String(error)));
    }
  };

  /** Aborts every running server request (their responses are not sent), e.g. when the connection closes. */
  abortAll(reason: TransportError = new TransportError('closed', 'The connection closed')): void {
    const running = [...this.#running.values()];
    this.#running.clear();
    for (const controller of running) controller.abort(reason);
  }

  #reply(response: TransportResponse): void {
    const report = (cause: unknown): void =>
      this.#options.onError?.(new Error('Could not send the response to a server request', { cause }));
    try {
      Promise.resolve(this.#options.send(response)).catch(report);
    } catch (error) {
      report(error);
    }
  }
}

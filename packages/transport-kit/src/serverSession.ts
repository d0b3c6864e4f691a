import type {
  TransportNotification,
  TransportRequest,
  TransportRequestId,
  TransportResponse,
} from '@mcp-tasks/protocol';
import { ErrorCode, encodeMessage, isRecord, jsonRpcError, TransportError } from '@mcp-tasks/protocol';
import { DEFAULT_MAX_DEPTH, decodeMessage, decodeUtf8, INVALID_UTF8_ERROR } from './decodeMessage.js';
import { ConnectionSession, isResponse } from './era-2025/index.js';
import { HandlerCall } from './handlerCall.js';
import { DEFAULT_MAX_IN_FLIGHT, DEFAULT_MAX_LISTENS, type ServerSessionOptions } from './serverSessionOptions.js';

const LISTEN_METHOD = 'subscriptions/listen';

/**
 * The server half of a message-stream transport (stdio line, WebSocket frame): one per connection.
 *
 * Contract: requests run concurrently and are answered as they finish; `notifications/cancelled` aborts the named
 * request and suppresses everything it would still write (a cancellation naming anything else, such as one of the
 * server's own requests, is ignored); other notifications go to the handler and never get a response.
 *
 * The connection is the session: every message reaches the handler with `context.session` ({@link peer}, one per
 * connection, `closed` aborting when it closes) and `context.request` (a server-to-client request withdrawn when
 * that inbound request is cancelled). Responses the client sends are matched to those requests by id; one naming
 * none is dropped and reported to `onError`. `close()` aborts every in-flight request, rejects every pending
 * server-to-client request with `TransportError('closed')`, ends the session and drops all later output.
 */
export class ServerSession {
  readonly #options: ServerSessionOptions;
  readonly #requests = new Map<TransportRequestId, HandlerCall>();
  /** Handler calls not addressable by id (notifications, malformed messages), so that `close()` can abort them. */
  readonly #untracked = new Set<HandlerCall>();
  /** Handler calls not yet settled, and the `idle()` callers waiting for that count to reach 0. */
  #running = 0;
  /** Open listen streams (tracked requests whose method is `subscriptions/listen`). */
  #listens = 0;
  readonly #maxInFlight: number;
  readonly #maxListens: number;
  readonly #maxDepth: number;
  #idleWaiters: Array<() => void> = [];
  #closed = false;
  /** This connection as a 2025-era session: what `context.session` is for every message it carries. */
  readonly peer: ConnectionSession;

  /** Creates the session for one connection; it handles nothing until the transport hands it messages. */
  constructor(options: ServerSessionOptions) {
    this.#options = options;
    this.peer = new ConnectionSession({
      send: (message) => this.#send(message),
      maxPeerRequests: options.maxPeerRequests,
      peerRequestTimeoutMs: options.peerRequestTimeoutMs,
      onError: options.onError,
    });
    this.#maxInFlight = options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
    this.#maxListens = options.maxListens ?? DEFAULT_MAX_LISTENS;
    this.#maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  }

  /** Number of requests still running (cancelled ones excluded). */
  get inFlight(): number {
    return this.#requests.size;
  }

  /**
   * Parses one inbound frame or line; unparseable text is answered with `-32700` (no id: it cannot be read), a
   * message nested deeper than `maxDepth` with `-32602`.
   */
  receiveText(text: string): void {
    const decoded = decodeMessage(text, { maxDepth: this.#maxDepth });
    if (decoded.ok) this.receive(decoded.message);
    else this.#send(decoded.error);
  }

  /** Like {@link receiveText} for raw bytes: invalid UTF-8 is refused with `-32700` rather than repaired. */
  receiveBytes(bytes: Uint8Array): void {
    const text = decodeUtf8(bytes);
    if (text === undefined) this.#send(INVALID_UTF8_ERROR);
    else this.receiveText(text);
  }

  /** Dispatches one parsed inbound message (anything `JSON.parse` produced). */
  receive(message: unknown): void {
    if (this.#closed) return;
    if (isRecord(message) && typeof message.method === 'string') {
      if (!('id' in message)) {
        if (message.method === 'notifications/cancelled') this.#cancel(message.params);
        else this.#dispatch(message, undefined, message.method);
        return;
      }
      if (typeof message.id === 'string' || typeof message.id === 'number') {
        this.#dispatch(message, message.id, message.method);
        return;
      }
    } else if (isResponse(message)) {
      this.peer.receiveResponse(message);
      return;
    }
    // Any other shape is the runtime's to reject; it answers with an error response.
    this.#dispatch(message, undefined, undefined);
  }

  /** Aborts every running handler with a `TransportError('closed')` and drops all later output. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    const reason = new TransportError('closed', 'The connection closed');
    for (const call of this.#requests.values()) call.abort(reason);
    for (const call of this.#untracked) call.abort(reason);
    this.#requests.clear();
    this.#listens = 0;
    this.peer.close();
  }

  /**
   * Resolves once every handler call started so far (and any started meanwhile) has settled, or after `timeoutMs`
   * (a handler that ignores its aborted signal must not block shutdown forever).
   */
  idle(timeoutMs = Number.POSITIVE_INFINITY): Promise<void> {
    if (this.#running === 0) return Promise.resolve();
    return new Promise((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const wake = () => {
        clearTimeout(timer);
        resolve();
      };
      this.#idleWaiters.push(wake);
      if (Number.isFinite(timeoutMs)) {
        timer = setTimeout(() => {
          this.#idleWaiters = this.#idleWaiters.filter((waiter) => waiter !== wake);
          resolve();
        }, timeoutMs);
      }
    });
  }

  #cancel(params: unknown): void {
    if (!isRecord(params)) return;
    const id = params.requestId;
    if (typeof id !== 'string' && typeof id !== 'number') return;
    const call = this.#requests.get(id);
    // Unknown or finished requests are ignored, as the cancellation pattern allows.
    if (call === undefined) return;
    // The id is free again at once; the aborted call settles on its own and writes nothing more.
    this.#forget(id, call);
    const reason = typeof params.reason === 'string' ? params.reason : 'Request cancelled by the client';
    call.abort(new DOMException(reason, 'AbortError'));
  }

  #forget(id: TransportRequestId, call: HandlerCall): void {
    this.#requests.delete(id);
    if (call.listen) this.#listens--;
  }

  readonly #sendNotification = (notification: TransportNotification): void => this.#send(notification);

  /**
   * `id` is set for requests (answered), undefined otherwise; `method` is set when the message had a string method.
   * Runs on every message, so it keeps to one promise reaction per call: no async wrapper, no `finally`.
   */
  #dispatch(message: unknown, id: TransportRequestId | undefined, method: string | undefined): void {
    if (id !== undefined && this.#requests.has(id)) {
      this.#send({
        jsonrpc: '2.0',
        id,
        error: { code: -32600, message: 'Invalid Request: a request with this id is still in flight' },
      });
      return;
    }
    if (id !== undefined && this.#overLimit(id, method)) return;
    // The call carries its id and method, so the two reactions below close over it alone.
    const call = new HandlerCall(this.#options.principal, this.#sendNotification, this.peer, id, method);
    call.listen = method === LISTEN_METHOD;
    if (id === undefined) this.#untracked.add(call);
    else {
      this.#requests.set(id, call);
      if (call.listen) this.#listens++;
    }
    this.#running++;
    let pending: Promise<TransportResponse | undefined>;
    try {
      // Promise.resolve returns a native promise as it is; it only guards a handler that breaks its contract.
      pending = Promise.resolve(this.#options.handler(message, call));
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(
      (response) => this.#settle(call, response),
      (error: unknown) => this.#fail(call, error),
    );
  }

  /** The handler contract says it never rejects; stay up and answer anyway. */
  #fail(call: HandlerCall, error: unknown): void {
    this.#options.onError?.(error instanceof Error ? error : new Error(String(error)));
    const internal = { code: -32603, message: 'Internal error' };
    const { id } = call;
    this.#settle(
      call,
      id === undefined ? { jsonrpc: '2.0', error: internal } : { jsonrpc: '2.0', id, error: internal },
    );
  }

  /** Refuses a request over this connection's caps (answered here, never run). */
  #overLimit(id: TransportRequestId, method: string | undefined): boolean {
    let limit: 'maxInFlight' | 'maxListens' | undefined;
    let max = 0;
    if (this.#requests.size >= this.#maxInFlight) {
      limit = 'maxInFlight';
      max = this.#maxInFlight;
    } else if (method === LISTEN_METHOD && this.#listens >= this.#maxListens) {
      limit = 'maxListens';
      max = this.#maxListens;
    }
    if (limit === undefined) return false;
    const what = limit === 'maxInFlight' ? 'requests in flight' : 'open listen streams';
    this.#send(
      jsonRpcError(id, {
        code: ErrorCode.InvalidRequest,
        message: `Invalid Request: too many ${what} on this connection (limit ${max}); retry once some finish`,
        data: { limit, max },
      }),
    );
    return true;
  }

  #settle(call: HandlerCall, response: TransportResponse | undefined): void {
    const { id, method } = call;
    call.done = true;
    if (id === undefined) this.#untracked.delete(call);
    else if (this.#requests.get(id) === call) this.#forget(id, call);
    if (--this.#running === 0 && this.#idleWaiters.length > 0) {
      const waiters = this.#idleWaiters;
      this.#idleWaiters = [];
      for (const wake of waiters) wake();
    }
    // Notifications get no response; cancelled or closed requests get nothing more at all.
    if (id === undefined && method !== undefined) return;
    if (call.aborted) return;
    if (response === undefined) {
      if (id === undefined) return;
      // A request must be answered; a handler that resolved with nothing would leave the client waiting forever.
      this.#options.onError?.(new Error(`The handler returned no response for request ${JSON.stringify(id)}`));
      this.#send({ jsonrpc: '2.0', id, error: { code: -32603, message: 'Internal error' } });
      return;
    }
    this.#send(response);
    if (method === LISTEN_METHOD && id !== undefined && 'result' in response) {
      // The cancellation page requires this when a server ends a listen stream on a shared channel; the listen
      // result above is the graceful end the subscriptions page asks for. Clients accept either.
      this.#send({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: id, reason: 'Subscription ended by the server' },
      });
    }
  }

  /**
   * Writes what the server says on this connection; dropped once closed. A server-to-client request that cannot be
   * serialized throws (its request then rejects with `send_failed`); anything else is reported and, when it
   * answers a request, replaced by `-32603`.
   */
  #send(message: TransportResponse | TransportNotification | TransportRequest): void {
    if (this.#closed) return;
    let text: string;
    try {
      text = encodeMessage(message);
    } catch (error) {
      if ('method' in message && 'id' in message) throw error;
      this.#options.onError?.(new Error('Could not serialize an outbound message', { cause: error }));
      if ('id' in message && message.id !== undefined) {
        text = JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32603, message: 'Internal error' } });
      } else return;
    }
    this.#options.write(text);
  }
}

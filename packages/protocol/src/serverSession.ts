import type {
  MessageHandler,
  RequestContext,
  TransportNotification,
  TransportRequestId,
  TransportResponse,
} from './transport.js';
import { TransportError } from './transport.js';

/** Options for {@link ServerSession}. */
export interface ServerSessionOptions {
  /** The runtime. Each inbound message is handed to it with a fresh {@link RequestContext}. */
  readonly handler: MessageHandler;
  /** Writes one serialized JSON-RPC message to the peer. Must not throw; framing (newline, frame) is the caller's. */
  readonly write: (text: string) => void;
  /** Principal for every request on this channel (from authentication), passed through to the runtime. */
  readonly principal?: string;
  /** Receives non-fatal problems (a response sent by the peer, a handler that rejected); the session keeps going. */
  readonly onError?: (error: Error) => void;
}

interface InFlight {
  readonly controller: AbortController;
  done: boolean;
}

/**
 * The server half of a message-stream transport (stdio line, WebSocket frame): one per connection.
 *
 * Contract: requests run concurrently and are answered as they finish; `notifications/cancelled` aborts the named
 * request and suppresses everything it would still write; other notifications go to the handler and never get a
 * response; responses sent by the peer are dropped (clients must not send them). `close()` aborts every
 * in-flight request and drops all later output.
 */
export class ServerSession {
  readonly #options: ServerSessionOptions;
  readonly #requests = new Map<TransportRequestId, InFlight>();
  /** Handler calls not (or no longer) addressable by id: notifications, malformed messages, cancelled requests. */
  readonly #untracked = new Set<AbortController>();
  readonly #settling = new Set<Promise<void>>();
  #closed = false;

  constructor(options: ServerSessionOptions) {
    this.#options = options;
  }

  /** Number of requests still running (cancelled ones excluded). */
  get inFlight(): number {
    return this.#requests.size;
  }

  /** Parses one inbound frame or line; unparseable text is answered with `-32700` and id null. */
  receiveText(text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      this.#send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: invalid JSON' } });
      return;
    }
    this.receive(message);
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
    } else if (isRecord(message) && 'id' in message && ('result' in message || 'error' in message)) {
      this.#options.onError?.(
        new Error('Dropped a JSON-RPC response from the client; clients must not send responses'),
      );
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
    for (const entry of this.#requests.values()) entry.controller.abort(reason);
    for (const controller of this.#untracked) controller.abort(reason);
    this.#requests.clear();
  }

  /**
   * Resolves once every handler call started so far has settled, or after `timeoutMs` (a handler that ignores its
   * aborted signal must not block shutdown forever).
   */
  async idle(timeoutMs = Number.POSITIVE_INFINITY): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<void>((resolve) => {
      if (Number.isFinite(timeoutMs)) timer = setTimeout(resolve, timeoutMs);
    });
    const settled = (async () => {
      while (this.#settling.size > 0) await Promise.allSettled([...this.#settling]);
    })();
    try {
      await Promise.race([settled, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  #cancel(params: unknown): void {
    if (!isRecord(params)) return;
    const id = params.requestId;
    if (typeof id !== 'string' && typeof id !== 'number') return;
    const entry = this.#requests.get(id);
    // Unknown or finished requests are ignored, as the cancellation pattern allows.
    if (entry === undefined) return;
    this.#requests.delete(id);
    this.#untracked.add(entry.controller);
    const reason = typeof params.reason === 'string' ? params.reason : 'Request cancelled by the client';
    entry.controller.abort(new DOMException(reason, 'AbortError'));
  }

  /** `id` is set for requests (answered), undefined otherwise; `method` is set when the message had a string method. */
  #dispatch(message: unknown, id: TransportRequestId | undefined, method: string | undefined): void {
    if (id !== undefined && this.#requests.has(id)) {
      this.#send({
        jsonrpc: '2.0',
        id,
        error: { code: -32600, message: 'Invalid Request: a request with this id is still in flight' },
      });
      return;
    }
    const controller = new AbortController();
    const entry: InFlight = { controller, done: false };
    if (id === undefined) this.#untracked.add(controller);
    else this.#requests.set(id, entry);

    const context: RequestContext = {
      principal: this.#options.principal,
      signal: controller.signal,
      notify: (notification: TransportNotification) => {
        // After the response, a cancellation or close, nothing more may be written for this request.
        if (!entry.done && !controller.signal.aborted) this.#send(notification);
      },
    };
    const run = this.#invoke(message, context).then((response) => {
      entry.done = true;
      this.#untracked.delete(controller);
      if (id !== undefined && this.#requests.get(id) === entry) this.#requests.delete(id);
      // Notifications get no response; cancelled or closed requests get nothing more at all.
      if (id === undefined && method !== undefined) return;
      if (controller.signal.aborted) return;
      if (response === undefined) {
        if (id === undefined) return;
        // A request must be answered; a handler that resolved with nothing would leave the client waiting forever.
        this.#options.onError?.(new Error(`The handler returned no response for request ${JSON.stringify(id)}`));
        this.#send({ jsonrpc: '2.0', id, error: { code: -32603, message: 'Internal error' } });
        return;
      }
      this.#send(response);
      if (method === 'subscriptions/listen' && id !== undefined && 'result' in response) {
        // The cancellation page requires this when a server ends a listen stream on a shared channel; the listen
        // result above is the graceful end the subscriptions page asks for. Clients accept either.
        this.#send({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: id, reason: 'Subscription ended by the server' },
        });
      }
    });
    this.#settling.add(run);
    void run.finally(() => this.#settling.delete(run));
  }

  async #invoke(message: unknown, context: RequestContext): Promise<TransportResponse | undefined> {
    try {
      return await this.#options.handler(message, context);
    } catch (error) {
      // The handler contract says it never rejects; stay up and answer anyway.
      this.#options.onError?.(error instanceof Error ? error : new Error(String(error)));
      const id =
        isRecord(message) && (typeof message.id === 'string' || typeof message.id === 'number') ? message.id : null;
      return { jsonrpc: '2.0', id, error: { code: -32603, message: 'Internal error' } };
    }
  }

  #send(message: TransportResponse | TransportNotification | { jsonrpc: '2.0'; id: null; error: object }): void {
    if (this.#closed) return;
    let text: string;
    try {
      text = JSON.stringify(message);
    } catch (error) {
      this.#options.onError?.(new Error('Could not serialize an outbound message', { cause: error }));
      if ('id' in message && message.id !== null) {
        text = JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32603, message: 'Internal error' } });
      } else return;
    }
    this.#options.write(text);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

import type {
  ClientRequestOptions,
  TransportNotification,
  TransportRequest,
  TransportRequestId,
  TransportResponse,
} from '@mcp-tasks/protocol';
import { isRecord, META, onAbort, TransportError } from '@mcp-tasks/protocol';

const SUBSCRIPTION_ID = META.subscriptionId;

/** Options for {@link PendingRequests}. */
export interface PendingRequestsOptions {
  /** Writes one outbound message to the channel; a throw or rejection fails the request with `send_failed`. */
  readonly send: (message: TransportRequest | TransportNotification) => void | Promise<void>;
  /** Receives notifications that name no in-flight request (e.g. `notifications/message` on a shared channel). */
  readonly onUnroutedNotification?: (notification: TransportNotification) => void;
  /**
   * Receives requests the peer sends (a message with `method` and `id`), e.g. a 2025-era server's `roots/list`.
   * Without it such a message is not routable and {@link PendingRequests.receive} returns false.
   */
  readonly onRequest?: (request: TransportRequest) => void;
}

interface Pending {
  readonly message: TransportRequest;
  readonly method: string;
  readonly resolve: (response: TransportResponse) => void;
  readonly reject: (error: unknown) => void;
  readonly onNotification: ((notification: TransportNotification) => void) | undefined;
  readonly progressToken: string | number | undefined;
  readonly cleanup: () => void;
}

/**
 * Client-side correlation for a shared message channel (stdio, WebSocket): matches responses to requests by id and
 * routes notifications to the request they belong to.
 *
 * Routing: `notifications/progress` by the request's `_meta.progressToken`; anything carrying
 * `_meta["io.modelcontextprotocol/subscriptionId"]` to the listen request with that id; a server-sent
 * `notifications/cancelled` naming a pending `subscriptions/listen` is delivered to it and then ends it with a
 * synthesized complete listen result. Late responses (after abort) are ignored. Aborting a request's signal sends
 * `notifications/cancelled` and rejects with the signal's reason. Requests from the peer (2025-era server requests)
 * go to `onRequest`; notifications that belong to no pending request to `onUnroutedNotification`.
 */
export class PendingRequests {
  readonly #options: PendingRequestsOptions;
  readonly #pending = new Map<TransportRequestId, Pending>();
  readonly #byProgressToken = new Map<string | number, TransportRequestId>();
  #closedError: TransportError | undefined;

  /** Creates the table with nothing pending. */
  constructor(options: PendingRequestsOptions) {
    this.#options = options;
  }

  /** Number of requests awaiting a response. */
  get size(): number {
    return this.#pending.size;
  }

  /** True while a request with this id awaits its response. */
  has(id: TransportRequestId): boolean {
    return this.#pending.has(id);
  }

  /** Registers and sends one request; see {@link @mcp-tasks/protocol!ClientTransport.request}. */
  request(message: TransportRequest, options: ClientRequestOptions = {}): Promise<TransportResponse> {
    if (this.#closedError !== undefined) return Promise.reject(this.#closedError);
    const { signal, onNotification } = options;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const id = message.id;
    if (this.#pending.has(id)) {
      return Promise.reject(new TransportError('send_failed', `A request with id ${JSON.stringify(id)} is in flight`));
    }
    return new Promise<TransportResponse>((resolve, reject) => {
      const meta = message.params?._meta;
      const token = isRecord(meta) ? meta.progressToken : undefined;
      const progressToken = typeof token === 'string' || typeof token === 'number' ? token : undefined;
      let off: (() => void) | undefined;
      const cancel = (): void => {
        if (this.#pending.get(id) !== entry) return;
        entry.cleanup();
        const reason = signal?.reason instanceof Error ? signal.reason.message : undefined;
        void this.#sendQuietly({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: reason === undefined ? { requestId: id } : { requestId: id, reason },
        });
        reject(signal?.reason);
      };
      const entry: Pending = {
        message,
        method: message.method,
        resolve,
        reject,
        onNotification,
        progressToken,
        cleanup: () => {
          this.#pending.delete(id);
          if (progressToken !== undefined) this.#byProgressToken.delete(progressToken);
          off?.();
        },
      };
      this.#pending.set(id, entry);
      if (progressToken !== undefined) this.#byProgressToken.set(progressToken, id);
      if (signal !== undefined) off = onAbort(signal, cancel);
      this.#sendOrFail(id, entry, message);
    });
  }

  /** Handles one parsed inbound message. Returns false when it could not be routed at all (a malformed message). */
  receive(message: unknown): boolean {
    if (!isRecord(message)) return false;
    if (typeof message.method === 'string') {
      if ('id' in message) {
        // 2026-07-28 servers never send requests; a 2025-era session's do, and go to `onRequest` when there is one.
        if (this.#options.onRequest === undefined) return false;
        if (typeof message.id !== 'string' && typeof message.id !== 'number') return false;
        this.#options.onRequest(message as unknown as TransportRequest);
        return true;
      }
      this.#route(message as unknown as TransportNotification);
      return true;
    }
    if (
      (typeof message.id !== 'string' && typeof message.id !== 'number') ||
      !('result' in message || 'error' in message)
    ) {
      return false;
    }
    const entry = this.#pending.get(message.id);
    if (entry === undefined) return true; // Late response to an aborted request: ignored, as the spec asks.
    entry.cleanup();
    entry.resolve(message as unknown as TransportResponse);
    return true;
  }

  /** Rejects every pending request, and every later one, with `error`. Idempotent (the first error sticks). */
  failAll(error: TransportError): void {
    this.#closedError ??= error;
    for (const entry of [...this.#pending.values()]) {
      entry.cleanup();
      entry.reject(error);
    }
  }

  /** Rejects the pending requests that match `predicate` with `error`; the others stay pending. */
  failMatching(predicate: (request: TransportRequest) => boolean, error: TransportError): void {
    for (const entry of [...this.#pending.values()]) {
      if (!predicate(entry.message)) continue;
      entry.cleanup();
      entry.reject(error);
    }
  }

  /** Sends every pending request again, in issue order (after a reconnect). A failed send fails that request. */
  resendAll(): void {
    for (const [id, entry] of [...this.#pending]) this.#sendOrFail(id, entry, entry.message);
  }

  #route(notification: TransportNotification): void {
    const params = notification.params;
    let target: TransportRequestId | undefined;
    if (notification.method === 'notifications/cancelled' && isRecord(params)) {
      const id = params.requestId;
      const entry = typeof id === 'string' || typeof id === 'number' ? this.#pending.get(id) : undefined;
      if (
        entry !== undefined &&
        entry.method === 'subscriptions/listen' &&
        (typeof id === 'string' || typeof id === 'number')
      ) {
        deliver(entry, notification);
        entry.cleanup();
        entry.resolve({ jsonrpc: '2.0', id, result: { resultType: 'complete', _meta: { [SUBSCRIPTION_ID]: id } } });
        return;
      }
    } else if (notification.method === 'notifications/progress' && isRecord(params)) {
      const token = params.progressToken;
      if (typeof token === 'string' || typeof token === 'number') target = this.#byProgressToken.get(token);
    } else if (isRecord(params) && isRecord(params._meta)) {
      const id = params._meta[SUBSCRIPTION_ID];
      if (typeof id === 'string' || typeof id === 'number') target = id;
    }
    const entry = target === undefined ? undefined : this.#pending.get(target);
    if (entry !== undefined) deliver(entry, notification);
    else this.#options.onUnroutedNotification?.(notification);
  }

  #sendOrFail(id: TransportRequestId, entry: Pending, message: TransportRequest): void {
    const fail = (cause: unknown): void => {
      if (this.#pending.get(id) !== entry) return;
      entry.cleanup();
      entry.reject(
        cause instanceof TransportError ? cause : new TransportError('send_failed', 'Send failed', { cause }),
      );
    };
    try {
      Promise.resolve(this.#options.send(message)).catch(fail);
    } catch (error) {
      fail(error);
    }
  }

  async #sendQuietly(message: TransportNotification): Promise<void> {
    try {
      await this.#options.send(message);
    } catch {
      // The channel is gone; the request was already rejected locally.
    }
  }
}

function deliver(entry: Pending, notification: TransportNotification): void {
  try {
    entry.onNotification?.(notification);
  } catch {
    // A throwing callback must not break routing for every other request on the channel.
  }
}

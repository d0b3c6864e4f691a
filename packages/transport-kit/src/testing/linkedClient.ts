/** The client side of a linked pair (see `linkedPair`), and the server side it runs in the same process. */
import type {
  ClientPeerHandler,
  ClientRequestOptions,
  MessageHandler,
  RequestContext,
  TransportClosed,
  TransportNotification,
  TransportRequest,
  TransportRequestId,
  TransportResponse,
} from '@mcp-tasks/protocol';
import { TransportError } from '@mcp-tasks/protocol';
import { CloseSignal } from '../closeSignal.js';
import { ClientPeerDispatch, ConnectionSession } from '../era-2025/index.js';
import { LinkedRequest, type Report, wireCopy } from './linkedRequest.js';

/** Options of {@link LinkedClient}: `LinkedPairOptions`. */
export interface LinkedClientOptions {
  readonly principal?: string | undefined;
  readonly onError?: ((error: Error) => void) | undefined;
}

/**
 * The `LinkedPair` that `linkedPair()` returns. Its members are bound (arrow functions), so they may be passed
 * around on their own.
 */
export class LinkedClient {
  readonly #handler: MessageHandler;
  readonly #principal: string | undefined;
  readonly #pending = new Map<TransportRequestId, LinkedRequest>();
  /** Handler contexts of notifications, so that closing aborts them too. */
  readonly #untracked = new Set<AbortController>();
  readonly #settling = new Set<Promise<unknown>>();
  #closedError: TransportError | undefined;
  readonly #closeSignal = new CloseSignal();
  readonly #report: Report;
  readonly #peer: ClientPeerDispatch;
  readonly session: ConnectionSession;
  readonly closed: Promise<TransportClosed>;

  constructor(handler: MessageHandler, options: LinkedClientOptions) {
    this.#handler = handler;
    this.#principal = options.principal;
    this.#report = (message, cause) => {
      options.onError?.(new Error(message, cause === undefined ? undefined : { cause }));
    };
    // Server-initiated traffic: the session writes to the client's dispatch, which answers back into the session.
    this.session = new ConnectionSession({ send: (message) => this.#toClient(message), onError: options.onError });
    this.#peer = new ClientPeerDispatch({
      send: (response) => {
        const copy = wireCopy(response);
        void Promise.resolve().then(() => this.session.receiveResponse(copy));
      },
      onError: options.onError,
    });
    this.closed = this.#closeSignal.closed;
  }

  readonly request = (message: TransportRequest, options: ClientRequestOptions = {}): Promise<TransportResponse> => {
    if (this.#closedError !== undefined) return Promise.reject(this.#closedError);
    if (options.signal?.aborted) return Promise.reject(options.signal.reason);
    const id = message.id;
    if (this.#pending.has(id)) {
      return Promise.reject(new TransportError('send_failed', `A request with id ${JSON.stringify(id)} is in flight`));
    }
    let inbound: unknown;
    try {
      inbound = wireCopy(message);
    } catch (error) {
      return Promise.reject(
        new TransportError('send_failed', 'The request is not serializable as JSON', { cause: error }),
      );
    }
    return new Promise<TransportResponse>((resolve, reject) => {
      const entry = new LinkedRequest(id, this.#pending, options, { resolve, reject }, this.#report);
      const context = this.#contextFor(entry.controller, entry.notify);
      this.#track(this.#invoke(inbound, context).then((response) => entry.answer(response)));
    });
  };

  readonly notify = async (message: TransportNotification): Promise<void> => {
    if (this.#closedError !== undefined) throw this.#closedError;
    let inbound: TransportNotification;
    try {
      inbound = wireCopy(message);
    } catch (error) {
      throw new TransportError('send_failed', 'The notification is not serializable as JSON', { cause: error });
    }
    if (inbound.method === 'notifications/cancelled') {
      this.#cancel(inbound.params);
      return;
    }
    const controller = new AbortController();
    this.#untracked.add(controller);
    // Notifications get no response; whatever the handler notifies for one has no request to belong to.
    const context = this.#contextFor(controller, () => undefined);
    this.#track(this.#invoke(inbound, context).finally(() => this.#untracked.delete(controller)));
  };

  readonly close = async (): Promise<void> => {
    this.#shutDown(new TransportError('closed', 'The linked pair closed'), 'local');
  };

  readonly disconnect = (): void => {
    this.#shutDown(new TransportError('closed', 'The server side of the linked pair went away'), 'remote');
  };

  readonly setPeerHandler = (handler: ClientPeerHandler): void => {
    this.#peer.setHandler(handler);
  };

  get inFlight(): number {
    let count = 0;
    for (const entry of this.#pending.values()) if (!entry.controller.signal.aborted) count += 1;
    return count;
  }

  readonly idle = async (): Promise<void> => {
    while (this.#settling.size > 0) await Promise.allSettled([...this.#settling]);
  };

  #toClient(message: TransportRequest | TransportNotification): void {
    const copy = wireCopy(message); // Throws on what JSON cannot carry: the request then fails with send_failed.
    void Promise.resolve().then(() => {
      if ('id' in copy) this.#peer.receiveRequest(copy);
      else this.#peer.receiveNotification(copy);
    });
  }

  #contextFor(controller: AbortController, notify: RequestContext['notify']): RequestContext {
    const session = this.session;
    return {
      ...(this.#principal === undefined ? {} : { principal: this.#principal }),
      notify,
      signal: controller.signal,
      session,
      request: (message, requestOptions) => session.requestFor(controller.signal, message, requestOptions),
    };
  }

  #track(work: Promise<unknown>): void {
    const done = work.finally(() => this.#settling.delete(done));
    this.#settling.add(done);
  }

  async #invoke(message: unknown, context: RequestContext): Promise<TransportResponse | undefined> {
    try {
      return await this.#handler(message, context);
    } catch (error) {
      // The handler contract says it never rejects; answer the way a server session would, and say so.
      this.#report('The handler rejected; answered -32603', error);
      const id = requestIdOf(message);
      const internal = { code: -32603, message: 'Internal error' };
      return id === undefined ? { jsonrpc: '2.0', error: internal } : { jsonrpc: '2.0', id, error: internal };
    }
  }

  #cancel(params: TransportNotification['params']): void {
    const id = params?.requestId;
    if (typeof id !== 'string' && typeof id !== 'number') return;
    const entry = this.#pending.get(id);
    // Unknown or finished requests are ignored, as the cancellation pattern allows.
    if (entry === undefined) return;
    const reason = typeof params?.reason === 'string' ? params.reason : 'Request cancelled by the client';
    entry.controller.abort(new DOMException(reason, 'AbortError'));
  }

  #shutDown(error: TransportError, initiator: 'local' | 'remote'): void {
    if (this.#closedError !== undefined) return;
    this.#closedError = error;
    for (const entry of [...this.#pending.values()]) {
      entry.finish();
      entry.controller.abort(error);
      entry.reject(error);
    }
    for (const controller of this.#untracked) controller.abort(error);
    this.session.close();
    this.#peer.abortAll(error);
    this.#closeSignal.settle(initiator === 'local' ? { initiator } : { initiator, error });
  }
}

function requestIdOf(message: unknown): TransportRequestId | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const id = (message as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

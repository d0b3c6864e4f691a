/**
 * An in-memory link between a `ClientTransport` and a `MessageHandler`: the client and the server runtime talk as
 * if over a wire, with no sockets, no child processes and no timers.
 */
import type {
  ClientPeerHandler,
  ClientRequestOptions,
  ClientTransport,
  MessageHandler,
  PeerSession,
  RequestContext,
  TransportNotification,
  TransportRequest,
  TransportRequestId,
  TransportResponse,
} from '@mcp-tasks/protocol';
import { TransportError } from '@mcp-tasks/protocol';
import { CloseSignal } from '../closeSignal.js';
import { ClientPeerDispatch, ConnectionSession } from '../era-2025/index.js';

/** Options of {@link linkedPair}. */
export interface LinkedPairOptions {
  /** The authenticated principal every request carries (`RequestContext.principal`). @default undefined */
  readonly principal?: string | undefined;
  /** Sees contract violations of the handler (a rejection, a missing or unserializable response). */
  readonly onError?: ((error: Error) => void) | undefined;
}

/** The client side of a linked pair, plus what tests need to observe the server side. */
export interface LinkedPair extends ClientTransport {
  /** The 2025-era session every message carries, as the runtime sees it (e.g. to notify or ask outside a request). */
  readonly session: PeerSession;
  /** See {@link ClientTransport.setPeerHandler}: the pair always implements it. */
  setPeerHandler(handler: ClientPeerHandler): void;
  /** Requests whose handler call has not settled yet (cancelled and closed ones excluded). */
  readonly inFlight: number;
  /** Resolves once every handler call started so far (requests and notifications) has settled. */
  idle(): Promise<void>;
  /**
   * Simulates the server going away: does what {@link ClientTransport.close} does, but {@link closed} reports
   * `initiator: 'remote'` with a `TransportError('closed')`. For testing how a client copes with a lost
   * connection. Idempotent, and a no-op after `close()`.
   */
  disconnect(): void;
}

interface Pending {
  readonly controller: AbortController;
  readonly reject: (error: unknown) => void;
  /** Marks the request finished and releases its listener on the caller's signal. */
  readonly finish: () => void;
  /** True once nothing more may reach the client for this request (answered, aborted, cancelled or closed). */
  finished: boolean;
}

/**
 * Links a client to `handler` in memory. Each `request()` becomes one `handler(message, context)` call with a
 * fresh {@link RequestContext}: `principal` from the options, `notify` routed to that request's
 * `onNotification`, and a `signal` the pair aborts when the client's request signal aborts, when the client sends
 * `notifications/cancelled` naming the request, or on `close()`.
 *
 * Wire fidelity: every message crosses as `JSON.parse(JSON.stringify(message))` in both directions, so no object
 * is shared by reference and anything JSON cannot carry is lost exactly as on a socket. Delivery is asynchronous
 * (never re-entrant into the caller) and ordered per request: the request's notifications reach `onNotification`
 * in `notify` call order, all before its response; `notify` after the response is dropped.
 *
 * Aborting a request's signal rejects it at once with `signal.reason` and aborts the handler's context; whatever the
 * handler still produces is dropped. A client `notifications/cancelled` only aborts the handler context (as on a
 * wire the server then stays silent, so the request settles when its own signal aborts or the pair closes). Other
 * notifications are handed to the handler like any message. `close()` is idempotent: it aborts every handler
 * context with `TransportError('closed')` and rejects every in-flight request, and every later call, with it;
 * `closed` then resolves with `initiator: 'local'` (`'remote'` after {@link LinkedPair.disconnect}).
 *
 * The pair is also one 2025-era session, like a stdio or WebSocket connection: every handler call gets
 * `context.session` ({@link LinkedPair.session}) and `context.request`; server-to-client requests reach the handler
 * given to {@link LinkedPair.setPeerHandler} (`-32601` without one) and its responses come back by id, and
 * `session.notify` reaches its `onNotification`, all as JSON copies, asynchronously. `close()` ends the session.
 */
export function linkedPair(handler: MessageHandler, options: LinkedPairOptions = {}): LinkedPair {
  const pending = new Map<TransportRequestId, Pending>();
  const untracked = new Set<AbortController>();
  const settling = new Set<Promise<unknown>>();
  let closedError: TransportError | undefined;
  const closeSignal = new CloseSignal();

  const report = (message: string, cause?: unknown): void => {
    options.onError?.(new Error(message, cause === undefined ? undefined : { cause }));
  };

  // Server-initiated traffic: the session writes to the client's dispatch, which answers back into the session.
  const toClient = (message: TransportRequest | TransportNotification): void => {
    const copy = wireCopy(message); // Throws on what JSON cannot carry: the request then fails with send_failed.
    void Promise.resolve().then(() => {
      if ('id' in copy) peer.receiveRequest(copy);
      else peer.receiveNotification(copy);
    });
  };
  const session = new ConnectionSession({ send: toClient, onError: options.onError });
  const peer = new ClientPeerDispatch({
    send: (response) => {
      const copy = wireCopy(response);
      void Promise.resolve().then(() => session.receiveResponse(copy));
    },
    onError: options.onError,
  });

  const contextFor = (controller: AbortController, notify: RequestContext['notify']): RequestContext => ({
    ...(options.principal === undefined ? {} : { principal: options.principal }),
    notify,
    signal: controller.signal,
    session,
    request: (message, requestOptions) => session.requestFor(controller.signal, message, requestOptions),
  });

  const track = (work: Promise<unknown>): void => {
    const done = work.finally(() => settling.delete(done));
    settling.add(done);
  };

  const invoke = async (message: unknown, context: RequestContext): Promise<TransportResponse | undefined> => {
    try {
      return await handler(message, context);
    } catch (error) {
      // The handler contract says it never rejects; answer the way a server session would, and say so.
      report('The handler rejected; answered -32603', error);
      const id = requestIdOf(message);
      const internal = { code: -32603, message: 'Internal error' };
      return id === undefined ? { jsonrpc: '2.0', error: internal } : { jsonrpc: '2.0', id, error: internal };
    }
  };

  const request = (
    message: TransportRequest,
    requestOptions: ClientRequestOptions = {},
  ): Promise<TransportResponse> => {
    if (closedError !== undefined) return Promise.reject(closedError);
    const { signal, onNotification } = requestOptions;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const id = message.id;
    if (pending.has(id)) {
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
      const controller = new AbortController();
      const finish = (): void => {
        entry.finished = true;
        if (pending.get(id) === entry) pending.delete(id);
        signal?.removeEventListener('abort', onAbort);
      };
      const entry: Pending = { controller, reject, finish, finished: false };
      // One chain per request keeps notifications in call order and ahead of the response.
      let delivery: Promise<void> = Promise.resolve();
      const onAbort = (): void => {
        if (entry.finished) return;
        finish();
        controller.abort(new DOMException('The client aborted the request', 'AbortError'));
        reject(signal?.reason);
      };
      const notify = (notification: TransportNotification): void => {
        if (entry.finished || controller.signal.aborted) return;
        let copy: TransportNotification;
        try {
          copy = wireCopy(notification);
        } catch (error) {
          report('Dropped a notification that is not serializable as JSON', error);
          return;
        }
        delivery = delivery.then(() => {
          if (entry.finished) return;
          try {
            onNotification?.(copy);
          } catch {
            // A throwing callback must not break delivery of the rest of this request.
          }
        });
      };
      pending.set(id, entry);
      signal?.addEventListener('abort', onAbort, { once: true });
      const work = invoke(inbound, contextFor(controller, notify)).then((response) => {
        const answer = toWire(response, id, report);
        delivery = delivery.then(() => {
          if (entry.finished || controller.signal.aborted) return;
          finish();
          if (answer instanceof TransportError) reject(answer);
          else resolve(answer);
        });
        return delivery;
      });
      track(work);
    });
  };

  const cancel = (params: TransportNotification['params']): void => {
    const id = params?.requestId;
    if (typeof id !== 'string' && typeof id !== 'number') return;
    const entry = pending.get(id);
    // Unknown or finished requests are ignored, as the cancellation pattern allows.
    if (entry === undefined) return;
    const reason = typeof params?.reason === 'string' ? params.reason : 'Request cancelled by the client';
    entry.controller.abort(new DOMException(reason, 'AbortError'));
  };

  const shutDown = (error: TransportError, initiator: 'local' | 'remote'): void => {
    if (closedError !== undefined) return;
    closedError = error;
    for (const entry of [...pending.values()]) {
      entry.finish();
      entry.controller.abort(error);
      entry.reject(error);
    }
    for (const controller of untracked) controller.abort(error);
    session.close();
    peer.abortAll(error);
    closeSignal.settle(initiator === 'local' ? { initiator } : { initiator, error });
  };

  return {
    request,
    async notify(message) {
      if (closedError !== undefined) throw closedError;
      let inbound: TransportNotification;
      try {
        inbound = wireCopy(message);
      } catch (error) {
        throw new TransportError('send_failed', 'The notification is not serializable as JSON', { cause: error });
      }
      if (inbound.method === 'notifications/cancelled') {
        cancel(inbound.params);
        return;
      }
      const controller = new AbortController();
      untracked.add(controller);
      // Notifications get no response; whatever the handler notifies for one has no request to belong to.
      track(
        invoke(
          inbound,
          contextFor(controller, () => undefined),
        ).finally(() => untracked.delete(controller)),
      );
    },
    async close() {
      shutDown(new TransportError('closed', 'The linked pair closed'), 'local');
    },
    disconnect() {
      shutDown(new TransportError('closed', 'The server side of the linked pair went away'), 'remote');
    },
    closed: closeSignal.closed,
    session,
    setPeerHandler: (handler) => peer.setHandler(handler),
    get inFlight() {
      let count = 0;
      for (const entry of pending.values()) if (!entry.controller.signal.aborted) count += 1;
      return count;
    },
    async idle() {
      while (settling.size > 0) await Promise.allSettled([...settling]);
    },
  };
}

/** What crosses the link: a fresh JSON copy. Throws when `value` is not serializable (cycles, BigInt). */
function wireCopy<T>(value: T): T {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError('Not representable as JSON');
  return JSON.parse(text) as T;
}

/** The client's view of a handler's answer: a JSON copy, or a transport error when none could be produced. */
function toWire(
  response: TransportResponse | undefined,
  id: TransportRequestId,
  report: (message: string, cause?: unknown) => void,
): TransportResponse | TransportError {
  if (response === undefined) {
    report('The handler resolved a request with no response');
    return new TransportError('malformed_frame', 'The server sent no response to the request');
  }
  try {
    return wireCopy(response);
  } catch (error) {
    // A server session would fail to write this frame and answer -32603 instead.
    report('The response is not serializable as JSON; answered -32603', error);
    return { jsonrpc: '2.0', id, error: { code: -32603, message: 'Internal error' } };
  }
}

function requestIdOf(message: unknown): TransportRequestId | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const id = (message as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

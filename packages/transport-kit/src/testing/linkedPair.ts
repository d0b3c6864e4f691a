/**
 * An in-memory link between a `ClientTransport` and a `MessageHandler`: the client and the server runtime talk as
 * if over a wire, with no sockets, no child processes and no timers.
 */
import type { ClientPeerHandler, ClientTransport, MessageHandler, PeerSession } from '@mcp-tasks/protocol';
import { LinkedClient } from './linkedClient.js';

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

/**
 * Links a client to `handler` in memory. Each `request()` becomes one `handler(message, context)` call with a
 * fresh `RequestContext`: `principal` from the options, `notify` routed to that request's
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
  return new LinkedClient(handler, options);
}

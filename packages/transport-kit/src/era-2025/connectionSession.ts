import type {
  OutboundRequest,
  PeerRequestOptions,
  PeerSession,
  TransportNotification,
  TransportRequest,
  TransportResponse,
} from '@mcp-tasks/protocol';
import { TransportError } from '@mcp-tasks/protocol';
import { OutboundRequests } from './outboundRequests.js';

/** Options for {@link ConnectionSession}. */
export interface ConnectionSessionOptions {
  /** Writes one message to the connection (through its backpressure). Must not throw. */
  readonly send: (message: TransportRequest | TransportNotification) => void;
  /** Server-to-client requests that may await a response at once; one more rejects (`send_failed`). @default 64 */
  readonly maxPeerRequests?: number;
  /** Milliseconds a server-to-client request may await its response (then `timeout`); 0 disables. @default 300000 */
  readonly peerRequestTimeoutMs?: number;
  /** Receives non-fatal problems (a response naming no pending request). */
  readonly onError?: (error: Error) => void;
}

/**
 * The {@link PeerSession} of one connection (a stdio process, a WebSocket): created when the connection opens,
 * ended when it closes. Its id is a random UUID. Requests it sends get ids `srv-1`, `srv-2`, … (unique on the
 * connection); responses reach them through {@link receiveResponse}.
 *
 * Ownership: the transport that created it calls {@link receiveResponse} for every inbound response and
 * {@link close} exactly when the connection ends; the runtime only uses the {@link PeerSession} members.
 */
export class ConnectionSession implements PeerSession {
  readonly id: string = globalThis.crypto.randomUUID();
  readonly #ended = new AbortController();
  readonly closed: AbortSignal = this.#ended.signal;
  readonly #send: (message: TransportRequest | TransportNotification) => void;
  readonly #outbound: OutboundRequests;

  /** Creates an open session with a random id and nothing pending. */
  constructor(options: ConnectionSessionOptions) {
    this.#send = options.send;
    this.#outbound = new OutboundRequests({
      send: options.send,
      maxPending: options.maxPeerRequests,
      timeoutMs: options.peerRequestTimeoutMs,
      onError: options.onError,
    });
  }

  /** Server-to-client requests awaiting a response. */
  get pendingRequests(): number {
    return this.#outbound.size;
  }

  notify(notification: TransportNotification): void {
    if (!this.closed.aborted) this.#send(notification);
  }

  request(message: OutboundRequest, options?: PeerRequestOptions): Promise<TransportResponse> {
    return this.#outbound.request(message, [options?.signal]);
  }

  /**
   * {@link request} on behalf of one inbound request: also cancelled (rejected, and withdrawn from the client with
   * `notifications/cancelled`) when `inbound` aborts, i.e. when that request is cancelled or its connection closes.
   */
  requestFor(inbound: AbortSignal, message: OutboundRequest, options?: PeerRequestOptions): Promise<TransportResponse> {
    return this.#outbound.request(message, [options?.signal, inbound]);
  }

  /** Hands one inbound JSON-RPC response to the request it answers; one naming none is dropped and reported. */
  receiveResponse(response: Readonly<Record<string, unknown>>): void {
    this.#outbound.receive(response);
  }

  /** Ends the session: pending and later requests reject with `TransportError('closed')`, `closed` aborts. Idempotent. */
  close(): void {
    if (this.closed.aborted) return;
    const reason = new TransportError('closed', 'The connection closed');
    this.#outbound.failAll(reason);
    this.#ended.abort(reason);
  }
}

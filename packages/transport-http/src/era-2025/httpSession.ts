import {
  type OutboundRequest,
  type PeerRequestOptions,
  type PeerSession,
  TransportError,
  type TransportNotification,
  type TransportRequest,
  type TransportRequestId,
  type TransportResponse,
} from '@mcp-tasks/protocol';
import type { Exchange, ExchangeSession } from '../exchange.js';
import { InflightList } from '../inflightList.js';
import type { ResponseSink } from '../responseSink.js';
import { type SseOptions, SseWriter } from '../sseWriter.js';
import { PeerRequests } from './peerRequests.js';

/** The per-session bounds, resolved (see `HttpSessionOptions`). */
export interface SessionBounds {
  readonly idleTimeoutMs: number;
  readonly maxPendingRequests: number;
  readonly maxQueuedMessages: number;
}

type Outbound = TransportRequest | TransportNotification;

/**
 * One 2025-era Streamable HTTP session: the {@link PeerSession} the runtime sees, plus what the binding needs to
 * route messages in and out of it.
 *
 * Messages of no request (`notify`, `request`) go on the session's GET stream; while none is open they wait in a
 * queue of at most `maxQueuedMessages`, the oldest dropped first (a dropped request rejects with
 * `TransportError('send_failed')`). The session ends on `end()` (DELETE, shutdown) or after `idleTimeoutMs` with
 * no request in flight, no GET stream and no POST: `closed` aborts, pending requests reject with
 * `TransportError('closed')`, the GET stream ends and the signals of its in-flight requests abort.
 */
export class HttpSession implements PeerSession, ExchangeSession {
  readonly id: string;
  /** The principal that created the session; only its requests may use it. */
  readonly principal: string | undefined;
  readonly #controller = new AbortController();
  readonly #bounds: SessionBounds;
  readonly #requests: PeerRequests;
  readonly #onEnd: (session: HttpSession) => void;
  readonly #inflight = new InflightList<Exchange, TransportRequestId>();
  #queue: Outbound[] = [];
  #stream: SseWriter | undefined;
  #idle: ReturnType<typeof setTimeout> | undefined;
  #committed = false;

  constructor(id: string, principal: string | undefined, bounds: SessionBounds, onEnd: (session: HttpSession) => void) {
    this.id = id;
    this.principal = principal;
    this.#bounds = bounds;
    this.#requests = new PeerRequests(bounds.maxPendingRequests);
    this.#onEnd = onEnd;
  }

  get peer(): PeerSession {
    return this;
  }

  get closed(): AbortSignal {
    return this.#controller.signal;
  }

  /** True once the runtime accepted the session's `initialize`; only then do requests find it by id. */
  get committed(): boolean {
    return this.#committed;
  }

  /** Keeps the provisional session: its `initialize` got a result. */
  commit(): void {
    this.#committed = true;
    this.#armIdle();
  }

  readonly notify = (notification: TransportNotification): void => {
    this.route(notification);
  };

  request(message: OutboundRequest, options?: PeerRequestOptions): Promise<TransportResponse> {
    return this.sendRequest(message, options, (outbound) => this.route(outbound));
  }

  sendRequest(
    message: OutboundRequest,
    options: PeerRequestOptions | undefined,
    deliver: (message: Outbound) => void,
  ): Promise<TransportResponse> {
    return this.#requests.send(message, options, deliver);
  }

  /** Writes `message` on the GET stream, or queues it (bounded) until one opens. Dropped once ended. */
  route(message: Outbound): void {
    if (this.closed.aborted) return;
    if (this.#stream !== undefined) {
      this.#stream.send(message);
      return;
    }
    this.#queue.push(message);
    if (this.#queue.length > this.#bounds.maxQueuedMessages) {
      const dropped = this.#queue.shift();
      if (dropped !== undefined && 'id' in dropped) {
        this.#requests.fail(dropped.id, new TransportError('send_failed', 'Dropped: no GET stream took it in time'));
      }
    }
  }

  /** A POSTed JSON-RPC response: settles the request it answers (a late or unknown one is ignored). */
  deliverResponse(response: unknown): void {
    this.#touch();
    this.#requests.settle(response);
  }

  /** `notifications/cancelled` from the client: aborts the signal of its in-flight request with that id. */
  cancelInbound(requestId: unknown): void {
    this.#touch();
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return;
    this.#inflight.find(requestId)?.withdraw();
  }

  /** Tracks an inbound message while the runtime works on it; returns the call that ends the tracking. */
  begin(exchange: Exchange, requestId: TransportRequestId | undefined): () => void {
    const remove = this.#inflight.add(exchange, requestId);
    this.#disarmIdle();
    if (this.closed.aborted) exchange.cancel();
    return () => {
      remove();
      this.#armIdle();
    };
  }

  /**
   * Opens the GET stream on `sink` and flushes the queue into it. Returns the close callback for the front, or
   * undefined when the session already has one (the caller answers 409).
   */
  attachStream(sink: ResponseSink, options: SseOptions): (() => void) | undefined {
    if (this.#stream !== undefined) return undefined;
    let stream: SseWriter | undefined;
    const detach = (): void => {
      if (stream === undefined || this.#stream !== stream) return;
      stream.stop();
      this.#stream = undefined;
      this.#armIdle();
    };
    stream = new SseWriter(sink, options, detach);
    this.#stream = stream;
    this.#disarmIdle();
    stream.open({ 'mcp-session-id': this.id });
    const queued = this.#queue;
    this.#queue = [];
    for (const message of queued) stream.send(message);
    return detach;
  }

  /** Ends the session. Idempotent. */
  end(): void {
    if (this.closed.aborted) return;
    this.#disarmIdle();
    this.#controller.abort();
    this.#requests.close();
    this.#queue = [];
    this.#stream?.end();
    this.#stream = undefined;
    for (const exchange of this.#inflight.values()) exchange.cancel();
    this.#onEnd(this);
  }

  #touch(): void {
    if (this.#idle !== undefined) this.#armIdle();
  }

  #armIdle(): void {
    this.#disarmIdle();
    if (!this.#committed || this.closed.aborted || this.#inflight.size > 0 || this.#stream !== undefined) return;
    const timeout = this.#bounds.idleTimeoutMs;
    if (timeout <= 0) return;
    const timer = setTimeout(() => this.end(), timeout);
    (timer as { unref?: () => void }).unref?.();
    this.#idle = timer;
  }

  #disarmIdle(): void {
    if (this.#idle !== undefined) clearTimeout(this.#idle);
    this.#idle = undefined;
  }
}

import type {
  ClientPeerHandler,
  ClientRequestOptions,
  ClientTransport,
  TransportNotification,
  TransportRequest,
  TransportResponse,
} from '@mcp-tasks/protocol';
import { TransportError } from '@mcp-tasks/protocol';
import { ClientPeerDispatch, CloseSignal, PendingRequests } from '@mcp-tasks/transport-kit';
import { openSocket } from './openSocket.js';
import {
  DEFAULT_CLOSE_TIMEOUT_MS,
  IDEMPOTENT_METHODS,
  RECONNECTABLE_CODES,
  type WebSocketClientOptions,
  type WebSocketConstructor,
  type WebSocketLike,
} from './webSocketClientOptions.js';

const OPEN = 1;

/**
 * Client side of this project's WebSocket binding; runs in browsers and Node. Implements {@link ClientTransport}:
 * one JSON-RPC message per text frame, responses correlated by id, notifications routed to their request (progress
 * by `progressToken`, listen streams by subscription id), and an aborted request cancelled with
 * `notifications/cancelled`. After an unexpected close it reconnects (see {@link WebSocketReconnectOptions}); once
 * finally closed, every in-flight and later request rejects with `TransportError('closed')`.
 */
export class WebSocketClientTransport implements ClientTransport {
  readonly #url: string;
  readonly #Impl: WebSocketConstructor;
  readonly #options: WebSocketClientOptions;
  readonly #pending: PendingRequests;
  readonly #peer: ClientPeerDispatch;
  readonly #isIdempotent: (request: TransportRequest) => boolean;
  #socket: WebSocketLike;
  #state: 'open' | 'reconnecting' | 'closed' = 'open';
  #finished = false;
  #resolveFinished: () => void = () => {};
  readonly #finishedPromise = new Promise<void>((resolve) => {
    this.#resolveFinished = resolve;
  });
  readonly #close = new CloseSignal();
  /**
   * Resolves once the transport is closed for good: `initiator: 'local'` when {@link close} was called first,
   * `'remote'` (the close code in `error`) when the socket closed and was not, or could no longer be, reconnected.
   */
  readonly closed = this.#close.closed;
  #cancelWait: (() => void) | undefined;

  private constructor(url: string, Impl: WebSocketConstructor, socket: WebSocketLike, options: WebSocketClientOptions) {
    this.#url = url;
    this.#Impl = Impl;
    this.#options = options;
    this.#socket = socket;
    const reconnect = options.reconnect === false ? undefined : options.reconnect;
    this.#isIdempotent = reconnect?.isIdempotent ?? ((request) => IDEMPOTENT_METHODS.has(request.method));
    const report = options.onError ?? (() => {});
    this.#peer = new ClientPeerDispatch({
      send: (response) => this.#write(response),
      maxConcurrent: options.maxServerRequests,
      onUnroutedNotification: options.onUnroutedNotification,
      onError: (cause) => report(new TransportError('send_failed', cause.message, { cause })),
    });
    this.#pending = new PendingRequests({
      onUnroutedNotification: this.#peer.receiveNotification,
      onRequest: this.#peer.receiveRequest,
      send: (message) => this.#write(message),
    });
    this.#attach(socket);
  }

  /**
   * Opens a socket offering subprotocol `mcp` and resolves once the server selected it. Rejects with
   * `TransportError('closed')` when the connection fails, is refused (auth, Origin), or selects another protocol.
   */
  static async connect(url: string | URL, options: WebSocketClientOptions = {}): Promise<WebSocketClientTransport> {
    const Impl = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
    if (Impl === undefined) {
      throw new TransportError('closed', 'No WebSocket implementation available; pass options.WebSocket');
    }
    const socket = await openSocket(Impl, String(url), options);
    return new WebSocketClientTransport(String(url), Impl, socket, options);
  }

  request(message: TransportRequest, options?: ClientRequestOptions): Promise<TransportResponse> {
    return this.#pending.request(message, options);
  }

  async notify(message: TransportNotification): Promise<void> {
    this.#write(message);
  }

  /**
   * Installs the receiver of what the server sends outside the client's requests (2025-era sessions): its requests
   * (`roots/list`, `sampling/createMessage`, `elicitation/create`, `ping`; answered `-32601` until a handler is
   * installed) and the notifications that belong to none of the client's requests. Replaces any earlier handler.
   * A server request still running when the socket closes is aborted and never answered (a reconnected socket is a
   * new session).
   */
  setPeerHandler(handler: ClientPeerHandler): void {
    this.#peer.setHandler(handler);
  }

  /** Closes the socket (1000), stops reconnecting and rejects in-flight requests. Idempotent. */
  async close(): Promise<void> {
    if (this.#state !== 'closed') {
      const wasOpen = this.#state === 'open';
      this.#state = 'closed';
      this.#close.settle({ initiator: 'local' });
      const closed = new TransportError('closed', 'The transport was closed');
      this.#pending.failAll(closed);
      this.#peer.abortAll(closed);
      this.#cancelWait?.();
      if (wasOpen) this.#socket.close(1000, 'Client closed');
      else this.#finish(1000, 'Client closed');
    }
    await this.#finishedWithin(this.#options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS);
  }

  /** Waits for the closing handshake; a server that never completes it cannot hold `close()` forever. */
  async #finishedWithin(ms: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        const socket = this.#socket as WebSocketLike & { terminate?: () => void };
        socket.onclose = null;
        socket.terminate?.();
        this.#finish(1006, 'The closing handshake timed out');
        resolve();
      }, ms);
    });
    try {
      await Promise.race([this.#finishedPromise, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  #attach(socket: WebSocketLike): void {
    const report = this.#options.onError ?? (() => {});
    socket.onmessage = (event: { data: unknown }) => {
      if (typeof event.data !== 'string') {
        report(new TransportError('malformed_frame', 'Received a binary frame'));
        return;
      }
      let message: unknown;
      try {
        message = JSON.parse(event.data);
      } catch (cause) {
        report(new TransportError('malformed_frame', 'Received a frame that is not JSON', { cause }));
        return;
      }
      if (!this.#pending.receive(message)) {
        report(
          new TransportError(
            'malformed_frame',
            'Received a message that is not a JSON-RPC request, response or notification',
          ),
        );
      }
    };
    socket.onclose = (event: { code: number; reason: string }) => {
      if (socket !== this.#socket) return;
      if (this.#state !== 'open' || this.#options.reconnect === false || !RECONNECTABLE_CODES.has(event.code)) {
        this.#finish(event.code, event.reason);
        return;
      }
      this.#state = 'reconnecting';
      this.#peer.abortAll(new TransportError('closed', `The WebSocket closed (code ${event.code})`));
      this.#pending.failMatching(
        (request) => !this.#isIdempotent(request),
        new TransportError('closed', `The WebSocket closed (code ${event.code}); the request was not retried`),
      );
      void this.#reconnect(event.code, event.reason);
    };
  }

  async #reconnect(code: number, reason: string): Promise<void> {
    const options = this.#options.reconnect === false ? {} : (this.#options.reconnect ?? {});
    const initial = options.initialDelayMs ?? 250;
    const giveUpAt = Date.now() + (options.giveUpAfterMs ?? Number.POSITIVE_INFINITY);
    for (let attempt = 0; attempt < (options.maxAttempts ?? 5) && Date.now() < giveUpAt; attempt++) {
      const ceiling = Math.min(options.maxDelayMs ?? 5000, initial * 2 ** attempt);
      const delay = Math.max(0, Math.min(ceiling * (0.5 + Math.random() / 2), giveUpAt - Date.now()));
      options.onReconnecting?.({ attempt: attempt + 1, delayMs: delay, leftMs: giveUpAt - Date.now(), code, reason });
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
        this.#cancelWait = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      if (this.#state !== 'reconnecting') return;
      let socket: WebSocketLike;
      try {
        socket = await openSocket(this.#Impl, this.#url, this.#options);
      } catch {
        continue;
      }
      if (this.#state !== 'reconnecting') {
        socket.close(1000, 'Client closed');
        return;
      }
      this.#socket = socket;
      this.#state = 'open';
      this.#attach(socket);
      this.#pending.resendAll();
      return;
    }
    if (this.#state === 'reconnecting') this.#finish(code, reason);
  }

  #finish(code: number, reason: string): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#state = 'closed';
    const error = new TransportError('closed', `The WebSocket closed (code ${code})`);
    // Settled first, as close() does: whoever sees a request fail already sees the transport closed for good.
    this.#close.settle({ initiator: 'remote', error });
    this.#pending.failAll(error);
    this.#peer.abortAll(error);
    this.#options.onClose?.(code, reason);
    this.#resolveFinished();
  }

  #write(message: TransportRequest | TransportNotification | TransportResponse): void {
    if (this.#state === 'open' && this.#socket.readyState === OPEN) {
      this.#socket.send(JSON.stringify(message));
      return;
    }
    // An idempotent request issued while reconnecting waits, pending, for resendAll().
    if (this.#state === 'reconnecting' && 'method' in message && 'id' in message && this.#isIdempotent(message)) return;
    throw new TransportError('closed', 'The WebSocket is not open');
  }
}

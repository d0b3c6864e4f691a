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
import { BEARER_SUBPROTOCOL_PREFIX, MCP_SUBPROTOCOL } from './subprotocol.js';

/** The subset of the WHATWG `WebSocket` this client uses; both the platform class and `ws` satisfy it. */
export interface WebSocketLike {
  /** The socket's state as the WHATWG constants number it (0 connecting, 1 open, 2 closing, 3 closed). */
  readonly readyState: number;
  /** The subprotocol the server selected (empty until open). */
  readonly protocol: string;
  /** Sends one text frame. */
  send(data: string): void;
  /** Starts the closing handshake. */
  close(code?: number, reason?: string): void;
  /** Set by the client: called once the socket is open. */
  onopen: ((event: never) => void) | null;
  /** Set by the client: called with each incoming message (`event.data`). */
  onmessage: ((event: never) => void) | null;
  /** Set by the client: called once the socket has closed (`event.code`, `event.reason`). */
  onclose: ((event: never) => void) | null;
  /** Set by the client: called on a socket error; `onclose` follows. */
  onerror: ((event: never) => void) | null;
}

/** A `WebSocket` constructor. The third argument is honoured by `ws` (headers) and ignored by browsers. */
export type WebSocketConstructor = new (
  url: string,
  protocols: string[],
  options?: { headers?: Record<string, string> },
) => WebSocketLike;

/**
 * Reconnection after an unexpected close. Requests that are safe to send twice stay pending and are re-sent with
 * the same id once a new socket is open; every other in-flight request (including listens, which the caller must
 * re-establish) fails at once with `TransportError('closed')`.
 */
export interface WebSocketReconnectOptions {
  /** Attempts before giving up and closing the transport. @default 5 */
  readonly maxAttempts?: number;
  /** First delay; doubles per attempt, with jitter. @default 250 */
  readonly initialDelayMs?: number;
  /** Cap on the delay. @default 5000 */
  readonly maxDelayMs?: number;
  /** Which requests survive a reconnect. @default methods in {@link IDEMPOTENT_METHODS} */
  readonly isIdempotent?: (request: TransportRequest) => boolean;
}

/** Read-only methods re-sent after a reconnect by default. */
export const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set([
  'server/discover',
  'tools/list',
  'prompts/list',
  'prompts/get',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'tasks/get',
]);

/** Close codes after which reconnecting can help (going away, abnormal, server error, restart, try later). */
const RECONNECTABLE_CODES = new Set([1001, 1005, 1006, 1011, 1012, 1013, 1014]);

/** Options for {@link WebSocketClientTransport.connect}. */
export interface WebSocketClientOptions {
  /** The WebSocket implementation. @default globalThis.WebSocket (the Node entry falls back to `ws`) */
  readonly WebSocket?: WebSocketConstructor;
  /** Bearer token, sent as the `mcp.bearer.<token>` subprotocol entry (works in browsers). */
  readonly token?: string;
  /** Extra upgrade headers such as `Authorization`; only implementations that accept headers (`ws`) send them. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Reconnect with backoff after an unexpected close; `false` disables. @default {} (enabled, defaults) */
  readonly reconnect?: WebSocketReconnectOptions | false;
  /**
   * Notifications naming no in-flight request (e.g. `notifications/message`, which carries no request id). They
   * also reach the peer handler's `onNotification` (see {@link WebSocketClientTransport.setPeerHandler}).
   */
  readonly onUnroutedNotification?: (notification: TransportNotification) => void;
  /**
   * Requests from the server (2025-era sessions) the peer handler may be running at once; one more is answered
   * `-32600` with `data.limit: 'maxServerRequests'`. @default 64
   */
  readonly maxServerRequests?: number;
  /**
   * Non-fatal problems: frames that are not JSON-RPC messages (`malformed_frame`); a peer handler that failed (its server request is answered
   * `-32603`) or a response to a server request that could not be written (`send_failed`).
   */
  readonly onError?: (error: TransportError) => void;
  /** Called once when the transport is finally closed (by {@link WebSocketClientTransport.close} or giving up). */
  readonly onClose?: (code: number, reason: string) => void;
  /**
   * How long {@link WebSocketClientTransport.close} waits for the server to complete the closing handshake. After
   * that the socket is terminated (`ws`) or abandoned (browsers, which finish the handshake on their own) and
   * `close()` resolves; `onClose` then reports code 1006. @default 5000
   */
  readonly closeTimeoutMs?: number;
}

/** Default {@link WebSocketClientOptions.closeTimeoutMs}. */
export const DEFAULT_CLOSE_TIMEOUT_MS = 5000;

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
    for (let attempt = 0; attempt < (options.maxAttempts ?? 5); attempt++) {
      const ceiling = Math.min(options.maxDelayMs ?? 5000, initial * 2 ** attempt);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ceiling * (0.5 + Math.random() / 2));
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
    this.#pending.failAll(error);
    this.#peer.abortAll(error);
    this.#close.settle({ initiator: 'remote', error });
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

/** Opens one socket; resolves when open with subprotocol `mcp` selected, else rejects with `TransportError('closed')`. */
function openSocket(Impl: WebSocketConstructor, url: string, options: WebSocketClientOptions): Promise<WebSocketLike> {
  const protocols = [MCP_SUBPROTOCOL];
  if (options.token !== undefined) protocols.push(BEARER_SUBPROTOCOL_PREFIX + options.token);
  return new Promise((resolve, reject) => {
    let socket: WebSocketLike;
    try {
      socket = new Impl(url, protocols, options.headers ? { headers: { ...options.headers } } : undefined);
    } catch (cause) {
      reject(new TransportError('closed', 'Could not open the WebSocket', { cause }));
      return;
    }
    // Browsers give no detail on errors; `ws` says why (a refused upgrade's HTTP status, a refused connection), and
    // the close event that follows carries the code.
    let detail: string | undefined;
    socket.onerror = (event: { message?: unknown }) => {
      if (typeof event?.message === 'string' && event.message !== '') detail = event.message;
    };
    socket.onclose = (event: { code: number }) => reject(notOpened(event.code, detail));
    socket.onopen = () => {
      if (socket.protocol === MCP_SUBPROTOCOL) resolve(socket);
      else socket.close(1002, 'Subprotocol "mcp" was not selected');
    };
  });
}

/** The error for a socket that closed before opening: an HTTP status when the server refused the upgrade. */
function notOpened(code: number, detail: string | undefined): TransportError {
  const status = /Unexpected server response: (\d{3})/.exec(detail ?? '')?.[1];
  if (status !== undefined)
    return new TransportError('http_status', `The server refused the WebSocket upgrade with HTTP ${status}`, {
      status: Number(status),
    });
  return new TransportError(
    'closed',
    `The WebSocket closed before opening (code ${code}${detail ? `: ${detail}` : ''})`,
  );
}

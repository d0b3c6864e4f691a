import type { TransportError, TransportNotification, TransportRequest } from '@mcp-tasks/protocol';

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
  /**
   * Stop reconnecting once this long has passed since the close, whatever attempts are left (the last wait is cut
   * to the time left): a time budget instead of an attempt count, e.g. with `maxAttempts: Infinity`.
   * @default none (only `maxAttempts` bounds it)
   */
  readonly giveUpAfterMs?: number;
  /** Which requests survive a reconnect. @default methods in {@link IDEMPOTENT_METHODS} */
  readonly isIdempotent?: (request: TransportRequest) => boolean;
  /**
   * Called before each reconnect attempt, once its wait is known: to tell a person the connection was lost and is
   * being retried. `leftMs` is the time left under `giveUpAfterMs` (`Infinity` without it). Not called for a close
   * that is not retried; `onClose` reports the end of the transport.
   */
  readonly onReconnecting?: (attempt: WebSocketReconnectAttempt) => void;
}

/** What {@link WebSocketReconnectOptions.onReconnecting} is told before a reconnect attempt. */
export interface WebSocketReconnectAttempt {
  /** 1 for the first attempt after a close. */
  readonly attempt: number;
  /** The wait before this attempt. */
  readonly delayMs: number;
  /** Time left to reconnect after this wait (`giveUpAfterMs`), or `Infinity`. */
  readonly leftMs: number;
  /** The close code of the socket that was lost. */
  readonly code: number;
  /** Its close reason (often empty). */
  readonly reason: string;
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
export const RECONNECTABLE_CODES = new Set([1001, 1005, 1006, 1011, 1012, 1013, 1014]);

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

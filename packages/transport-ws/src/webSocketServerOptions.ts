import type { IncomingMessage } from 'node:http';
import type { OriginPolicy } from '@mcp-tasks/transport-kit';

/**
 * Turns the upgrade request into the principal tasks are bound to. `token` is the bearer token from the
 * `Authorization` header or, for browsers, from the `mcp.bearer.<token>` subprotocol entry. Return undefined to
 * allow an anonymous connection; throw (or reject) to refuse the upgrade with 401.
 */
export type WebSocketAuthenticate = (
  request: IncomingMessage,
  token: string | undefined,
) => string | undefined | Promise<string | undefined>;

/** Options shared by {@link WebSocketServerTransport.attach} and {@link WebSocketServerTransport.listen}. */
export interface WebSocketServerOptions {
  /** Endpoint path; upgrades elsewhere are left to other listeners or refused with 404. @default '/mcp' */
  readonly path?: string;
  /** Authentication at the upgrade. @default every connection is anonymous */
  readonly authenticate?: WebSocketAuthenticate;
  /** `Host`/`Origin` validation, as on Streamable HTTP; see {@link OriginPolicy}. @default same-origin, loopback hosts on loopback */
  readonly originPolicy?: OriginPolicy;
  /** Largest inbound frame in bytes; a larger one closes the socket with 1009. @default 16 MiB */
  readonly maxPayload?: number;
  /** Ping interval; a peer that misses a whole interval without a pong is dropped. 0 disables. @default 30000 */
  readonly heartbeatMs?: number;
  /** Outbound bytes queued for a peer above which the server stops reading from it. @default 1 MiB */
  readonly highWaterMark?: number;
  /** Outbound bytes queued for a peer above which it is dropped as too slow. @default 16 MiB */
  readonly maxBufferedBytes?: number;
  /** Open sockets in total; one more upgrade is refused with 503 and `Retry-After`. @default 1024 */
  readonly maxConnections?: number;
  /** Open sockets per client IP address; one more is refused with 429 and `Retry-After`. @default 64 */
  readonly maxConnectionsPerClient?: number;
  /**
   * A socket with nothing in flight (no request running, no listen stream open, no server-to-client request
   * awaiting its response) and no frame either way for this
   * long is closed with 1000 `Idle timeout`, even if it answers pings. 0 disables. @default 300000 (5 minutes)
   */
  readonly idleTimeoutMs?: number;
  /** Requests one socket may have running at once (listens included); more get `-32600`. @default 256 */
  readonly maxInFlight?: number;
  /** Open `subscriptions/listen` streams per socket; more get `-32600`. @default 32 */
  readonly maxListens?: number;
  /** Deepest accepted nesting of objects and arrays in a frame; deeper gets `-32602`. @default 64 */
  readonly maxDepth?: number;
  /**
   * Server-to-client requests (`session.request()`, `context.request()`) one socket may have awaiting the client's
   * response; one more rejects with `TransportError('send_failed')`. @default 64
   */
  readonly maxPeerRequests?: number;
  /**
   * Milliseconds a server-to-client request may await the client's response; then the client is sent
   * `notifications/cancelled` and the request rejects with `TransportError('timeout')`. 0 disables. @default 300000
   */
  readonly peerRequestTimeoutMs?: number;
  /** Non-fatal problems (socket errors, client responses naming no pending request, handler rejections). @default ignored */
  readonly onError?: (error: Error) => void;
}

/** Defaults of the connection limits in {@link WebSocketServerOptions}. */
export const WEBSOCKET_LIMIT_DEFAULTS = Object.freeze({
  /** Same as {@link WebSocketServerOptions.maxConnections}. */
  maxConnections: 1024,
  /** Same as {@link WebSocketServerOptions.maxConnectionsPerClient}. */
  maxConnectionsPerClient: 64,
  /** Same as {@link WebSocketServerOptions.idleTimeoutMs}. */
  idleTimeoutMs: 300_000,
});

/** `Retry-After` (seconds) sent with an upgrade refused for a connection cap. */
export const RETRY_AFTER_SECONDS = '5';

/** Options for {@link WebSocketServerTransport.listen}. */
export interface WebSocketListenOptions extends WebSocketServerOptions {
  /** @default 0 (an ephemeral port) */
  readonly port?: number;
  /** @default '127.0.0.1' */
  readonly host?: string;
}

import type { OriginPolicy } from '@mcp-tasks/transport-kit';
import type { WebSocketAuthenticate } from './upgradeAuthentication.js';

/** Options shared by {@link WebSocketServerTransport.attach} and {@link WebSocketServerTransport.listen}. */
export interface WebSocketServerOptions {
  /** Endpoint path; upgrades elsewhere are left to other listeners or refused with 404. @default '/mcp' */
  readonly path?: string;
  /**
   * Authentication at the upgrade, before any frame is read; see {@link WebSocketAuthenticate}. A refused upgrade
   * is answered HTTP 401 with `WWW-Authenticate`. @default every connection is anonymous
   */
  readonly authenticate?: WebSocketAuthenticate;
  /**
   * The `WWW-Authenticate` value of an upgrade refused without a challenge of its own (the hook answered `null` or
   * threw), e.g. `bearerChallenge({ resourceMetadataUrl })` of `@mcp-tasks/oauth-resource-server`. @default 'Bearer'
   */
  readonly wwwAuthenticate?: string;
  /**
   * The challenge a client would get for `scope` (space-separated) on HTTP, carried as `data.wwwAuthenticate` of
   * the `insufficient_scope` error of a `tools/call` whose token lacks the tool's required scopes (e.g. with
   * `resource_metadata`). @default none (the error's `data` still names `scope` and `missingScopes`)
   */
  readonly insufficientScopeChallenge?: (scope: string) => string;
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
  /**
   * JSON documents answered to `GET` at other paths of the same port, such as the RFC 9728 protected-resource
   * metadata at `/.well-known/oauth-protected-resource/mcp` (see `@mcp-tasks/oauth-resource-server`); other plain
   * HTTP requests get 426. @default none
   */
  readonly documents?: Readonly<Record<string, unknown>>;
}

import type { MessageHandler, RequestContext } from '@mcp-tasks/protocol';

/** Default {@link ServerSessionOptions.maxInFlight}: requests one connection may have running at once. */
export const DEFAULT_MAX_IN_FLIGHT = 256;
/** Default {@link ServerSessionOptions.maxListens}: open `subscriptions/listen` streams per connection. */
export const DEFAULT_MAX_LISTENS = 32;

/** Options for {@link ServerSession}. */
export interface ServerSessionOptions {
  /** The runtime. Each inbound message is handed to it with a fresh {@link RequestContext}. */
  readonly handler: MessageHandler;
  /** Writes one serialized JSON-RPC message to the peer. Must not throw; framing (newline, frame) is the caller's. */
  readonly write: (text: string) => void;
  /** Principal for every request on this channel (from authentication), passed through to the runtime. */
  readonly principal?: string;
  /** Receives non-fatal problems (a response sent by the peer, a handler that rejected); the session keeps going. */
  readonly onError?: (error: Error) => void;
  /**
   * Requests (listens included) this connection may have running at once; one more is answered `-32600` with
   * `data.limit: 'maxInFlight'` and is not run. Bounds the memory one peer can pin. @default 256
   */
  readonly maxInFlight?: number;
  /**
   * Open `subscriptions/listen` streams on this connection; one more is answered `-32600` with
   * `data.limit: 'maxListens'`. @default 32
   */
  readonly maxListens?: number;
  /** Deepest accepted nesting of an inbound message (`-32602` beyond it); see `decodeMessage`. @default 64 */
  readonly maxDepth?: number;
  /**
   * Server-to-client requests (`session.request()`, `context.request()`) that may await the client's response at
   * once; one more rejects with `TransportError('send_failed')` and is not sent. @default 64
   */
  readonly maxPeerRequests?: number;
  /**
   * Milliseconds a server-to-client request may await the client's response; then the client is sent
   * `notifications/cancelled` and the request rejects with `TransportError('timeout')`. 0 disables. @default 300000
   */
  readonly peerRequestTimeoutMs?: number;
}

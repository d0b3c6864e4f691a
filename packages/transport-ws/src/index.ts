/**
 * @mcp-tasks/transport-ws: a WebSocket transport for MCP 2026-07-28: a `ws` server adapter for a `MessageHandler`
 * and a client for Node and browsers. Each socket is also a 2025-era session.
 *
 * @module @mcp-tasks/transport-ws
 */

export { connectWebSocket } from './connectWebSocket.js';
export { BEARER_SUBPROTOCOL_PREFIX, MCP_SUBPROTOCOL, tokenFromUpgrade } from './subprotocol.js';
export type {
  WebSocketAuthenticate,
  WebSocketAuthenticationResult,
  WebSocketAuthRefusal,
} from './upgradeAuthentication.js';
export {
  DEFAULT_CLOSE_TIMEOUT_MS,
  IDEMPOTENT_METHODS,
  type WebSocketClientOptions,
  type WebSocketConstructor,
  type WebSocketLike,
  type WebSocketReconnectAttempt,
  type WebSocketReconnectOptions,
} from './webSocketClientOptions.js';
export { WebSocketClientTransport } from './webSocketClientTransport.js';
export {
  WEBSOCKET_LIMIT_DEFAULTS,
  type WebSocketListenOptions,
  type WebSocketServerOptions,
} from './webSocketServerOptions.js';
export { WebSocketServerTransport } from './webSocketServerTransport.js';

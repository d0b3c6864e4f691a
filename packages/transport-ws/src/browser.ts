/**
 * @mcp-tasks/transport-ws/browser: the WebSocket client for browsers: no `node:` imports and no `ws`; it uses the
 * platform `WebSocket` unless one is passed in.
 *
 * @module @mcp-tasks/transport-ws/browser
 */
export { BEARER_SUBPROTOCOL_PREFIX, MCP_SUBPROTOCOL } from './subprotocol.js';
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

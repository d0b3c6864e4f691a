export { connectWebSocket } from './connectWebSocket.js';
export { BEARER_SUBPROTOCOL_PREFIX, MCP_SUBPROTOCOL, tokenFromUpgrade } from './subprotocol.js';
export {
  DEFAULT_CLOSE_TIMEOUT_MS,
  IDEMPOTENT_METHODS,
  type WebSocketClientOptions,
  WebSocketClientTransport,
  type WebSocketConstructor,
  type WebSocketLike,
  type WebSocketReconnectOptions,
} from './webSocketClientTransport.js';
export {
  WEBSOCKET_LIMIT_DEFAULTS,
  type WebSocketAuthenticate,
  type WebSocketListenOptions,
  type WebSocketServerOptions,
} from './webSocketServerOptions.js';
export { WebSocketServerTransport } from './webSocketServerTransport.js';

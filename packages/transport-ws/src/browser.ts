// Browser entry: no `node:` imports and no `ws`; uses the platform WebSocket unless one is passed in.
export { BEARER_SUBPROTOCOL_PREFIX, MCP_SUBPROTOCOL } from './subprotocol.js';
export {
  DEFAULT_CLOSE_TIMEOUT_MS,
  IDEMPOTENT_METHODS,
  type WebSocketClientOptions,
  WebSocketClientTransport,
  type WebSocketConstructor,
  type WebSocketLike,
  type WebSocketReconnectOptions,
} from './webSocketClientTransport.js';

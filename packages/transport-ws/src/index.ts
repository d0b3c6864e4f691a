export { connectWebSocket } from './connectWebSocket.js';
export { checkOrigin, type OriginPolicy } from './originPolicy.js';
export { PendingRequests, type PendingRequestsOptions } from './pendingRequests.js';
export { ServerSession, type ServerSessionOptions } from './serverSession.js';
export { BEARER_SUBPROTOCOL_PREFIX, MCP_SUBPROTOCOL, tokenFromUpgrade } from './subprotocol.js';
export {
  type WebSocketClientOptions,
  WebSocketClientTransport,
  type WebSocketConstructor,
  type WebSocketLike,
} from './webSocketClientTransport.js';
export {
  type WebSocketAuthenticate,
  type WebSocketListenOptions,
  type WebSocketServerOptions,
  WebSocketServerTransport,
} from './webSocketServerTransport.js';

import NodeWebSocket from 'ws';
import type { WebSocketClientOptions, WebSocketConstructor } from './webSocketClientOptions.js';
import { WebSocketClientTransport } from './webSocketClientTransport.js';

/**
 * Connects a {@link WebSocketClientTransport} from Node: uses the platform `WebSocket` when `globalThis.WebSocket`
 * exists and no `headers` are given, otherwise the `ws` package (the only one that can send upgrade headers).
 */
export function connectWebSocket(
  url: string | URL,
  options: WebSocketClientOptions = {},
): Promise<WebSocketClientTransport> {
  const platform = (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  const Impl =
    options.WebSocket ?? (options.headers === undefined && platform !== undefined ? platform : NodeWebSocket);
  return WebSocketClientTransport.connect(url, { ...options, WebSocket: Impl });
}

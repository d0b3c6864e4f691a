// Compile-time check (run by `tsc -p tsconfig.json`): both the platform WebSocket and `ws` satisfy the client's
// WebSocketConstructor without casts, so users can pass either as `options.WebSocket`.
import NodeWebSocket from 'ws';
import type { WebSocketConstructor } from '../src/webSocketClientOptions.js';

export const platform: WebSocketConstructor = globalThis.WebSocket;
export const node: WebSocketConstructor = NodeWebSocket;

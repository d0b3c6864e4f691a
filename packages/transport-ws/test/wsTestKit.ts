/** What the WebSocket transport tests share: servers and clients torn down after each test, raw sockets, frames. */
import type { TransportRequest } from '@mcp-tasks/protocol';
import { afterEach } from 'vitest';
import WebSocket from 'ws';
import { connectWebSocket } from '../src/connectWebSocket.js';
import type { WebSocketListenOptions } from '../src/webSocketServerOptions.js';
import { WebSocketServerTransport } from '../src/webSocketServerTransport.js';
import { fakeHandler } from './fakeHandler.js';

export const SUB = 'io.modelcontextprotocol/subscriptionId';
export const cleanup: (() => Promise<unknown> | unknown)[] = [];
// Registered in every test file that imports this module.
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

export async function serve(options: WebSocketListenOptions = {}) {
  const fake = fakeHandler();
  const server = await WebSocketServerTransport.listen(fake.handler, options);
  cleanup.push(() => server.close());
  return { server, ...fake };
}

export async function client(url: string, options: Parameters<typeof connectWebSocket>[1] = {}) {
  const transport = await connectWebSocket(url, options);
  cleanup.push(() => transport.close());
  return transport;
}

/** A raw `ws` socket for frame-level tests; resolves once open (or rejects with the refusal status). */
export function raw(
  url: string,
  protocols: string[] = ['mcp'],
  options: WebSocket.ClientOptions = {},
): Promise<WebSocket> {
  const socket = new WebSocket(url, protocols, options);
  cleanup.push(() => socket.terminate());
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_req, res) => reject(new Error(`status ${res.statusCode}`)));
    socket.once('error', reject);
  });
}

export const nextMessage = (socket: WebSocket): Promise<unknown> =>
  new Promise((resolve) => socket.once('message', (data) => resolve(JSON.parse(String(data)))));
export const closeCode = (socket: WebSocket): Promise<number> =>
  new Promise((resolve) => socket.once('close', (code) => resolve(code)));

export const req = (id: string | number, method: string, params?: TransportRequest['params']): TransportRequest => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params ? { params } : {}),
});

/** The socket is the 2025-era session: server-to-client requests over a real WebSocket on 127.0.0.1. */
import type { ClientPeerHandler, MessageHandler, TransportResponse } from '@mcp-tasks/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { connectWebSocket } from '../src/connectWebSocket.js';
import type { WebSocketListenOptions } from '../src/webSocketServerOptions.js';
import { WebSocketServerTransport } from '../src/webSocketServerTransport.js';
import { nextMessage, rawSocket } from './rawSocket.js';

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

/**
 * A fake runtime: `askPeer {count, method}` sends `count` server-to-client requests through `context.request` and
 * answers with each outcome; `notifications/initialized` makes it send a `ping` through `context.session` that
 * belongs to no request; everything else gets `{}`.
 */
const runtime: MessageHandler = async (message, context) => {
  const { id, method, params } = message as { id?: number | string; method: string; params?: Record<string, unknown> };
  if (id === undefined) {
    if (method === 'notifications/initialized')
      void context.session?.request({ method: 'ping' }).catch(() => undefined);
    return undefined;
  }
  if (method !== 'askPeer') return { jsonrpc: '2.0', id, result: {} };
  const ask = () =>
    (
      context.request?.({ method: String(params?.method ?? 'roots/list') }) ?? Promise.reject(new Error('no session'))
    ).then(
      (reply: TransportResponse) => ({ reply }),
      (error: { code?: string }) => ({ failed: error.code }),
    );
  const outcomes = await Promise.all(Array.from({ length: Number(params?.count ?? 1) }, ask));
  return { jsonrpc: '2.0', id, result: { outcomes } };
};

async function serve(options: WebSocketListenOptions) {
  const server = await WebSocketServerTransport.listen(runtime, { heartbeatMs: 0, ...options });
  cleanup.push(() => server.close());
  return server;
}

async function client(url: string, handler?: ClientPeerHandler) {
  const transport = await connectWebSocket(url, { reconnect: false });
  cleanup.push(() => transport.close());
  if (handler !== undefined) transport.setPeerHandler(handler);
  return transport;
}

const raw = (url: string): Promise<WebSocket> => rawSocket(url, cleanup);

describe('WebSocket: the socket is the session', () => {
  it('L-S22 L-C11: a fake runtime asks the client for roots and answers with what the client replied', async () => {
    const server = await serve({});
    const transport = await client(server.url, {
      onRequest: async (request) => ({ jsonrpc: '2.0', id: request.id, result: { roots: [{ uri: 'file:///ws' }] } }),
      onNotification: () => undefined,
    });
    const response = await transport.request({ jsonrpc: '2.0', id: 1, method: 'askPeer' });
    expect(response).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { outcomes: [{ reply: { jsonrpc: '2.0', id: 'srv-1', result: { roots: [{ uri: 'file:///ws' }] } } }] },
    });
  });

  it('bounds server requests awaiting a response per socket (maxPeerRequests): one more rejects with send_failed', async () => {
    const server = await serve({ maxPeerRequests: 2 });
    const parked: Array<() => void> = [];
    const transport = await client(server.url, {
      onRequest: (request) =>
        new Promise((resolve) => parked.push(() => resolve({ jsonrpc: '2.0', id: request.id, result: {} }))),
      onNotification: () => undefined,
    });
    const asked = transport.request({ jsonrpc: '2.0', id: 1, method: 'askPeer', params: { count: 3 } });
    await vi.waitFor(() => expect(parked).toHaveLength(2));
    for (const answer of parked) answer();
    expect(await asked).toMatchObject({
      result: { outcomes: [{ reply: { result: {} } }, { reply: { result: {} } }, { failed: 'send_failed' }] },
    });
  });

  it('does not close a socket for idleness while a server request awaits its response', async () => {
    const server = await serve({ idleTimeoutMs: 1000 });
    // The busy socket goes quiet first: without the exemption it would be closed before the idle one.
    const busy = await raw(server.url);
    const asked = nextMessage(busy);
    busy.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    expect(await asked).toMatchObject({ id: 'srv-1', method: 'ping' });
    const idle = await raw(server.url);
    const idleClosed = new Promise<number>((resolve) => idle.once('close', (code) => resolve(code)));
    idle.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/other' }));
    expect(await idleClosed).toBe(1000);
    expect(busy.readyState).toBe(WebSocket.OPEN);
    // Answered, it is idle like any other.
    const busyClosed = new Promise<number>((resolve) => busy.once('close', (code) => resolve(code)));
    busy.send(JSON.stringify({ jsonrpc: '2.0', id: 'srv-1', result: {} }));
    expect(await busyClosed).toBe(1000);
  });

  it('aborts a server request the client is still handling when the socket closes, without answering it', async () => {
    const server = await serve({});
    const signals: AbortSignal[] = [];
    const transport = await client(server.url, {
      onRequest: (request, { signal }) => {
        signals.push(signal);
        return new Promise((resolve) =>
          signal.addEventListener('abort', () => resolve({ jsonrpc: '2.0', id: request.id, result: {} })),
        );
      },
      onNotification: () => undefined,
    });
    const asked = transport.request({ jsonrpc: '2.0', id: 1, method: 'askPeer' }).catch((error: unknown) => error);
    await vi.waitFor(() => expect(signals).toHaveLength(1));
    await server.close();
    await vi.waitFor(() => expect(signals[0]?.aborted).toBe(true));
    expect(signals[0]?.reason).toMatchObject({ name: 'TransportError', code: 'closed' });
    expect(await asked).toMatchObject({ code: 'closed' });
  });
});

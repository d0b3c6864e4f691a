import { connect } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import type { WebSocketListenOptions } from '../src/webSocketServerOptions.js';
import { WebSocketServerTransport } from '../src/webSocketServerTransport.js';
import { fakeHandler } from './fakeHandler.js';
import { nextMessage, rawSocket } from './rawSocket.js';

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function serve(options: WebSocketListenOptions) {
  const server = await WebSocketServerTransport.listen(fakeHandler().handler, options);
  cleanup.push(() => server.close());
  return server;
}

const raw = (url: string): Promise<WebSocket> => rawSocket(url, cleanup);

describe('WebSocket limits', () => {
  it('refuses a client over maxConnectionsPerClient with 429 + Retry-After, and takes it again once one closes', async () => {
    const server = await serve({ maxConnectionsPerClient: 2 });
    const first = await raw(server.url);
    await raw(server.url);
    await expect(raw(server.url)).rejects.toThrow('status 429 retry-after 5');
    first.close();
    await vi.waitFor(() => expect(server.connectionCount).toBe(1));
    await vi.waitFor(() => raw(server.url));
  });

  it('refuses an upgrade with two Host headers with 400', async () => {
    const server = await serve({});
    const url = new URL(server.url);
    const socket = connect(Number(url.port), url.hostname);
    cleanup.push(() => socket.destroy());
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    socket.write(
      `GET /mcp HTTP/1.1\r\nHost: ${url.host}\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: mcp\r\n\r\n',
    );
    await new Promise((resolve) => socket.once('close', resolve));
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
  });

  it('refuses upgrades over maxConnections with 503 + Retry-After', async () => {
    const server = await serve({ maxConnections: 1 });
    await raw(server.url);
    await expect(raw(server.url)).rejects.toThrow('status 503 retry-after 5');
  });

  it('closes a socket idle for idleTimeoutMs even though it answers pings, but not one with a request in flight', async () => {
    // Several pings are answered before the idle timeout, with room for a pong that is late on a loaded machine
    // (a pong missing for a whole heartbeat drops the socket with 1006, which is not what this test is about).
    const server = await serve({ idleTimeoutMs: 1500, heartbeatMs: 250 });
    const idle = await raw(server.url);
    // Listen at once: under load the idle socket may be closed before the next socket is even open.
    const idleClosed = new Promise<number>((resolve) => idle.once('close', (c) => resolve(c)));
    const busy = await raw(server.url);
    busy.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'hang' }));
    expect(await idleClosed).toBe(1000);
    expect(busy.readyState).toBe(WebSocket.OPEN);
  });

  it('caps listen streams and requests in flight per socket with -32600 (data.limit)', async () => {
    const server = await serve({ maxListens: 1, maxInFlight: 2 });
    const socket = await raw(server.url);
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'subscriptions/listen', params: {} }));
    await nextMessage(socket); // the acknowledgement
    const refusedListen = nextMessage(socket);
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'subscriptions/listen', params: {} }));
    expect(await refusedListen).toMatchObject({ id: 2, error: { code: -32600, data: { limit: 'maxListens' } } });
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'hang' }));
    const refusedCall = nextMessage(socket);
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'hang' }));
    expect(await refusedCall).toMatchObject({ id: 4, error: { code: -32600, data: { limit: 'maxInFlight', max: 2 } } });
  });

  it('closes the socket with 1007 on a text frame that is not valid UTF-8 (RFC 6455, section 8.1)', async () => {
    const server = await serve({});
    const socket = await raw(server.url);
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
    );
    const answers: unknown[] = [];
    socket.on('message', (data) => answers.push(JSON.parse(String(data))));
    socket.send(Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]), { binary: false });
    expect((await closed).code).toBe(1007);
    expect(answers).toEqual([]);
    await vi.waitFor(() => expect(server.connectionCount).toBe(0));
    // Other sockets are served as before.
    const other = await raw(server.url);
    const echo = nextMessage(other);
    other.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'echo' }));
    expect(await echo).toMatchObject({ id: 1, result: {} });
  });

  it('answers a 100,000-deep frame with -32602, keeping the socket open', async () => {
    const server = await serve({});
    const socket = await raw(server.url);
    const tooDeep = nextMessage(socket);
    socket.send(`{"jsonrpc":"2.0","id":9,"method":"echo","params":{"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`);
    expect(await tooDeep).toMatchObject({ id: 9, error: { code: -32602 } });
    const echo = nextMessage(socket);
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: 10, method: 'echo' }));
    expect(await echo).toMatchObject({ id: 10, result: {} });
  });
});

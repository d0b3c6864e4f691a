import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TransportError, type TransportNotification } from '@mcp-tasks/protocol';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { connectWebSocket } from '../src/connectWebSocket.js';
import { WebSocketServerTransport } from '../src/webSocketServerTransport.js';
import { fakeHandler } from './fakeHandler.js';
import { cleanup, client, closeCode, nextMessage, raw, req, SUB, serve } from './wsTestKit.js';

describe('WebSocket binding: messages', () => {
  it('answers 100 concurrent requests completed out of order', async () => {
    const { server } = await serve();
    const c = await client(server.url);
    const waits = Array.from({ length: 50 }, (_, k) => c.request(req(`w${k}`, 'wait', { key: k })));
    const releases = Array.from({ length: 50 }, (_, k) => c.request(req(`r${k}`, 'release', { key: 49 - k })));
    const responses = await Promise.all([...waits, ...releases]);
    responses.forEach((r, i) => {
      expect(r.id).toBe(i < 50 ? `w${i}` : `r${i - 50}`);
    });
  });

  it('round-trips a 1 MiB message', async () => {
    const { server } = await serve();
    const c = await client(server.url);
    const blob = 'y'.repeat(1024 * 1024);
    expect(await c.request(req(1, 'echo', { blob }))).toMatchObject({ result: { echo: { blob } } });
  });

  it('delivers progress to its request and listen notifications tagged with the subscription id', async () => {
    const { server } = await serve();
    const c = await client(server.url);
    const progress: unknown[] = [];
    const listenSeen: TransportNotification[] = [];
    const [call, listen] = await Promise.all([
      c.request(req(1, 'progress', { steps: 2, _meta: { progressToken: 7 } }), {
        onNotification: (n) => progress.push(n.params?.progress),
      }),
      c.request(req(2, 'subscriptions/listen', { count: 1 }), { onNotification: (n) => listenSeen.push(n) }),
    ]);
    expect(progress).toEqual([1, 2]);
    expect(call).toMatchObject({ result: { done: true } });
    expect(listenSeen.map((n) => [n.method, (n.params?._meta as Record<string, unknown> | undefined)?.[SUB]])).toEqual([
      ['notifications/subscriptions/acknowledged', 2],
      ['notifications/tools/list_changed', 2],
    ]);
    expect(listen).toEqual({ jsonrpc: '2.0', id: 2, result: { resultType: 'complete', _meta: { [SUB]: 2 } } });
  });

  it('aborting a request sends notifications/cancelled: the server aborts it and the client rejects', async () => {
    const { server, whenAborted } = await serve();
    const c = await client(server.url);
    const controller = new AbortController();
    const pending = c.request(req('h', 'hang'), { signal: controller.signal });
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
    expect(await whenAborted('h')).toMatchObject({ name: 'AbortError', message: 'stop' });
    expect(await c.request(req(2, 'echo'))).toMatchObject({ id: 2 });
  });

  it('closing a socket aborts its in-flight requests and listen subscriptions, not other sockets', async () => {
    const { server, whenAborted } = await serve();
    const other = await client(server.url);
    const otherListen = expect(other.request(req('keep', 'subscriptions/listen'))).rejects.toMatchObject({
      code: 'closed',
    });
    const socket = await raw(server.url);
    const acked = nextMessage(socket);
    socket.send(JSON.stringify(req('L', 'subscriptions/listen')));
    await acked;
    socket.send(JSON.stringify(req('H', 'hang')));
    socket.close();
    const [listenReason, hangReason] = await Promise.all([whenAborted('L'), whenAborted('H')]);
    expect(listenReason).toBeInstanceOf(TransportError);
    expect(hangReason).toMatchObject({ code: 'closed' });
    expect(server.connectionCount).toBe(1);
    await other.close();
    await otherListen;
  });

  it('answers a malformed frame with -32700 (id null) and keeps the socket open', async () => {
    const { server } = await serve();
    const socket = await raw(server.url);
    const reply = nextMessage(socket);
    socket.send('{not json');
    expect(await reply).toEqual({ jsonrpc: '2.0', error: { code: -32700, message: expect.any(String) } });
    const next = nextMessage(socket);
    socket.send(JSON.stringify(req(1, 'echo')));
    expect(await next).toMatchObject({ id: 1 });
  });

  it('passes notifications to the handler without answering, and drops responses from the client', async () => {
    const { server, notifications } = await serve();
    const socket = await raw(server.url);
    socket.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' }));
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: 5, result: {} }));
    const next = nextMessage(socket);
    socket.send(JSON.stringify(req(1, 'echo')));
    expect(await next).toMatchObject({ id: 1 });
    expect(notifications).toEqual(['notifications/roots/list_changed']);
  });

  it('closes with 1003 on a binary frame and 1009 on an over-size frame', async () => {
    const { server } = await serve({ maxPayload: 1024 });
    const binary = await raw(server.url);
    const binaryClosed = closeCode(binary);
    binary.send(Buffer.from('{}'));
    const big = await raw(server.url);
    const bigClosed = closeCode(big);
    big.send('x'.repeat(2048));
    expect(await binaryClosed).toBe(1003);
    expect(await bigClosed).toBe(1009);
  });
});

describe('WebSocket binding: upgrade', () => {
  it('requires subprotocol mcp and serves only the configured path', async () => {
    const { server } = await serve({ path: '/custom' });
    expect(server.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/custom$/);
    await expect(raw(server.url, [])).rejects.toThrow('status 400');
    await expect(raw(server.url.replace('/custom', '/mcp'))).rejects.toThrow('status 404');
    const socket = await raw(server.url);
    expect(socket.protocol).toBe('mcp');
  });

  it('validates Host and Origin like Streamable HTTP (403), allowing clients without Origin', async () => {
    const { server } = await serve();
    const port = new URL(server.url).port;
    await expect(raw(server.url, ['mcp'], { origin: 'https://evil.example' })).rejects.toThrow('status 403');
    await expect(raw(server.url, ['mcp'], { headers: { Host: `evil.example:${port}` } })).rejects.toThrow('status 403');
    await raw(server.url, ['mcp'], { origin: `http://127.0.0.1:${port}` });
    await raw(server.url);
    const listed = await serve({ originPolicy: { allowedOrigins: ['https://app.example'] } });
    await raw(listed.server.url, ['mcp'], { origin: 'https://app.example' });
  });

  it('authenticates at the upgrade from the Authorization header or the subprotocol token', async () => {
    const { server } = await serve({
      authenticate: (_request, token) => {
        if (token === undefined) return undefined;
        if (token.startsWith('good-')) return token.slice(5);
        throw new Error('bad token');
      },
    });
    const byHeader = await client(server.url, { headers: { Authorization: 'Bearer good-alice' } });
    expect(await byHeader.request(req(1, 'echo'))).toMatchObject({ result: { principal: 'alice' } });
    const byProtocol = await client(server.url, { token: 'good-bob', WebSocket });
    expect(await byProtocol.request(req(1, 'echo'))).toMatchObject({ result: { principal: 'bob' } });
    const anonymous = await client(server.url);
    expect(await anonymous.request(req(1, 'echo'))).toMatchObject({ result: { principal: null } });
    // A refused upgrade says so with its HTTP status, unlike a server that is not there (1006 either way before).
    await expect(connectWebSocket(server.url, { token: 'forged' })).rejects.toMatchObject({
      code: 'http_status',
      status: 401,
      message: 'The server refused the WebSocket upgrade with HTTP 401',
    });
    await expect(raw(server.url, ['mcp'], { headers: { Authorization: 'Bearer nope' } })).rejects.toThrow('status 401');
  });

  it('attaches to an existing http.Server without taking over its requests, and close() leaves it running', async () => {
    const http: Server = createServer((_req, res) => res.end('plain http'));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => new Promise((resolve) => http.close(resolve)));
    const fake = fakeHandler();
    const transport = WebSocketServerTransport.attach(http, fake.handler);
    const { port } = http.address() as AddressInfo;
    const c = await client(`ws://127.0.0.1:${port}/mcp`);
    expect(await c.request(req(1, 'echo'))).toMatchObject({ id: 1 });
    expect(await (await fetch(`http://127.0.0.1:${port}/other`)).text()).toBe('plain http');
    await transport.close();
    await expect(c.request(req(2, 'echo'))).rejects.toMatchObject({ code: 'closed' });
    expect(http.listening).toBe(true);
  });
});

describe('WebSocket binding: liveness and limits', () => {
  it('drops a peer that stops answering pings, and keeps one that answers', async () => {
    // Not too short: the healthy peer must get its pong back within one interval even on a loaded CI machine.
    const { server } = await serve({ heartbeatMs: 250 });
    const silent = await raw(server.url, ['mcp'], { autoPong: false });
    const healthy = await raw(server.url);
    let pings = 0;
    const pinged = new Promise<void>((resolve) =>
      healthy.on('ping', () => {
        if (++pings === 3) resolve();
      }),
    );
    expect(await closeCode(silent)).toBe(1006);
    await pinged;
    expect(healthy.readyState).toBe(WebSocket.OPEN);
  });

  it('drops a peer that does not read, instead of buffering without bound', async () => {
    const { server, whenAborted } = await serve({ highWaterMark: 64 * 1024, maxBufferedBytes: 256 * 1024 });
    const socket = await raw(server.url);
    // Stop reading at the TCP level: the server's outbound queue can only grow.
    (socket as unknown as { _socket: { pause(): void } })._socket.pause();
    const closed = closeCode(socket);
    socket.send(JSON.stringify(req('S', 'spam', { size: 16 * 1024 })));
    expect(await whenAborted('S')).toMatchObject({ code: 'closed' });
    (socket as unknown as { _socket: { resume(): void } })._socket.resume();
    await closed;
  });

  it('pauses a slow reader above the high-water mark and resumes it without losing or reordering messages', async () => {
    const { server } = await serve({ highWaterMark: 64 * 1024, maxBufferedBytes: 256 * 1024 * 1024 });
    const socket = await raw(server.url);
    const tcp = (socket as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    const received: number[] = [];
    const done = new Promise<unknown[]>((resolve) => {
      const replies: unknown[] = [];
      socket.on('message', (data) => {
        const message = JSON.parse(String(data));
        if (message.method === 'notifications/message') received.push(message.params.data.i);
        else replies.push(message);
        if (replies.length === 2) resolve(replies);
      });
    });
    tcp.pause();
    socket.send(JSON.stringify(req('B', 'burst', { count: 400, size: 32 * 1024 })));
    socket.send(JSON.stringify(req('E', 'echo')));
    tcp.resume();
    const replies = await done;
    expect(replies).toEqual([{ jsonrpc: '2.0', id: 'B', result: { sent: 400 } }, expect.objectContaining({ id: 'E' })]);
    expect(received).toEqual(Array.from({ length: 400 }, (_, i) => i));
  });

  it('server close() closes sockets with 1001 and fails the clients’ in-flight requests', async () => {
    const fake = fakeHandler();
    const server = await WebSocketServerTransport.listen(fake.handler);
    const codes: number[] = [];
    const c = await connectWebSocket(server.url, { reconnect: false, onClose: (code) => codes.push(code) });
    let acked: () => void = () => {};
    const ack = new Promise<void>((resolve) => {
      acked = resolve;
    });
    const listen = expect(
      c.request(req('L', 'subscriptions/listen'), { onNotification: () => acked() }),
    ).rejects.toBeInstanceOf(TransportError);
    await ack;
    await Promise.all([server.close(), server.close()]);
    await listen;
    expect(codes).toEqual([1001]);
    expect(await fake.whenAborted('L')).toMatchObject({ code: 'closed' });
    await c.close();
  });
});

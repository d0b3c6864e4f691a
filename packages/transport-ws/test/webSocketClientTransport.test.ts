import type { MessageHandler, TransportRequest } from '@mcp-tasks/protocol';
import { describe, expect, it, vi } from 'vitest';
import { connectWebSocket } from '../src/connectWebSocket.js';
import {
  DEFAULT_CLOSE_TIMEOUT_MS,
  type WebSocketConstructor,
  type WebSocketReconnectAttempt,
} from '../src/webSocketClientOptions.js';
import { WebSocketClientTransport } from '../src/webSocketClientTransport.js';
import { WebSocketServerTransport } from '../src/webSocketServerTransport.js';
import { fakeHandler } from './fakeHandler.js';
import { cleanup, client, req, serve } from './wsTestKit.js';

describe('WebSocketClientTransport', () => {
  it('close() is idempotent and fails in-flight and later requests with TransportError(closed)', async () => {
    const { server } = await serve();
    const c: WebSocketClientTransport = await client(server.url);
    const hanging = expect(c.request(req(1, 'hang'))).rejects.toMatchObject({ code: 'closed' });
    await Promise.all([c.close(), c.close()]);
    await hanging;
    await expect(c.request(req(2, 'echo'))).rejects.toMatchObject({ code: 'closed' });
    await expect(c.notify({ jsonrpc: '2.0', method: 'x' })).rejects.toMatchObject({ code: 'closed' });
  });

  it('close() gives up on a server that never completes the closing handshake, and terminates the socket', async () => {
    const sockets: SilentSocket[] = [];
    class SilentSocket {
      readyState = 0;
      protocol = '';
      terminated = false;
      closeCalls = 0;
      onopen: ((event: never) => void) | null = null;
      onmessage: ((event: never) => void) | null = null;
      onclose: ((event: never) => void) | null = null;
      onerror: ((event: never) => void) | null = null;
      constructor() {
        sockets.push(this);
        queueMicrotask(() => {
          this.readyState = 1;
          this.protocol = 'mcp';
          this.onopen?.({} as never);
        });
      }
      send(): void {}
      /** Starts the closing handshake that the server never answers: no close event ever arrives. */
      close(): void {
        this.closeCalls += 1;
        this.readyState = 2;
      }
      terminate(): void {
        this.terminated = true;
      }
    }
    const codes: number[] = [];
    const c = await WebSocketClientTransport.connect('ws://127.0.0.1:1/mcp', {
      WebSocket: SilentSocket as unknown as WebSocketConstructor,
      reconnect: false,
      onClose: (code) => codes.push(code),
    });
    const hanging = expect(c.request(req(1, 'hang'))).rejects.toMatchObject({ code: 'closed' });
    vi.useFakeTimers();
    try {
      let closed = false;
      const closing = c.close().then(() => {
        closed = true;
      });
      await vi.advanceTimersByTimeAsync(DEFAULT_CLOSE_TIMEOUT_MS - 1);
      expect(closed).toBe(false);
      expect(sockets[0]?.terminated).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await closing;
    } finally {
      vi.useRealTimers();
    }
    await hanging;
    expect(sockets).toHaveLength(1);
    expect(sockets[0]?.closeCalls).toBe(1);
    expect(sockets[0]?.terminated).toBe(true);
    expect(codes).toEqual([1006]);
    expect(await c.closed).toEqual({ initiator: 'local' });
    await c.close();
  });

  it('rejects connect with TransportError(closed) when nothing listens', async () => {
    const { server } = await serve();
    const url = server.url;
    await server.close();
    await expect(connectWebSocket(url)).rejects.toMatchObject({
      name: 'TransportError',
      code: 'closed',
      message: expect.stringMatching(/^The WebSocket closed before opening \(code 1006: .*ECONNREFUSED/),
    });
  });
});

describe('WebSocketClientTransport reconnect', () => {
  /** A handler that parks every request until aborted and reports how many have started. */
  function parking() {
    let started = 0;
    let onStart: () => void = () => {};
    const handler: MessageHandler = (_message, context) => {
      started++;
      onStart();
      return new Promise((resolve) => context.signal.addEventListener('abort', () => resolve(undefined)));
    };
    const startedCount = (n: number) =>
      new Promise<void>((resolve) => {
        onStart = () => started >= n && resolve();
        onStart();
      });
    return { handler, startedCount };
  }

  it('re-sends idempotent in-flight requests on a new socket and fails the others at once', async () => {
    const first = parking();
    const serverA = await WebSocketServerTransport.listen(first.handler);
    const url = serverA.url;
    const port = Number(new URL(url).port);
    const c = await client(url, { reconnect: { initialDelayMs: 5, maxAttempts: 50 } });
    const get = c.request(req('g', 'tasks/get', { taskId: 't1' }));
    const call = expect(c.request(req('c', 'tools/call', { name: 'x' }))).rejects.toMatchObject({ code: 'closed' });
    await first.startedCount(2);
    await serverA.close();
    await call;
    const fake = fakeHandler();
    const serverB = await WebSocketServerTransport.listen(
      async (message, context) => {
        const m = message as TransportRequest;
        return m.method === 'tasks/get'
          ? { jsonrpc: '2.0', id: m.id, result: { again: true } }
          : fake.handler(m, context);
      },
      { port },
    );
    cleanup.push(() => serverB.close());
    expect(await get).toEqual({ jsonrpc: '2.0', id: 'g', result: { again: true } });
    expect(await c.request(req(2, 'echo'))).toMatchObject({ id: 2 });
  });

  it('gives up after maxAttempts: pending requests fail with closed and onClose fires once', async () => {
    const first = parking();
    const server = await WebSocketServerTransport.listen(first.handler);
    const codes: number[] = [];
    const attempts: WebSocketReconnectAttempt[] = [];
    const c = await client(server.url, {
      reconnect: { initialDelayMs: 1, maxAttempts: 2, onReconnecting: (attempt) => attempts.push(attempt) },
      onClose: (code) => codes.push(code),
    });
    const get = expect(c.request(req('g', 'tasks/get'))).rejects.toMatchObject({ code: 'closed' });
    await first.startedCount(1);
    await server.close();
    await get;
    expect(codes).toEqual([1001]);
    // Told before each attempt, with the close that started them; no time budget, so nothing bounds what is left.
    expect(attempts.map(({ attempt, code, leftMs }) => ({ attempt, code, leftMs }))).toEqual([
      { attempt: 1, code: 1001, leftMs: Number.POSITIVE_INFINITY },
      { attempt: 2, code: 1001, leftMs: Number.POSITIVE_INFINITY },
    ]);
    expect(attempts.every(({ delayMs }) => delayMs >= 0 && delayMs <= 2)).toBe(true);
    await expect(c.request(req('h', 'tasks/get'))).rejects.toMatchObject({ code: 'closed' });
  });
  it('giveUpAfterMs bounds reconnecting by time: unlimited attempts stop once the budget since the close is spent', async () => {
    const first = parking();
    const server = await WebSocketServerTransport.listen(first.handler);
    const codes: number[] = [];
    const c = await client(server.url, {
      reconnect: { initialDelayMs: 1, maxDelayMs: 20, maxAttempts: Number.POSITIVE_INFINITY, giveUpAfterMs: 300 },
      onClose: (code) => codes.push(code),
    });
    const get = expect(c.request(req('g', 'tasks/get'))).rejects.toMatchObject({ code: 'closed' });
    await first.startedCount(1);
    const closedAt = performance.now();
    await server.close();
    await get;
    // Refused connections fail at once, so only the time budget can have ended the attempts.
    expect(performance.now() - closedAt).toBeGreaterThanOrEqual(290);
    expect(codes).toEqual([1001]);
  });
});

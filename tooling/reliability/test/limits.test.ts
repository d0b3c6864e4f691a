/**
 * Resource limits, each on every transport it applies to, against the real runtime: requests in flight and listen
 * streams per connection (stdio, WebSocket), connections per client (HTTP, WebSocket), nesting depth (all three),
 * and stdio backpressure (a client that stops reading stdout holds the server at bounded memory).
 */
import { PassThrough, Writable } from 'node:stream';
import type { MessageHandler } from '@mcp-tasks/protocol';
import { StdioServerTransport } from '@mcp-tasks/transport-stdio';
import { afterEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { count, figure } from './budget.js';
import { createFixtureServer, serveFixture } from './fixtureServer.js';
import { VALID_META } from './messages.js';

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

const call = (id: number, name: string, args: object) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: VALID_META } });
const deep = (id: number, depth: number) =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"value":${'['.repeat(depth)}${']'.repeat(depth)}}}}`;

/** A stdio server over in-process pipes; `lines` collects what it writes. */
function stdioServer(handler: MessageHandler, options: { maxInFlight?: number; stdout?: Writable } = {}) {
  const stdin = new PassThrough();
  const stdout = options.stdout ?? new PassThrough();
  const transport = new StdioServerTransport(handler, {
    stdin,
    stdout,
    maxInFlight: options.maxInFlight,
    onError: () => {},
  });
  transport.start();
  cleanup.push(() => transport.close());
  const lines: Array<{ id?: unknown; error?: { code: number; data?: unknown } }> = [];
  if (options.stdout === undefined) {
    let buffered = '';
    stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      for (const part of parts) lines.push(JSON.parse(part));
    });
  }
  return { stdin, stdout, lines };
}

describe('limits against the real runtime', () => {
  it('stdio: a client that stops reading stdout stops the server taking work, at bounded output', async () => {
    const { server } = createFixtureServer();
    cleanup.push(() => server.close());
    let handled = 0;
    const handler: MessageHandler = (message, context) => {
      handled++;
      return server.handle(message, context);
    };
    // A pipe nobody reads: writes are accepted into its buffer but never complete.
    const stalled = new Writable({ highWaterMark: 16 * 1024, write: () => {} });
    // The in-flight cap is lifted so the burst tests output backpressure, not the cap's refusals.
    const { stdin } = stdioServer(handler, { stdout: stalled, maxInFlight: 1_000_000 });
    const sent = 20_000;
    const pad = 'x'.repeat(200);
    // A client that writes as fast as the pipe takes it (respecting 'drain'), like a real parent process.
    let written = 0;
    // Fifty lines per turn of the event loop, as a pipe delivers them to a reader that keeps up.
    const feed = (): void => {
      for (let i = 0; i < 50 && written < sent; i++) {
        written++;
        if (!stdin.write(`${call(written, 'echo', { value: `${written}${pad}` })}\n`)) {
          stdin.once('drain', feed);
          return;
        }
      }
      if (written < sent) setImmediate(feed);
    };
    feed();
    await vi.waitFor(() => expect(stalled.writableLength).toBeGreaterThan(1024 * 1024));
    // Reading paused: the client's writes back up too, and the server takes no more work.
    let previous = -1;
    await vi.waitFor(() => {
      const now = handled;
      const steady = now === previous;
      previous = now;
      expect(steady).toBe(true);
    });
    expect(written).toBeLessThan(sent);
    expect(handled).toBeLessThan(sent);
    // The high-water mark (1 MiB) plus the responses of the lines already read when reading paused.
    expect(stalled.writableLength).toBeLessThan(2 * 1024 * 1024);
    figure('stdio backpressure: requests written / taken of sent', `${written} / ${handled} / ${sent}`);
    figure('stdio backpressure: output held (KiB)', Math.round(stalled.writableLength / 1024));
  });

  it('stdio: requests over maxInFlight get -32600 with data.limit; deep messages get -32602', async () => {
    const { server } = createFixtureServer();
    cleanup.push(() => server.close());
    const { stdin, lines } = stdioServer(server.handle, { maxInFlight: 2 });
    // Three listens that stay open (the client never leaves): the third is over the cap.
    for (const id of [1, 2, 3]) {
      stdin.write(
        `${JSON.stringify({ jsonrpc: '2.0', id, method: 'subscriptions/listen', params: { notifications: { taskIds: [] }, _meta: VALID_META } })}\n`,
      );
    }
    stdin.write(`${deep(4, 10_000)}\n`);
    await vi.waitFor(() => expect(lines.some((l) => l.id === 3) && lines.some((l) => l.id === 4)).toBe(true));
    expect(lines.find((l) => l.id === 3)).toMatchObject({ error: { code: -32600, data: { limit: 'maxInFlight' } } });
    expect(lines.find((l) => l.id === 4)).toMatchObject({ error: { code: -32602 } });
    count('limits exercised', 2);
  });

  it('WebSocket and HTTP: connections per client, listens per socket and depth, against the runtime', async () => {
    const fixture = await serveFixture({
      http: { limits: { maxConnectionsPerClient: 4 } },
      ws: { maxConnectionsPerClient: 2, maxListens: 1 },
    });
    cleanup.push(() => fixture.close());
    const open = () =>
      new Promise<WebSocket>((resolve, reject) => {
        const socket = new WebSocket(fixture.wsUrl, ['mcp']);
        socket.on('error', () => {});
        cleanup.push(() => socket.terminate());
        socket.once('open', () => resolve(socket));
        socket.once('unexpected-response', (_req, res) => reject(new Error(`status ${res.statusCode}`)));
      });
    const socket = await open();
    await open();
    // Each WebSocket is also an HTTP connection: the third is refused by the WebSocket cap.
    await expect(open()).rejects.toThrow('status 429');
    const replies: Array<{ id?: unknown; error?: { code: number; data?: unknown } }> = [];
    socket.on('message', (data) => replies.push(JSON.parse(String(data))));
    const listen = (id: number) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'subscriptions/listen',
        params: { notifications: { taskIds: [] }, _meta: VALID_META },
      });
    socket.send(listen(1));
    socket.send(listen(2));
    socket.send(deep(3, 50_000));
    await vi.waitFor(() => expect(replies.some((r) => r.id === 2) && replies.some((r) => r.id === 3)).toBe(true));
    expect(replies.find((r) => r.id === 2)).toMatchObject({ error: { code: -32600, data: { limit: 'maxListens' } } });
    expect(replies.find((r) => r.id === 3)).toMatchObject({ error: { code: -32602 } });
    const res = await fetch(fixture.httpUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'mcp-method': 'tools/call',
        'mcp-name': 'echo',
        'mcp-protocol-version': '2026-07-28',
      },
      body: deep(4, 50_000),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ id: 4, error: { code: -32602 } });
    count('limits exercised', 4);
  });
});

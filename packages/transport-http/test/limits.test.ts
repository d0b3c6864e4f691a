import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { processFdLimit } from '../src/fdLimit.js';
import { type HttpServerHandle, type ListenOptions, listen } from '../src/server.js';
import { connectionCaps } from '../src/serverLimits.js';
import { fakeRuntime, mcpHeaders, rawRequest, rpc } from './fakes.js';

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function start(options: ListenOptions = {}): Promise<HttpServerHandle> {
  const handle = await listen(fakeRuntime().handler, options);
  cleanup.push(() => handle.close());
  return handle;
}

/** A raw TCP client: write what you like, read everything until the server closes. */
function rawSocket(
  url: URL,
  localAddress?: string,
): Promise<{ socket: Socket; text: () => string; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port: Number(url.port), host: url.hostname, localAddress });
    cleanup.push(() => socket.destroy());
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
    });
    socket.on('error', () => {});
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.once('connect', () => resolve({ socket, text: () => received, closed }));
    socket.once('error', reject);
  });
}

const head = (url: URL, extra = '') =>
  `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\n${extra}`;

describe('Streamable HTTP limits (node front)', () => {
  it('answers 400 to a request with two Host headers (RFC 9112 section 3.2)', async () => {
    const { url } = await start();
    const client = await rawSocket(url);
    const body = JSON.stringify(rpc(1, 'tools/list'));
    client.socket.write(
      `${head(url, `Host: ${url.host}\r\nMcp-Method: tools/list\r\nMCP-Protocol-Version: 2026-07-28\r\n`)}Content-Length: ${body.length}\r\n\r\n${body}`,
    );
    client.socket.end();
    await client.closed;
    expect(client.text()).toMatch(/^HTTP\/1\.1 400 /);
    expect(client.text()).toContain('more than one Host header');
  });

  it('delivers a 413 for an 8 MiB body to a real client before the connection closes', async () => {
    const { url } = await start({ maxBodyBytes: 64 * 1024 });
    const body = JSON.stringify(rpc(1, 'tools/list', { pad: 'x'.repeat(8 * 1024 * 1024) }));
    for (let round = 0; round < 3; round++) {
      const res = await fetch(url, { method: 'POST', headers: mcpHeaders('tools/list'), body });
      expect(res.status).toBe(413);
      expect((await res.json()).error.code).toBe(-32600);
    }
  });

  it('delivers a 413 to a raw client that sends a whole 8 MiB body before reading (no connection reset)', async () => {
    const { url } = await start({ maxBodyBytes: 64 * 1024 });
    for (const framing of ['content-length', 'chunked']) {
      const client = await rawSocket(url);
      const body = Buffer.alloc(8 * 1024 * 1024, 0x20);
      const headers = framing === 'chunked' ? 'Transfer-Encoding: chunked\r\n' : `Content-Length: ${body.length}\r\n`;
      client.socket.write(
        `${head(url, 'Mcp-Method: tools/list\r\nMCP-Protocol-Version: 2026-07-28\r\n')}${headers}\r\n`,
      );
      if (framing === 'chunked') client.socket.write(`${body.length.toString(16)}\r\n`);
      client.socket.write(body);
      client.socket.end(framing === 'chunked' ? '\r\n0\r\n\r\n' : '');
      await client.closed;
      expect(client.text()).toMatch(/^HTTP\/1\.1 413 /);
    }
  });

  it('answers invalid UTF-8 with 400/-32700 and a 100,000-deep body with 400/-32602', async () => {
    const { url } = await start();
    const bad = Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":1,"method":"tools/list","x":"'),
      Buffer.from([0xff]),
      Buffer.from('"}'),
    ]);
    const utf8 = await rawRequest(url, { headers: mcpHeaders('tools/list'), body: bad });
    expect(utf8.status).toBe(400);
    expect(JSON.parse(utf8.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32700, message: 'Parse error: the body is not valid UTF-8' },
    });
    const depth = 100_000;
    const deep = `{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"x":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
    const res = await rawRequest(url, { headers: mcpHeaders('tools/list'), body: deep });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ id: 3, error: { code: -32602, data: { maxDepth: 64 } } });
  });

  it('answers a connection over maxConnectionsPerClient with 429 + Retry-After; others go on', async () => {
    const { url } = await start({ limits: { maxConnectionsPerClient: 2 } });
    await rawSocket(url);
    await rawSocket(url);
    const res = await rawRequest(url, {
      headers: mcpHeaders('tools/list'),
      body: JSON.stringify(rpc(1, 'tools/list')),
    });
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('5');
  });

  it('refuses connections over maxConnectionsPerClient when accepted, with 429, before any byte is sent', async () => {
    // A header timeout far beyond the test's: a refused connection must not wait for headers at all.
    const handle = await start({
      limits: { maxConnectionsPerClient: 3, headersTimeoutMs: 120_000, requestTimeoutMs: 120_000 },
    });
    // One client (127.0.0.2) opens 20 connections and never sends a byte.
    const idle = await Promise.all(Array.from({ length: 20 }, () => rawSocket(handle.url, '127.0.0.2')));
    const closed = await Promise.all(
      idle.map((client) =>
        Promise.race([client.closed.then(() => true), new Promise((r) => setTimeout(r, 3_000, false))]),
      ),
    );
    expect(closed.filter(Boolean)).toHaveLength(17);
    for (const [i, client] of idle.entries()) {
      if (closed[i]) {
        expect(client.text()).toMatch(/^HTTP\/1\.1 429 /);
        expect(client.text()).toMatch(/retry-after: 5\r\n/i);
      }
    }
    const open = await new Promise<number>((resolve, reject) =>
      handle.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
    );
    expect(open).toBe(3);
    // Every other caller goes on at once.
    const res = await fetch(handle.url, {
      method: 'POST',
      headers: mcpHeaders('tools/list'),
      body: JSON.stringify(rpc(1, 'tools/list')),
    });
    expect(res.status).toBe(200);
  });

  it('keeps the total cap below the process file-descriptor limit, and says what it is', async () => {
    expect(connectionCaps({}, 1024)).toEqual({ maxConnections: 896, maxConnectionsPerClient: 256, fdLimit: 1024 });
    expect(connectionCaps({ maxConnections: 5_000 }, 4_096)).toMatchObject({ maxConnections: 3_584 });
    expect(connectionCaps({ maxConnections: 50 }, 1024)).toMatchObject({ maxConnections: 50 });
    expect(connectionCaps({}, 200)).toMatchObject({ maxConnections: 136 });
    expect(connectionCaps({}, undefined)).toEqual({
      maxConnections: 1024,
      maxConnectionsPerClient: 256,
      fdLimit: undefined,
    });
    const handle = await start();
    const fdLimit = processFdLimit();
    if (process.platform === 'linux') expect(fdLimit).toBeGreaterThan(0);
    expect(handle.limits).toEqual(connectionCaps({}, fdLimit));
  });

  it('answers over maxConnections with 503 + Retry-After', async () => {
    const { url } = await start({ limits: { maxConnections: 1 } });
    await rawSocket(url);
    const res = await rawRequest(url, {
      headers: mcpHeaders('tools/list'),
      body: JSON.stringify(rpc(1, 'tools/list')),
    });
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
  });

  it('closes a connection that sends nothing within headersTimeoutMs', async () => {
    const { url } = await start({ limits: { headersTimeoutMs: 200, requestTimeoutMs: 400 } });
    const client = await rawSocket(url);
    await client.closed;
  });

  it('answers a dribbled body with 408 once requestTimeoutMs passes, and closes', async () => {
    const { url } = await start({ limits: { headersTimeoutMs: 200, requestTimeoutMs: 400 } });
    const client = await rawSocket(url);
    client.socket.write(
      `${head(url, 'Mcp-Method: tools/list\r\nMCP-Protocol-Version: 2026-07-28\r\n')}Content-Length: 1000\r\n\r\n{`,
    );
    await client.closed;
    expect(client.text()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('drops a body whose client leaves half-way: the runtime never sees it, and the server goes on', async () => {
    // The body reader listens for `close` only; node emits `error` on a request only to listeners it has.
    const runtime = fakeRuntime();
    const handle = await listen(runtime.handler);
    cleanup.push(() => handle.close());
    const client = await rawSocket(handle.url);
    client.socket.write(
      `${head(handle.url, 'Mcp-Method: tools/list\r\nMCP-Protocol-Version: 2026-07-28\r\n')}Content-Length: 1000\r\n\r\n{"jsonrpc"`,
    );
    client.socket.destroy();
    await client.closed;
    const res = await fetch(handle.url, {
      method: 'POST',
      headers: mcpHeaders('tools/list'),
      body: JSON.stringify(rpc(2, 'tools/list')),
    });
    expect(res.status).toBe(200);
    expect(runtime.recorded.contexts).toHaveLength(1);
  });

  it('closes an idle keep-alive connection after keepAliveTimeoutMs', async () => {
    const { url } = await start({ limits: { keepAliveTimeoutMs: 100 } });
    const client = await rawSocket(url);
    const body = JSON.stringify(rpc(1, 'tools/list'));
    client.socket.write(
      `${head(url, 'Mcp-Method: tools/list\r\nMCP-Protocol-Version: 2026-07-28\r\n')}Content-Length: ${body.length}\r\n\r\n${body}`,
    );
    await client.closed;
    expect(client.text()).toMatch(/^HTTP\/1\.1 200 /);
  });
});

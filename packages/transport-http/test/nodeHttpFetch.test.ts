/** nodeHttpFetch on its own, against node:http servers on 127.0.0.1:0 (the transport suites run on it too). */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeHttpFetch } from '../src/nodeHttpFetch.js';

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A server running `handle`; `gone` lists each request whose connection closed before its response ended. */
async function serve(handle: (req: IncomingMessage, res: ServerResponse, body: string) => void) {
  const gone: IncomingMessage[] = [];
  const arrived: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    arrived.push(req);
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => handle(req, res, body));
    res.on('close', () => {
      if (!res.writableFinished) gone.push(req);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const fetchOverNode = nodeHttpFetch();
  closers.push(() => fetchOverNode.close());
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/mcp`, fetch: fetchOverNode, gone, arrived, server };
}

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met within 5 s');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('nodeHttpFetch', () => {
  it('sends the method, headers and body with its Content-Length, and returns status, headers and body', async () => {
    const { url, fetch } = await serve((req, res, body) => {
      res.writeHead(201, { 'content-type': 'application/json', 'x-echo': String(req.headers['x-custom']) });
      res.end(JSON.stringify({ method: req.method, length: req.headers['content-length'], body }));
    });
    const res = await fetch(url, { method: 'post', headers: { 'X-Custom': 'yes' }, body: 'héllo' });
    expect(res.status).toBe(201);
    expect(res.ok).toBe(true);
    expect(res.headers.get('x-echo')).toBe('yes');
    expect(await res.json()).toEqual({ method: 'POST', length: '6', body: 'héllo' });
  });

  it('takes Headers and header pairs too', async () => {
    const { url, fetch } = await serve((req, res) => res.end(`${req.headers.a}/${req.headers.b}`));
    expect(await (await fetch(url, { headers: new Headers({ A: '1', B: '2' }) })).text()).toBe('1/2');
    expect(
      await (
        await fetch(url, {
          headers: [
            ['a', '3'],
            ['b', '4'],
          ],
        })
      ).text(),
    ).toBe('3/4');
  });

  it('streams the body as it arrives (an SSE stream is read before it ends)', async () => {
    let finish: (() => void) | undefined;
    const { url, fetch } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      finish = () => res.end('data: two\n\n');
    });
    const res = await fetch(url, { method: 'GET' });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('data: one\n\n');
    finish?.();
    const rest: string[] = [];
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      rest.push(new TextDecoder().decode(chunk.value));
    }
    expect(rest.join('')).toBe('data: two\n\n');
  });

  it('an abort before the response headers closes the connection and rejects with the reason', async () => {
    const { url, fetch, gone, arrived } = await serve(() => {
      // Never answers.
    });
    const controller = new AbortController();
    const pending = fetch(url, { method: 'POST', body: '{}', signal: controller.signal });
    const settled = pending.catch((error: unknown) => error);
    await until(() => arrived.length === 1);
    const reason = new Error('caller gave up');
    controller.abort(reason);
    expect(await settled).toBe(reason);
    await until(() => gone.length === 1);
  });

  it('an abort after the headers ends the body with the reason and closes the connection', async () => {
    const { url, fetch, gone } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': open\n\n');
    });
    const controller = new AbortController();
    const res = await fetch(url, { signal: controller.signal });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    const reason = new Error('stop listening');
    controller.abort(reason);
    await expect(reader.read()).rejects.toBe(reason);
    await until(() => gone.length === 1);
  });

  it('an already aborted signal rejects without sending anything', async () => {
    let requests = 0;
    const { url, fetch } = await serve((_req, res) => {
      requests++;
      res.end();
    });
    const reason = new Error('too late');
    await expect(fetch(url, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    await fetch(url, {}).then((res) => res.text());
    expect(requests).toBe(1);
  });

  it('cancelling an unfinished body closes the connection; a finished one keeps it for the next request', async () => {
    const { url, fetch, gone, server } = await serve((req, res) => {
      if (req.url?.endsWith('?stream')) {
        res.writeHead(200);
        res.write('partial');
      } else res.end('whole');
    });
    let connections = 0;
    server.on('connection', () => connections++);
    const whole = await fetch(url, {});
    expect(await whole.text()).toBe('whole');
    await (await fetch(url, {})).text();
    expect(connections).toBe(1);
    const streaming = await fetch(`${url}?stream`, {});
    await (streaming.body as ReadableStream<Uint8Array>).cancel();
    await until(() => gone.length === 1);
  });

  it('a failure to connect rejects with TypeError("fetch failed") caused by the socket error, like the global fetch', async () => {
    const { url, server } = await serve((_req, res) => res.end());
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const fetchOverNode = nodeHttpFetch();
    closers.push(() => fetchOverNode.close());
    const error = await fetchOverNode(url, {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toBe('fetch failed');
    expect(((error as TypeError).cause as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
  });

  it('a connection lost mid-body errors the body', async () => {
    const { url, fetch } = await serve((_req, res) => {
      res.writeHead(200);
      res.write('half');
      setImmediate(() => res.destroy());
    });
    const res = await fetch(url, {});
    await expect(res.text()).rejects.toThrow();
  });

  it('a status without a body gives a null body; a redirect is returned, not followed', async () => {
    const { url, fetch } = await serve((req, res) => {
      if (req.url?.endsWith('?moved')) {
        res.writeHead(307, { location: '/elsewhere' });
        res.end('see elsewhere');
      } else {
        res.writeHead(204);
        res.end();
      }
    });
    const controller = new AbortController();
    const empty = await fetch(url, { signal: controller.signal });
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
    // An abort once the answer is in ends nothing, and raises nothing.
    controller.abort(new Error('late'));
    const moved = await fetch(`${url}?moved`, {});
    expect(moved.status).toBe(307);
    expect(moved.headers.get('location')).toBe('/elsewhere');
  });

  it('refuses what it does not send: other URL schemes and bodies other than a string or bytes', async () => {
    const fetchOverNode = nodeHttpFetch();
    closers.push(() => fetchOverNode.close());
    await expect(fetchOverNode('ftp://127.0.0.1/', {})).rejects.toThrow(/http: and https:/);
    await expect(fetchOverNode('http://127.0.0.1:1/', { body: new Blob(['x']) })).rejects.toThrow(
      /string or Uint8Array/,
    );
  });
});

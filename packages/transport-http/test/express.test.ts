import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TransportNotification } from '@mcp-tasks/protocol';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpClientTransport } from '../src/client.js';
import { createHttpHandler } from '../src/server.js';
import { fakeRuntime, mcpHeaders, rawRequest, rpc } from './fakes.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** An express 5 app with express.json() in front and the MCP endpoint mounted at a custom path. */
async function startApp() {
  const runtime = fakeRuntime();
  const app = express();
  app.use(express.json({ limit: '2mb' }));
  app.use('/api/v2/mcp', createHttpHandler(runtime.handler));
  app.get('/health', (_req, res) => {
    res.json({ ok: true });
  });
  server = createServer(app);
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { ...runtime, url: new URL(`http://127.0.0.1:${port}/api/v2/mcp`) };
}

describe('express 5 integration', () => {
  it('serves requests whose body express.json() already parsed', async () => {
    const { url, recorded } = await startApp();
    const client = new HttpClientTransport({ url });
    try {
      const response = await client.request(rpc(1, 'tools/call', { name: 'greet', arguments: { who: 'x' } }));
      expect(response).toMatchObject({ id: 1, result: { echo: { name: 'greet', arguments: { who: 'x' } } } });
      const seen: TransportNotification[] = [];
      await client.request(rpc(2, 'progress'), { onNotification: (n) => seen.push(n) });
      expect(seen).toHaveLength(3);
      // The first tools/call is preceded by the transport's own tools/list (to learn x-mcp-header annotations).
      expect(recorded.contexts).toHaveLength(3);
    } finally {
      await client.close();
    }
  });

  it('reads the body itself when express.json() skipped it (no JSON content type)', async () => {
    const { url } = await startApp();
    const res = await rawRequest(url, {
      headers: { ...mcpHeaders('tools/list'), 'content-type': 'text/plain' },
      body: JSON.stringify(rpc(3, 'tools/list')),
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ id: 3, result: {} });
  });

  it('validates headers behind express too (-32020, 400) and answers GET with 405', async () => {
    const { url } = await startApp();
    const bad = await rawRequest(url, {
      headers: mcpHeaders('prompts/list'),
      body: JSON.stringify(rpc(4, 'tools/list')),
    });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toMatchObject({ id: 4, error: { code: -32020 } });
    expect((await rawRequest(url, { method: 'GET' })).status).toBe(405);
    expect((await rawRequest(new URL('/health', url), { method: 'GET' })).status).toBe(200);
  });
});

import { once } from 'node:events';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { McpServer } from '@mcp-tasks/server';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { launchBrowser, openPage, type TrackedPage } from './browser.js';
import { corsMcpServer } from './corsServer.js';

// The tool server's own modules (built): the demo tools and the static console files, served from a second origin.
const toolServer = (file: string) => fileURLToPath(new URL(`../../tool-server/dist/${file}`, import.meta.url));
const { createToolServer } = (await import(toolServer('createToolServer.js'))) as {
  createToolServer: (options: { tools: 'demo' }) => McpServer;
};
const { consoleRequestListener, CONSOLE_BUNDLE_DIR } = (await import(
  toolServer('serveConsole.js')
)) as typeof import('../../tool-server/src/serveConsole.js');

let browser: Browser;
let mcp: McpServer;
let staticHost: Server;
let consoleOrigin: string;
const servers: Server[] = [];
const pages: TrackedPage[] = [];

async function listen(server: Server): Promise<number> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  servers.push(server);
  return (server.address() as AddressInfo).port;
}

beforeAll(async () => {
  browser = await launchBrowser();
  mcp = createToolServer({ tools: 'demo' });
  // The page is served as http://localhost:PORT, the MCP server is http://127.0.0.1:OTHER: two origins.
  const serveStatic = consoleRequestListener(CONSOLE_BUNDLE_DIR, {
    transport: 'http',
    path: '/none',
    tokenRequired: false,
  });
  staticHost = createServer((req, res) => {
    if (req.url?.endsWith('/endpoint.json')) return void res.writeHead(404).end();
    if (!serveStatic(req, res)) res.writeHead(404).end();
  });
  consoleOrigin = `http://localhost:${await listen(staticHost)}`;
});
afterEach(async () => {
  for (const tracked of pages.splice(0)) {
    expect(tracked.pageErrors()).toEqual([]);
    await tracked.page.context().close();
  }
});
afterAll(async () => {
  await browser?.close();
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
  await mcp?.close();
});

async function openConsole(endpoint: string) {
  const tracked = await openPage(browser);
  pages.push(tracked);
  await tracked.page.goto(`${consoleOrigin}/console/?url=${encodeURIComponent(endpoint)}`);
  return tracked.page;
}

const statusText = (page: Awaited<ReturnType<typeof openConsole>>) => page.locator('#connection').textContent();

describe('a console served from another origin', () => {
  it('works against a server that answers CORS and lists the console origin in allowedOrigins', async () => {
    const endpoint = `http://127.0.0.1:${await listen(corsMcpServer(mcp.handle, consoleOrigin))}/mcp`;
    const page = await openConsole(endpoint);
    await vi.waitFor(async () => expect(await statusText(page)).toMatch(/Connected to mcp-tasks-tool-server/));
    await page.locator('li[data-tool="checksum_data"] button').click();
    await page.locator('[name="megabytes"]').fill('8');
    await page.getByRole('button', { name: 'Call checksum_data' }).click();
    const card = page.locator('li.card[data-tool="checksum_data"]');
    await vi.waitFor(async () => expect(await card.getAttribute('data-status')).toBe('completed'), { timeout: 20_000 });
  });

  it('is refused with a clear message when the origin is not allowed (CORS alone does not let it in)', async () => {
    const endpoint = `http://127.0.0.1:${await listen(corsMcpServer(mcp.handle, consoleOrigin, false))}/mcp`;
    const page = await openConsole(endpoint);
    await vi.waitFor(async () =>
      expect(await statusText(page)).toBe(
        `The server refused this page's origin (403 Forbidden): it must list ${consoleOrigin} in its allowed origins.`,
      ),
    );
  });

  it('keeps the DNS-rebinding protection: a rebound Host name is refused even from the allowed origin', async () => {
    const port = await listen(corsMcpServer(mcp.handle, consoleOrigin));
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/mcp',
          method: 'POST',
          headers: { host: `rebound.example:${port}`, origin: consoleOrigin },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode);
        },
      );
      req.once('error', reject);
      req.end('{}');
    });
    expect(status).toBe(403);
  });
});

import { once } from 'node:events';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { McpServer } from '@mcp-tasks/server';
import { createHttpHandler } from '@mcp-tasks/transport-http/server';
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

/** Types `url` in the connect form and submits it, as a person would. */
async function connectTo(page: Awaited<ReturnType<typeof openConsole>>, url: string): Promise<void> {
  await page.locator('#server-url').fill(url);
  await page.locator('#connect-button').click();
}

/** An http URL on a port nothing listens on (bound, then closed). */
async function closedPort(): Promise<string> {
  const probe = createServer();
  const port = await listen(probe);
  await new Promise((resolve) => probe.close(resolve));
  return `http://127.0.0.1:${port}/mcp`;
}

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

  it('says why it cannot connect: wrong path (404); no CORS for this page; nothing there', async () => {
    const cors = `http://127.0.0.1:${await listen(corsMcpServer(mcp.handle, consoleOrigin))}`;
    const page = await openConsole(`${cors}/wrong`);
    await vi.waitFor(async () =>
      expect(await statusText(page)).toBe(
        `No MCP endpoint at ${cors}/wrong (404 Not Found): check the path (MCP servers usually serve …/mcp).`,
      ),
    );
    // A server that never answers CORS (the tool server's own endpoint from another origin): it is there, but the
    // browser does not let the page read it.
    const plain = `http://127.0.0.1:${await listen(createServer(createHttpHandler(mcp.handle)))}/mcp`;
    await connectTo(page, plain);
    await vi.waitFor(async () =>
      expect(await statusText(page)).toBe(
        `The server at ${plain} answers but does not let this page in: it sent no CORS headers for ${consoleOrigin}. Its Origin policy refuses this page (allow ${consoleOrigin} there), or nothing at this path takes MCP calls (check the path).`,
      ),
    );
    const nothing = await closedPort();
    await connectTo(page, nothing);
    await vi.waitFor(async () =>
      expect(await statusText(page)).toBe(
        `Cannot reach ${nothing}: nothing answers there (the server is down, or the host or port is wrong).`,
      ),
    );
    // Chromium reports the blocked request on the console; this test provoked it, and the page explained it.
    const tracked = pages.at(-1);
    const blocked = tracked?.errors.filter((e) => /blocked by CORS policy/.test(e)) ?? [];
    expect(blocked.length).toBeGreaterThan(0);
    tracked?.errors.splice(0, tracked.errors.length, ...(tracked?.errors.filter((e) => !blocked.includes(e)) ?? []));
  });

  it('starts clean on every connect: a failed connect leaves no tools, details or cards of the previous server', async () => {
    const endpoint = `http://127.0.0.1:${await listen(corsMcpServer(mcp.handle, consoleOrigin))}/mcp`;
    const page = await openConsole(endpoint);
    await vi.waitFor(async () => expect(await statusText(page)).toMatch(/Connected to mcp-tasks-tool-server/));
    await page.locator('li[data-tool="checksum_data"] button').click();
    await page.getByRole('button', { name: 'Call checksum_data' }).click();
    await vi.waitFor(async () => expect(await page.locator('li.card').count()).toBe(1));
    await connectTo(page, await closedPort());
    await vi.waitFor(async () => expect(await statusText(page)).toMatch(/^Cannot reach /));
    expect(await page.locator('#tool-list li').count()).toBe(0);
    expect(await page.locator('#server-info dt').count()).toBe(0);
    expect(await page.locator('li.card').count()).toBe(0);
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

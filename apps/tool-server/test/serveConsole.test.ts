import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createLogger } from '../src/logger.js';
import { type StartedToolServer, startToolServer } from '../src/startToolServer.js';

const logger = createLogger('silent');
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
const discover = { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: META } };
const base = { host: '127.0.0.1', port: 0, tools: 'demo', tokens: [], console: true } as const;

let root: string;
let started: StartedToolServer | undefined;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'console-bundle-'));
  await mkdir(join(root, 'assets'));
  await writeFile(join(root, 'index.html'), '<!doctype html><title>console</title>');
  await writeFile(join(root, 'assets', 'app-abc.js'), 'export {};');
});
afterAll(() => rm(root, { recursive: true, force: true }));
afterEach(async () => {
  await started?.stop();
  started = undefined;
});

async function start(options: Partial<Parameters<typeof startToolServer>[0]> = {}) {
  started = await startToolServer({ ...base, transport: 'http', consoleRoot: root, ...options }, logger);
  return { origin: new URL(started.consoleUrl ?? '').origin, started };
}

function mcpPost(url: string, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'server/discover',
      ...headers,
    },
    body: JSON.stringify(discover),
  });
}

describe('--console', () => {
  it('serves the bundle under /console/ and the MCP endpoint at /mcp on the same origin', async () => {
    const { origin, started: server } = await start();
    expect(server.consoleUrl).toBe(`${origin}/console/`);
    expect(server.url).toBe(`${origin}/mcp`);
    const page = await fetch(`${origin}/console/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(await page.text()).toContain('<title>console</title>');
    const asset = await fetch(`${origin}/console/assets/app-abc.js`);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect(await (await fetch(`${origin}/console/endpoint.json`)).json()).toEqual({
      transport: 'http',
      path: '/mcp',
      tokenRequired: false,
    });
    const redirect = await fetch(`${origin}/`, { redirect: 'manual' });
    expect([redirect.status, redirect.headers.get('location')]).toEqual([302, '/console/']);
    const response = await mcpPost(`${origin}/mcp`);
    expect(((await response.json()) as { result: { resultType: string } }).result.resultType).toBe('complete');
  });

  it('never serves a file outside the bundle, and answers 404 for unknown paths and 405 for writes', async () => {
    const { origin } = await start();
    for (const path of ['/console/../package.json', '/console/%2e%2e/%2e%2e/package.json', '/console/nope.js']) {
      expect((await fetch(`${origin}${path}`)).status, path).toBe(404);
    }
    expect((await fetch(`${origin}/elsewhere`)).status).toBe(404);
    expect((await fetch(`${origin}/console/`, { method: 'POST' })).status).toBe(405);
  });

  it('keeps the endpoint protected: a foreign Origin and a rebound Host get 403, a missing token 401', async () => {
    const { origin } = await start({ tokens: ['s3cret'] });
    expect(await (await fetch(`${origin}/console/endpoint.json`)).json()).toMatchObject({ tokenRequired: true });
    expect((await mcpPost(`${origin}/mcp`, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await mcpPost(`${origin}/mcp`, { origin })).status).toBe(401);
    expect((await mcpPost(`${origin}/mcp`, { origin, authorization: 'Bearer s3cret' })).status).toBe(200);
  });

  it('over ws, serves the page over HTTP and the binding on the same port', async () => {
    const { origin, started: server } = await start({ transport: 'ws' });
    expect(server.url).toBe(`${origin.replace('http', 'ws')}/mcp`);
    expect(await (await fetch(`${origin}/console/endpoint.json`)).json()).toMatchObject({ transport: 'ws' });
    const socket = new WebSocket(server.url ?? '', 'mcp', { origin });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const reply = new Promise<string>((resolve) => socket.once('message', (data) => resolve(String(data))));
    socket.send(JSON.stringify(discover));
    expect(JSON.parse(await reply)).toMatchObject({ id: 1, result: { resultType: 'complete' } });
    socket.close();
    const foreign = new WebSocket(server.url ?? '', 'mcp', { origin: 'http://evil.example' });
    const status = await new Promise<number>((resolve) =>
      foreign.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)),
    );
    expect(status).toBe(403);
  });

  it('refuses to start without a built bundle, naming the build command', async () => {
    await expect(
      startToolServer({ ...base, transport: 'http', consoleRoot: join(root, 'missing') }, logger),
    ).rejects.toThrow(/no console bundle at .*app-task-console build/);
  });
});

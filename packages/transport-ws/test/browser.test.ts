import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { WebSocketClientTransport } from '../src/browser.js';
import { WebSocketServerTransport } from '../src/webSocketServerTransport.js';
import { fakeHandler } from './fakeHandler.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  vi.unstubAllGlobals();
  for (const fn of cleanup.splice(0)) await fn();
});

/** Every module reachable from a built entry, by following relative static imports. */
function importGraph(entry: URL, seen = new Map<string, string>()): Map<string, string> {
  if (seen.has(entry.href)) return seen;
  const source = readFileSync(entry, 'utf8');
  seen.set(entry.href, source);
  for (const [, specifier] of source.matchAll(/^(?:import|export)\s[^;]*?from\s+'([^']+)'/gm)) {
    if (specifier?.startsWith('.')) importGraph(new URL(specifier, entry), seen);
  }
  return seen;
}

describe('browser entry (@mcp-tasks/transport-ws/browser)', () => {
  it('statically imports no node: module and not the ws package', () => {
    const graph = importGraph(new URL('../dist/browser.js', import.meta.url));
    expect(graph.size).toBeGreaterThan(2);
    for (const source of graph.values()) {
      expect(source).not.toMatch(/from\s+'(node:|ws'|http|net|stream)/);
    }
  });

  it('uses the platform WebSocket from globalThis', async () => {
    const fake = fakeHandler();
    const server = await WebSocketServerTransport.listen(fake.handler);
    cleanup.push(() => server.close());
    vi.stubGlobal('WebSocket', WebSocket);
    const client = await WebSocketClientTransport.connect(server.url, { token: 'abc' });
    cleanup.push(() => client.close());
    expect(await client.request({ jsonrpc: '2.0', id: 1, method: 'echo' })).toMatchObject({ id: 1 });
  });

  it('rejects with TransportError(closed) when no WebSocket implementation exists', async () => {
    vi.stubGlobal('WebSocket', undefined);
    await expect(WebSocketClientTransport.connect('ws://127.0.0.1:1/mcp')).rejects.toMatchObject({
      name: 'TransportError',
      code: 'closed',
    });
  });

  it('fails the connection when the server does not select subprotocol mcp', async () => {
    const { WebSocketServer } = await import('ws');
    const plain = new WebSocketServer({ host: '127.0.0.1', port: 0, handleProtocols: () => false });
    await new Promise((resolve) => plain.once('listening', resolve));
    cleanup.push(() => new Promise((resolve) => plain.close(resolve)));
    const { port } = plain.address() as { port: number };
    await expect(WebSocketClientTransport.connect(`ws://127.0.0.1:${port}/mcp`, { WebSocket })).rejects.toMatchObject({
      code: 'closed',
    });
  });
});

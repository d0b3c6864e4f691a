// connect() of the task console against our server in both eras: 2026-07-28 (server/discover) and, with the same
// server hiding server/discover (-32601, as a 2025-era server answers it), a 2025-era initialize session.
import { InMemoryTaskJournal } from '@mcp-tasks/client';
import type { MessageHandler, ServerEndpoint } from '@mcp-tasks/protocol';
import { McpServer } from '@mcp-tasks/server';
import { type HttpServerHandle, listen } from '@mcp-tasks/transport-http';
import { WebSocketServerTransport } from '@mcp-tasks/transport-ws';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { z } from 'zod';
import { type Connection, connect } from '../src/connection.js';

function toolServer(): McpServer {
  const server = new McpServer({ serverInfo: { name: 'console-test', version: '1.2.3' } });
  server.tool({
    name: 'greet',
    description: 'Greets someone',
    inputSchema: z.object({ name: z.string() }),
    handler: ({ name }) => ({ content: [{ type: 'text', text: `Hello, ${name}!` }] }),
  });
  return server;
}

/** The same server as a 2025-era one: `server/discover` is -32601, so clients fall back to `initialize`. */
function withoutDiscover(server: McpServer): ServerEndpoint {
  const handle: MessageHandler = async (message, context) => {
    const { id, method } = message as { id?: string | number; method?: string };
    if (method === 'server/discover' && id !== undefined)
      return { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } };
    return server.handle(message, context);
  };
  return { handle, toolParamHeaders: (name) => server.toolParamHeaders(name) };
}

// The page uses the browser's WebSocket; Node 20 has none, so the tests lend it `ws`.
beforeAll(() => {
  vi.stubGlobal('WebSocket', WebSocket);
});
afterAll(() => {
  vi.unstubAllGlobals();
});

let stop: (() => Promise<void>) | undefined;
let opened: Connection | undefined;
afterEach(async () => {
  await opened?.client.close();
  await stop?.();
  opened = undefined;
  stop = undefined;
});

const open = (url: string) => connect({ url, token: undefined, handlers: {}, journal: new InMemoryTaskJournal() });

async function overHttp(endpoint: ServerEndpoint): Promise<string> {
  const http: HttpServerHandle = await listen(endpoint);
  stop = () => http.close();
  return http.url.href;
}

async function overWs(endpoint: ServerEndpoint): Promise<string> {
  const ws = await WebSocketServerTransport.listen(endpoint.handle);
  stop = () => ws.close();
  return ws.url;
}

describe.each([
  ['HTTP', overHttp, 'http', false],
  ['WebSocket', overWs, 'ws', true],
] as const)('connect (task console) over %s', (_name, serve, kind, listens) => {
  it('speaks 2026-07-28 to a server that answers server/discover', async () => {
    opened = await open(await serve(toolServer()));
    expect(opened).toMatchObject({
      era: 'modern',
      kind,
      serverInfo: { name: 'console-test', version: '1.2.3' },
      tasksExtension: true,
      legacyTasks: false,
      listens,
    });
    expect(opened.supportedVersions).toContain('2026-07-28');
    expect((await opened.client.listAllTools()).map((tool) => tool.name)).toEqual(['greet']);
  });

  it('L-C1, L-C5: opens a 2025-era session with a server that does not know server/discover, instead of failing', async () => {
    opened = await open(await serve(withoutDiscover(toolServer())));
    expect(opened).toMatchObject({
      era: 'legacy',
      kind,
      supportedVersions: ['2025-11-25'],
      serverInfo: { name: 'console-test', version: '1.2.3' },
      tasksExtension: false,
      listens: false,
    });
  });
});

describe('connect (task console), 2025-era session over WebSocket', () => {
  it('L-C5: lists and calls tools in the session', async () => {
    opened = await open(await overWs(withoutDiscover(toolServer())));
    expect((await opened.client.listAllTools()).map((tool) => tool.name)).toEqual(['greet']);
    const result = await opened.client.callTool('greet', { name: 'Ada' });
    expect(result.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
  });
});

/**
 * Over the per-principal task limit the runtime answers `-32029` (`ErrorCode.TooManyTasks`), a client fault to back
 * off from; Streamable HTTP maps it to `429 Too Many Requests` with `Retry-After`, on the fetch front and on the
 * node:http front alike, and the first task is untouched.
 */
import { ErrorCode, TASKS_EXTENSION_ID } from '@mcp-tasks/protocol';
import { McpServer } from '@mcp-tasks/server';
import { InMemoryTaskStore } from '@mcp-tasks/task-store';
import { createFetchHandler } from '@mcp-tasks/transport-http/fetch';
import { listen } from '@mcp-tasks/transport-http/server';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS_EXTENSION_ID]: {} } },
};
const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-method': 'tools/call',
  'mcp-name': 'wait',
  'mcp-protocol-version': '2026-07-28',
};

const teardowns: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const teardown of teardowns.splice(0).reverse()) await teardown();
});

/** A server whose store allows one live task per principal, with a tool that runs until cancelled. */
function limitedServer(): McpServer {
  const server = new McpServer({
    serverInfo: { name: 'task-limit', version: '0.0.0' },
    taskStore: new InMemoryTaskStore({ maxTasksPerOwner: 1 }),
  });
  server.tool({
    name: 'wait',
    description: 'Runs until cancelled',
    inputSchema: z.object({}),
    taskSupport: 'required',
    handler: (_args, ctx) =>
      new Promise((_resolve, reject) => {
        ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true });
      }),
  });
  teardowns.push(() => server.close({ graceMs: 1000 }));
  return server;
}

function call(id: number): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'wait', arguments: {}, _meta: META },
  });
}

async function expectLimited(send: (body: string) => Promise<Response>): Promise<void> {
  const first = await send(call(1));
  expect(first.status).toBe(200);
  expect(await first.json()).toMatchObject({ id: 1, result: { resultType: 'task' } });
  const second = await send(call(2));
  expect(second.status).toBe(429);
  expect(second.headers.get('retry-after')).toBe('1');
  expect(await second.json()).toMatchObject({
    id: 2,
    error: { code: ErrorCode.TooManyTasks, data: { retryAfterSeconds: 1 } },
  });
}

describe('the per-principal task limit over Streamable HTTP', () => {
  it('answers 429 with Retry-After through the fetch front', async () => {
    const handler = createFetchHandler(limitedServer());
    await expectLimited((body) =>
      handler(new Request('http://localhost:8787/mcp', { method: 'POST', headers: HEADERS, body })),
    );
  });

  it('answers 429 with Retry-After through the node:http front', async () => {
    const running = await listen(limitedServer(), { host: '127.0.0.1', port: 0 });
    teardowns.push(() => running.close());
    await expectLimited((body) => fetch(running.url, { method: 'POST', headers: HEADERS, body }));
  });
});

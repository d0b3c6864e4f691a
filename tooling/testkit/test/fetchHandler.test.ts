/**
 * The real McpServer behind createFetchHandler, driven with nothing but fetch `Request`/`Response` objects (no
 * sockets): the real McpClient over HttpClientTransport whose `fetch` calls the handler in process, and raw requests
 * for what a conforming client never sends. Also: the same annotated tool over a transport without headers.
 */
import { McpClient } from '@mcp-tasks/client';
import { TASKS_EXTENSION_ID } from '@mcp-tasks/protocol';
import { McpServer } from '@mcp-tasks/server';
import { HttpClientTransport } from '@mcp-tasks/transport-http/client';
import { createFetchHandler } from '@mcp-tasks/transport-http/fetch';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHarness, FAST_POLL_MS, text } from './harness.js';

const URL_ = 'http://localhost:8787/mcp';
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS_EXTENSION_ID]: {} } },
};

const teardowns: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const teardown of teardowns.splice(0).reverse()) await teardown();
});

/** A deploy tool that runs as a task and mirrors its `region` argument into `Mcp-Param-Region`. */
function deployServer(): McpServer {
  const server = new McpServer({
    serverInfo: { name: 'fetch-core', version: '0.0.0' },
    tasks: { pollIntervalMs: FAST_POLL_MS },
  });
  server.tool({
    name: 'deploy',
    description: 'Deploys to a region',
    inputSchema: z.object({ region: z.string().meta({ 'x-mcp-header': 'Region' }) }),
    taskSupport: 'optional',
    handler: ({ region }) => text(`deployed to ${region}`),
  });
  teardowns.push(() => server.close());
  return server;
}

function post(body: unknown, headers: Record<string, string>): Request {
  return new Request(URL_, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
}

describe('createFetchHandler in front of McpServer', () => {
  it('McpClient calls an annotated task tool first thing (no tools/list by the caller) and polls it to the end', async () => {
    const handler = createFetchHandler(deployServer());
    const seen: string[] = [];
    const transport = new HttpClientTransport({
      url: URL_,
      fetch: async (input, init) => {
        const request = new Request(input, init);
        seen.push(`${request.headers.get('mcp-method')} ${request.headers.get('mcp-param-region') ?? '-'}`);
        return handler(request);
      },
    });
    const client = new McpClient({
      clientInfo: { name: 'fetch-core-client', version: '0.0.0' },
      transport,
      tasks: { minIntervalMs: 1, defaultIntervalMs: FAST_POLL_MS },
    });
    teardowns.push(() => client.close());

    const started = await client.callToolRaw('deploy', { region: 'eu-west' });
    expect(started.kind).toBe('task');
    const taskId = started.kind === 'task' ? started.task.taskId : '';
    const result = await client.resumeTask(taskId);
    expect(result.content).toEqual([{ type: 'text', text: 'deployed to eu-west' }]);
    // The first request of a client in 'auto' version negotiation is its era probe.
    expect(seen.slice(0, 3)).toEqual(['server/discover -', 'tools/list -', 'tools/call eu-west']);
    expect(seen.slice(3).every((line) => line === 'tasks/get -')).toBe(true);
  });

  it('rejects a tools/call whose Mcp-Param-Region is missing or wrong with 400/-32020 and creates no task', async () => {
    const server = deployServer();
    const handler = createFetchHandler(server);
    const call = (id: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'deploy', arguments: { region: 'eu-west' }, _meta: META },
    });
    const headers = { 'mcp-method': 'tools/call', 'mcp-name': 'deploy', 'mcp-protocol-version': '2026-07-28' };
    for (const [id, extra] of [
      [1, {}],
      [2, { 'mcp-param-region': 'us-east' }],
    ] as const) {
      const res = await handler(post(call(id), { ...headers, ...extra }));
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ id, error: { code: -32020 } });
    }
    const ok = await handler(post(call(3), { ...headers, 'mcp-param-region': 'eu-west' }));
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ id: 3, result: { resultType: 'task' } });
  });

  it('the same annotated tool works over a transport without headers (stdio, WebSocket, in memory)', async () => {
    const h = createHarness();
    h.server.tool({
      name: 'where',
      description: 'Answers with its region',
      inputSchema: z.object({ region: z.string().meta({ 'x-mcp-header': 'Region' }) }),
      handler: ({ region }) => text(region),
    });
    const { client } = h.connect();
    expect(await client.callTool('where', { region: 'ap-south' })).toMatchObject({
      content: [{ type: 'text', text: 'ap-south' }],
    });
    expect(h.serverErrors).toEqual([]);
  });
});

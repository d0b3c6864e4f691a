/**
 * Issue 6: a task created over one transport is polled, answered and cancelled over another. One in-process
 * `McpServer` (one task store) serves Streamable HTTP and, attached to the same `http.Server` and port, WebSocket.
 */
import { McpClient } from '@mcp-tasks/client';
import type { DetailedTask } from '@mcp-tasks/protocol';
import { McpServer } from '@mcp-tasks/server';
import { HttpClientTransport } from '@mcp-tasks/transport-http/client';
import { type HttpServerHandle, listen } from '@mcp-tasks/transport-http/server';
import { connectWebSocket, WebSocketServerTransport } from '@mcp-tasks/transport-ws';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deferred, FAST_POLL_MS, text, until } from './harness.js';

const FORM = { type: 'object', properties: { answer: { type: 'string' } } } as const;

interface Shared {
  readonly server: McpServer;
  readonly http: HttpServerHandle;
  readonly ws: WebSocketServerTransport;
  readonly overHttp: McpClient;
  readonly overWs: McpClient;
  readonly wsUrl: string;
  readonly serverErrors: unknown[];
}

const teardowns: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const teardown of teardowns.splice(0).reverse()) await teardown();
});

async function serveBoth(configure: (server: McpServer) => void): Promise<Shared> {
  const serverErrors: unknown[] = [];
  const server = new McpServer({
    serverInfo: { name: 'cross-transport', version: '0.0.0' },
    onError: (error) => serverErrors.push(error),
    tasks: { pollIntervalMs: FAST_POLL_MS },
  });
  configure(server);
  const handler = (message: unknown, context: Parameters<McpServer['handle']>[1]) => server.handle(message, context);
  const http = await listen(server, { port: 0, host: '127.0.0.1' });
  const ws = WebSocketServerTransport.attach(http.server, handler, { heartbeatMs: 0 });
  teardowns.push(async () => {
    await server.close();
    await ws.close();
    await http.close();
    expect(serverErrors).toEqual([]);
  });
  const wsUrl = `ws://127.0.0.1:${http.url.port}${http.url.pathname}`;
  const clientOptions = {
    clientInfo: { name: 'cross-transport-client', version: '0.0.0' },
    // Both declare elicitation; neither answers automatically: the test answers by hand over the other transport.
    capabilities: { elicitation: {} },
    tasks: { minIntervalMs: 1, defaultIntervalMs: FAST_POLL_MS },
  };
  const overHttp = new McpClient({ ...clientOptions, transport: new HttpClientTransport({ url: http.url }) });
  teardowns.push(() => overHttp.close());
  const overWs = new McpClient({ ...clientOptions, transport: await connectWebSocket(wsUrl, { reconnect: false }) });
  teardowns.push(() => overWs.close());
  return { server, http, ws, overHttp, overWs, wsUrl, serverErrors };
}

async function pollUntil(
  client: McpClient,
  taskId: string,
  predicate: (task: DetailedTask) => boolean,
): Promise<DetailedTask> {
  let seen: DetailedTask | undefined;
  await vi.waitFor(async () => {
    seen = await client.getTask(taskId);
    expect(predicate(seen)).toBe(true);
  });
  return seen as DetailedTask;
}

describe('one task store behind two transports', () => {
  it('WebSocket shares the HTTP transport’s port: attached to the same http.Server', async () => {
    const { http, ws, overHttp, overWs, wsUrl } = await serveBoth(() => {});
    expect(new URL(wsUrl).port).toBe(http.url.port);
    const [viaHttp, viaWs] = await Promise.all([overHttp.discover(), overWs.discover()]);
    expect(viaWs.supportedVersions).toEqual(viaHttp.supportedVersions);
    expect(ws.connectionCount).toBe(1);
  });

  it('a task created over HTTP gets its input and is polled to completion over WebSocket', async () => {
    const { overHttp, overWs } = await serveBoth((server) =>
      server.tool({
        name: 'interview',
        description: 'Asks one question mid-task',
        taskSupport: 'required',
        handler: async (_args, ctx) => {
          const answer = (await ctx.elicit({ message: 'Favourite colour?', requestedSchema: FORM })) as {
            content?: { answer?: string };
          };
          return text(`colour: ${answer.content?.answer}`);
        },
      }),
    );
    const started = await overHttp.startTool('interview');
    if (started.kind !== 'task') throw new Error(`expected a task, got ${started.kind}`);
    const taskId = started.task.taskId;

    const asking = (await pollUntil(overWs, taskId, (t) => t.status === 'input_required')) as DetailedTask & {
      inputRequests: Record<string, { method: string; params: { message: string } }>;
    };
    const entries = Object.entries(asking.inputRequests);
    expect(entries).toHaveLength(1);
    const [key, request] = entries[0] ?? [];
    expect(request).toMatchObject({ method: 'elicitation/create', params: { message: 'Favourite colour?' } });
    await overWs.updateTask(taskId, { [String(key)]: { action: 'accept', content: { answer: 'teal' } } });

    const done = await pollUntil(overWs, taskId, (t) => t.status === 'completed');
    expect(done).toMatchObject({ result: { content: [{ type: 'text', text: 'colour: teal' }] } });
    // And the creator sees the same final state over its own transport.
    await expect(overHttp.getTask(taskId)).resolves.toMatchObject({ status: 'completed' });
  });

  it('resumeTask over HTTP drives a task created over WebSocket, answering its input there', async () => {
    const { http, overWs } = await serveBoth((server) =>
      server.tool({
        name: 'confirm',
        description: 'Asks for confirmation',
        taskSupport: 'required',
        handler: async (_args, ctx) => {
          const answer = await ctx.elicit({ message: 'Sure?', requestedSchema: FORM });
          return text(`answered ${answer.action}`);
        },
      }),
    );
    const started = await overWs.startTool('confirm');
    if (started.kind !== 'task') throw new Error(`expected a task, got ${started.kind}`);
    const prompts: string[] = [];
    const resumer = new McpClient({
      clientInfo: { name: 'resumer', version: '0.0.0' },
      transport: new HttpClientTransport({ url: http.url }),
      tasks: { minIntervalMs: 1, defaultIntervalMs: FAST_POLL_MS },
      handlers: {
        elicitation: (params) => {
          prompts.push(params.message);
          return { action: 'accept', content: { answer: 'yes' } };
        },
      },
    });
    teardowns.push(() => resumer.close());
    // A third client, over HTTP, that never saw the task being created.
    const result = await resumer.resumeTask(started.task.taskId);
    expect(result.content).toEqual([{ type: 'text', text: 'answered accept' }]);
    expect(prompts).toEqual(['Sure?']);
  });

  it('a task created over WebSocket is cancelled over HTTP, and the tool sees its signal abort', async () => {
    const toolAborted = deferred<unknown>();
    const { overHttp, overWs } = await serveBoth((server) =>
      server.tool({
        name: 'wait',
        description: 'Runs until cancelled',
        taskSupport: 'required',
        handler: async (_args, ctx) => {
          try {
            await until(new Promise<never>(() => {}), ctx.signal);
          } finally {
            toolAborted.resolve(ctx.signal.reason);
          }
          return text('unreachable');
        },
      }),
    );
    const started = await overWs.startTool('wait');
    if (started.kind !== 'task') throw new Error(`expected a task, got ${started.kind}`);
    const taskId = started.task.taskId;
    await expect(overHttp.getTask(taskId)).resolves.toMatchObject({ status: 'working' });
    await overHttp.cancelTask(taskId);
    await toolAborted.promise;
    await pollUntil(overWs, taskId, (t) => t.status === 'cancelled');
    await expect(overHttp.getTask(taskId)).resolves.toMatchObject({ status: 'cancelled' });
  });
});

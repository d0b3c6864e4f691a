// Our client (@mcp-tasks/client) against the official TypeScript SDK v1 server (@modelcontextprotocol/sdk 1.32.2,
// 2025-era only) over Streamable HTTP (stateful sessions) and stdio: the client finds the 2025 era by itself,
// answers the server's in-band elicitation, and drives the server's experimental tasks (tasks/get, tasks/result,
// tasks/cancel).
import { McpClient } from '@mcp-tasks/client';
import type { Task } from '@mcp-tasks/protocol';
import { HttpClientTransport } from '@mcp-tasks/transport-http/client';
import { StdioClientTransport } from '@mcp-tasks/transport-stdio';
import { describe, expect, it, vi } from 'vitest';
import { startV1HttpServer } from './fixtures/sdkV1HttpServer.mjs';
import { V1_README_TEXT, V1_README_URI, V1_SERVER_INFO } from './fixtures/sdkV1Server.mjs';
import { CLIENT_INFO, type Connect, ourClientPerSuite } from './helpers/ourClient.js';
import { httpTransportTo } from './helpers/overHttp.js';
import { fixturePath } from './helpers/paths.js';
import { rejection } from './helpers/rejection.js';

const overHttp =
  (onNode: boolean): Connect =>
  async () =>
    httpTransportTo(await startV1HttpServer(), onNode);

const overStdio: Connect = async () => ({
  transport: await StdioClientTransport.spawn({
    command: process.execPath,
    args: [fixturePath('sdkV1StdioServer.mjs')],
    closeGraceMs: 1000,
  }),
});

describe.each([
  ['Streamable HTTP', overHttp(false)],
  ['Streamable HTTP on nodeHttpFetch', overHttp(true)],
  ['stdio', overStdio],
])('our McpClient -> SDK v1 server (1.32.2) over %s', (_name, connect) => {
  const ours = ourClientPerSuite(connect);

  it('L-C1, L-C2, L-C5: connect() falls back to initialize and negotiates 2025-11-25 with the SDK v1 server', async () => {
    const connection = await ours.mcp.connect();
    expect(connection).toMatchObject({ era: 'legacy', protocolVersion: '2025-11-25' });
    if (connection.era !== 'legacy') throw new Error('expected a 2025-era connection');
    expect(connection.initialize.serverInfo).toMatchObject(V1_SERVER_INFO);
    expect(connection.initialize.capabilities).toMatchObject({
      tools: {},
      tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
    });
  });

  it('lists tools and calls the plain one', async () => {
    const tools = await ours.mcp.listAllTools();
    expect(tools.map((tool) => tool.name)).toEqual(['add', 'deploy', 'delay']);
    expect(tools.find((tool) => tool.name === 'delay')).toMatchObject({ execution: { taskSupport: 'required' } });
    const result = await ours.mcp.callTool('add', { a: 2, b: 3 });
    expect(result.content).toEqual([{ type: 'text', text: '5' }]);
    expect(result.structuredContent).toEqual({ sum: 5 });
  });

  it('L-C11, L-C12: answers the server’s in-band elicitation/create with its elicitation handler', async () => {
    const result = await ours.mcp.callTool('deploy', { env: 'staging' });
    expect(result.content).toEqual([{ type: 'text', text: 'deployed to staging' }]);
    expect(ours.elicited).toEqual([expect.objectContaining({ message: 'Deploy to staging?' })]);
  });

  it('gets a prompt and reads a resource', async () => {
    const prompt = await ours.mcp.getPrompt('greet', { name: 'Ada' });
    expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Say hello to Ada.' } }]);
    const read = await ours.mcp.readResource(V1_README_URI);
    expect(read.contents).toEqual([{ uri: V1_README_URI, mimeType: 'text/plain', text: V1_README_TEXT }]);
  });

  it('L-C18, L-C19: a task-required tool runs as a task: tasks/get until completed, the outcome from tasks/result', async () => {
    const statuses: Task[] = [];
    const result = await ours.mcp.callTool('delay', { ms: 100 }, { onStatus: (task) => statuses.push(task as Task) });
    expect(result.content).toEqual([{ type: 'text', text: 'waited 100 ms' }]);
    expect(statuses[0]).toMatchObject({ status: 'working', taskId: expect.any(String) });
    expect(statuses.at(-1)).toMatchObject({ status: 'completed', taskId: statuses[0]?.taskId });
  });

  it('L-C20: aborting the call sends tasks/cancel; the SDK server marks the task cancelled', async () => {
    const aborter = new AbortController();
    let taskId: string | undefined;
    const call = ours.mcp.callTool(
      'delay',
      { ms: 600_000 },
      {
        signal: aborter.signal,
        onStatus: (task) => {
          taskId = task.taskId;
          aborter.abort(new Error('the user gave up'));
        },
      },
    );
    expect(await rejection(call)).toMatchObject({ message: 'the user gave up' });
    expect(taskId).toBeDefined();
    await vi.waitFor(async () =>
      expect(await ours.mcp.request('tasks/get', { taskId })).toMatchObject({ taskId, status: 'cancelled' }),
    );
  });
});

describe('our McpClient -> SDK v1 server (1.32.2) over Streamable HTTP: the session', () => {
  it('L-C7: requests use the session initialize opened; close() ends it with DELETE', async () => {
    const server = await startV1HttpServer();
    const mcp = new McpClient({ transport: new HttpClientTransport({ url: server.url }), clientInfo: CLIENT_INFO });
    try {
      expect(await mcp.callTool('add', { a: 1, b: 2 })).toMatchObject({ content: [{ type: 'text', text: '3' }] });
      await mcp.listAllTools();
      expect(server.sessionCount()).toBe(1);
      await mcp.close();
      await vi.waitFor(() => expect(server.sessionCount()).toBe(0));
    } finally {
      await mcp.close();
      await server.close();
    }
  });
});

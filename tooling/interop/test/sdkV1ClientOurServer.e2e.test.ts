// The official TypeScript SDK v1 client (@modelcontextprotocol/sdk 1.32.2), a 2025-era client, against our tool
// server over Streamable HTTP and stdio: the 2025-11-25 handshake, in-band server requests (elicitation, sampling),
// session logging, and the experimental tasks of 2025-11-25 through the SDK's own `experimental.tasks` API.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  type JSONRPCMessage,
  McpError,
  RELATED_TASK_META_KEY,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rejection } from './helpers/rejection.js';
import {
  type RecordingTransport,
  V1_ELICITED_TEXT,
  V1_SAMPLED_TEXT,
  V1_TARGETS,
  type V1Connection,
  type V1Target,
} from './helpers/sdkV1Client.js';

type StreamMessage = { type: string; task?: { taskId: string; status: string }; result?: unknown; error?: unknown };

/** Runs `callToolStream` to its end and returns every message it yielded. */
async function streamToEnd(client: Client, name: string, args: Record<string, unknown>): Promise<StreamMessage[]> {
  const messages: StreamMessage[] = [];
  for await (const message of client.experimental.tasks.callToolStream({ name, arguments: args })) {
    messages.push(message as StreamMessage);
  }
  return messages;
}

/** The response the client received to the last request it sent with `method`. */
function responseTo(wire: RecordingTransport, method: string): JSONRPCMessage | undefined {
  const request = [...wire.sent]
    .reverse()
    .find((message) => 'method' in message && message.method === method && 'id' in message);
  if (request === undefined || !('id' in request)) return undefined;
  return wire.received.find((message) => !('method' in message) && 'id' in message && message.id === request.id);
}

/** The result the client received to the last request it sent with `method`; throws if it got none. */
function resultOf(wire: RecordingTransport, method: string): Record<string, unknown> {
  const response = responseTo(wire, method);
  if (response === undefined || !('result' in response)) {
    throw new Error(`no result to ${method}: ${JSON.stringify(response)}`);
  }
  return response.result;
}

describe.each(V1_TARGETS)('SDK v1 client (1.32.2) -> our tool server over %s', (_name, startTarget) => {
  let target: V1Target;
  let v1: V1Connection;
  beforeAll(async () => {
    target = await startTarget('all');
    v1 = await target.connect();
  });
  afterAll(() => target?.close());

  it('L-S1, L-S2, L-S3, L-T1: initialize negotiates 2025-11-25 and declares tools, prompts, resources, logging and tasks', () => {
    expect(resultOf(v1.wire, 'initialize')).toMatchObject({ protocolVersion: '2025-11-25' });
    expect(v1.client.getServerVersion()).toMatchObject({ name: 'mcp-tasks-tool-server' });
    expect(v1.client.getServerCapabilities()).toMatchObject({
      tools: {},
      prompts: {},
      resources: {},
      logging: {},
      tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
    });
    expect(v1.client.getServerCapabilities()).not.toHaveProperty('extensions');
  });

  it('L-S36: tools/list carries execution.taskSupport; a plain call returns a 2025 result', async () => {
    const { tools } = await v1.client.listTools();
    const support = Object.fromEntries(tools.map((tool) => [tool.name, tool.execution?.taskSupport]));
    expect(support).toMatchObject({ greet: 'forbidden', slow_compute: 'optional', failing_job: 'required' });
    const result = await v1.client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
    expect(result).toEqual({ content: [{ type: 'text', text: 'Hello, Ada!' }] });
    expect(resultOf(v1.wire, 'tools/call')).not.toHaveProperty('resultType');
  });

  it('gets a prompt with arguments and reads a resource', async () => {
    const prompt = await v1.client.getPrompt({
      name: 'test_prompt_with_arguments',
      arguments: { arg1: 'first', arg2: 'second' },
    });
    expect(JSON.stringify(prompt.messages)).toMatch(/first[\s\S]*second/);
    const read = await v1.client.readResource({ uri: 'test://static-text' });
    expect(read.contents).toEqual([expect.objectContaining({ uri: 'test://static-text', mimeType: 'text/plain' })]);
    expect(JSON.stringify(read.contents)).toContain('static text resource');
  });

  it('L-S23, L-S26: test_elicitation asks the SDK client in-band; its answer reaches the tool', async () => {
    const result = await v1.client.callTool({ name: 'test_elicitation', arguments: { message: 'Who are you?' } });
    expect(v1.serverRequests).toContainEqual({
      method: 'elicitation/create',
      params: expect.objectContaining({ message: 'Who are you?' }),
    });
    expect(result.content).toEqual([
      {
        type: 'text',
        text: `User response: ${JSON.stringify({ action: 'accept', content: { username: V1_ELICITED_TEXT, email: V1_ELICITED_TEXT } })}`,
      },
    ]);
  });

  it('L-S24, L-S26: test_sampling asks the SDK client for a model answer in-band', async () => {
    const result = await v1.client.callTool({ name: 'test_sampling', arguments: { prompt: 'Say something' } });
    expect(v1.serverRequests).toContainEqual({
      method: 'sampling/createMessage',
      params: expect.objectContaining({
        messages: [{ role: 'user', content: { type: 'text', text: 'Say something' } }],
      }),
    });
    expect(result.content).toEqual([{ type: 'text', text: `LLM response: ${V1_SAMPLED_TEXT}` }]);
  });

  it('L-S28, L-S34: logging/setLevel returns {} and sets the session minimum for test_tool_with_logging', async () => {
    await v1.client.setLoggingLevel('debug');
    expect(resultOf(v1.wire, 'logging/setLevel')).toStrictEqual({});
    const before = v1.logs.length;
    await v1.client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    await vi.waitFor(() => expect(v1.logs.length - before).toBe(3));
    expect(v1.logs.slice(before).map((log) => log.data)).toEqual([
      'Tool execution started',
      'Tool processing data',
      'Tool execution completed',
    ]);
    await v1.client.setLoggingLevel('error');
    const quiet = v1.logs.length;
    await v1.client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    expect(v1.logs.length).toBe(quiet);
  });

  it('L-T4: an optional task tool called without a task runs synchronously', async () => {
    const result = await v1.client.callTool({ name: 'slow_compute', arguments: { seconds: 0 } });
    expect(result).toEqual({ content: [{ type: 'text', text: 'Computed result after 0s' }] });
  });

  it('L-T4: a task-required tool called without a task is refused with -32601', async () => {
    // `client.callTool` refuses this itself; a raw request shows what the server does.
    const error = await rejection(
      v1.client.request({ method: 'tools/call', params: { name: 'failing_job', arguments: {} } }, CallToolResultSchema),
    );
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: -32601 });
  });

  it('L-T5, L-T6, L-T7, L-T14, L-T15: callToolStream runs slow_compute as a task to its result', async () => {
    const messages = await streamToEnd(v1.client, 'slow_compute', { seconds: 0 });
    expect(messages[0]).toMatchObject({ type: 'taskCreated', task: { status: 'working' } });
    const taskId = messages[0]?.task?.taskId;
    expect(typeof taskId).toBe('string');
    expect(messages.at(-2)).toMatchObject({ type: 'taskStatus', task: { taskId, status: 'completed' } });
    expect(messages.at(-1)).toEqual({
      type: 'result',
      result: {
        _meta: { [RELATED_TASK_META_KEY]: { taskId } },
        content: [{ type: 'text', text: 'Computed result after 0s' }],
      },
    });
    const created = resultOf(v1.wire, 'tools/call');
    expect(created).toEqual({ task: expect.objectContaining({ taskId, ttl: expect.any(Number) }) });
    expect(created.task).toMatchObject({ createdAt: expect.any(String), lastUpdatedAt: expect.any(String) });
    expect(created.task).not.toHaveProperty('ttlMs');
  });

  it('L-T10, L-T15: a tool result with isError ends the task failed; tasks/result still returns that result', async () => {
    const messages = await streamToEnd(v1.client, 'failing_job', {});
    const taskId = messages[0]?.task?.taskId ?? '';
    expect(messages.at(-2)).toMatchObject({ type: 'taskStatus', task: { taskId, status: 'failed' } });
    expect(messages.at(-1)?.type).toBe('error');
    const result = await v1.client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    expect(result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'The job failed: input data is invalid' }],
    });
  });

  it('L-T11, L-T13, L-T20: input during a task is a related-task elicitation answered by the SDK client', async () => {
    const messages = await streamToEnd(v1.client, 'confirm_delete', { filename: 'notes.txt' });
    const taskId = messages[0]?.task?.taskId;
    expect(v1.serverRequests).toContainEqual({
      method: 'elicitation/create',
      params: expect.objectContaining({ message: 'Delete notes.txt?', _meta: { [RELATED_TASK_META_KEY]: { taskId } } }),
    });
    expect(messages.at(-1)).toMatchObject({
      type: 'result',
      result: { content: [{ type: 'text', text: 'deleted notes.txt' }] },
    });
  });

  it('L-T17, L-T22: tasks/cancel cancels a working task; it stays cancelled; cancelling again is -32602', async () => {
    const created = await v1.client.request(
      { method: 'tools/call', params: { name: 'slow_compute', arguments: { seconds: 600 } } },
      CreateTaskResultSchema,
      { task: { ttl: 60_000 } },
    );
    expect(created.task).toMatchObject({ status: 'working', ttl: 60_000 });
    const { taskId } = created.task;
    const cancelled = await v1.client.experimental.tasks.cancelTask(taskId);
    expect(cancelled).toMatchObject({ taskId, status: 'cancelled' });
    expect(await v1.client.experimental.tasks.getTask(taskId)).toMatchObject({ taskId, status: 'cancelled' });
    const again = await rejection(v1.client.experimental.tasks.cancelTask(taskId));
    expect(again).toMatchObject({ code: -32602 });
    const unknown = await rejection(v1.client.experimental.tasks.getTask('no-such-task'));
    expect(unknown).toMatchObject({ code: -32602 });
  });

  it("L-T16, L-T23: tasks/list lists this session's tasks and no other session's", async () => {
    const created = await v1.client.request(
      { method: 'tools/call', params: { name: 'slow_compute', arguments: { seconds: 0 } } },
      CreateTaskResultSchema,
      { task: {} },
    );
    const { tasks } = await v1.client.experimental.tasks.listTasks();
    expect(tasks.map((task) => task.taskId)).toContain(created.task.taskId);
    const other = await target.connect();
    const { tasks: others } = await other.client.experimental.tasks.listTasks();
    expect(others.map((task) => task.taskId)).not.toContain(created.task.taskId);
    expect(await rejection(other.client.experimental.tasks.getTask(created.task.taskId))).toMatchObject({
      code: -32602,
    });
  });
});

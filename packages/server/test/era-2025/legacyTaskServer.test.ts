// The 2025-11-25 experimental tasks through McpServer.handle: the legacy layer routes to the legacy task routes.
import { LegacyCreateTaskResultSchema, LegacyTaskSchema } from '@mcp-tasks/protocol';
import { describe, expect, it, vi } from 'vitest';
import { McpServer } from '../../src/index.js';
import { LegacyClient } from './legacyHarness.js';

function taskServer(): McpServer {
  return new McpServer({ serverInfo: { name: 'legacy-tasks', version: '1.0.0' } })
    .tool({ name: 'plain', description: 'Plain', handler: () => ({ content: [{ type: 'text', text: 'plain' }] }) })
    .tool({
      name: 'job',
      description: 'A task tool',
      taskSupport: 'optional',
      handler: () => ({ content: [{ type: 'text', text: 'job done' }] }),
    });
}

describe('2025-11-25 tasks through McpServer', () => {
  it('L-T1, L-S36: initialize advertises tasks and tools/list shows execution.taskSupport', async () => {
    const client = new LegacyClient(taskServer());
    const init = await client.connect();
    expect(init.capabilities).toMatchObject({ tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } });
    const { tools } = (await client.ok('tools/list')) as { tools: { name: string; execution?: unknown }[] };
    expect(tools.map((tool) => [tool.name, tool.execution])).toEqual([
      ['plain', { taskSupport: 'forbidden' }],
      ['job', { taskSupport: 'optional' }],
    ]);
  });

  it('L-S36: a 2025-06-18 session lists tools without execution and has no tasks capability', async () => {
    const client = new LegacyClient(taskServer());
    const init = await client.connect({ version: '2025-06-18' });
    expect(init.capabilities).not.toHaveProperty('tasks');
    const { tools } = (await client.ok('tools/list')) as { tools: Record<string, unknown>[] };
    for (const tool of tools) expect(tool).not.toHaveProperty('execution');
  });

  it('L-T6, L-T14, L-T15: a task-augmented call answers { task }, then tasks/get and tasks/result end it', async () => {
    const client = new LegacyClient(taskServer());
    await client.connect();
    const created = LegacyCreateTaskResultSchema.parse(
      await client.ok('tools/call', { name: 'job', arguments: {}, task: { ttl: 60_000 } }),
    );
    const { taskId } = created.task;
    await vi.waitFor(async () => {
      expect(LegacyTaskSchema.parse(await client.ok('tasks/get', { taskId })).status).toBe('completed');
    });
    const result = await client.ok('tasks/result', { taskId });
    expect(result).toMatchObject({
      content: [{ type: 'text', text: 'job done' }],
      _meta: { 'io.modelcontextprotocol/related-task': { taskId } },
    });
    expect(((await client.ok('tasks/list')) as { tasks: { taskId: string }[] }).tasks.map((t) => t.taskId)).toEqual([
      taskId,
    ]);
  });

  it('L-S30: a tasks/result its client cancelled is not reported as a server fault', async () => {
    const errors: unknown[] = [];
    let release = (): void => undefined;
    const server = new McpServer({
      serverInfo: { name: 'legacy-tasks', version: '1.0.0' },
      onError: (error) => errors.push(error),
    }).tool({
      name: 'long',
      description: 'Runs until released',
      taskSupport: 'optional',
      handler: async () => {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return { content: [{ type: 'text', text: 'long done' }] };
      },
    });
    const client = new LegacyClient(server);
    await client.connect();
    const { task } = LegacyCreateTaskResultSchema.parse(
      await client.ok('tools/call', { name: 'long', arguments: {}, task: {} }),
    );
    const controller = new AbortController();
    const waiting = client.send('tasks/result', { taskId: task.taskId }, { signal: controller.signal });
    controller.abort(new Error('This operation was aborted'));
    await waiting;
    expect(errors).toEqual([]);
    release();
    await vi.waitFor(async () => {
      expect(LegacyTaskSchema.parse(await client.ok('tasks/get', { taskId: task.taskId })).status).toBe('completed');
    });
    await server.close();
  });

  it('L-T23: another unauthenticated session sees none of the tasks', async () => {
    const server = taskServer();
    const owner = new LegacyClient(server);
    await owner.connect();
    const { task } = LegacyCreateTaskResultSchema.parse(
      await owner.ok('tools/call', { name: 'job', arguments: {}, task: {} }),
    );
    const stranger = new LegacyClient(server);
    await stranger.connect();
    expect((await stranger.fail('tasks/get', { taskId: task.taskId })).code).toBe(-32602);
    expect(await stranger.ok('tasks/list')).toEqual({ tasks: [] });
  });
});

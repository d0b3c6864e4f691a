/** `tasks/update` is all-or-nothing and no input reaches a deep recursion (a client fault is never -32603). */
import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '../src/index.js';
import { expectCreateTask, Loopback } from './harness.js';

const servers: McpServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close({ graceMs: 50 });
});

const ASK = { message: 'Name?', requestedSchema: { type: 'object' as const, properties: {} } };

function setup() {
  const server = new McpServer({ serverInfo: { name: 'atomic', version: '1' }, onError: () => undefined });
  servers.push(server);
  server.tool({
    name: 'two_questions',
    description: 'Asks two questions at once',
    taskSupport: 'required',
    handler: async (_args, ctx) => {
      const answers = await Promise.all([ctx.elicit(ASK), ctx.elicit(ASK)]);
      return { content: [{ type: 'text', text: answers.map((a) => a.action).join(',') }] };
    },
  });
  return new Loopback(server);
}

async function twoKeys(client: Loopback) {
  const taskId = expectCreateTask(await client.call('two_questions'));
  const task = await client.waitForTask(taskId, (t) => Object.keys((t.inputRequests as object) ?? {}).length === 2);
  return { taskId, keys: Object.keys(task.inputRequests as object).sort() as [string, string] };
}

function nested(depth: number): unknown {
  let value: unknown = {};
  for (let i = 0; i < depth; i++) value = { inner: value };
  return value;
}

describe('tasks/update atomicity', () => {
  it('delivers nothing of an update whose later answer is malformed (-32602 naming it)', async () => {
    const client = setup();
    const { taskId, keys } = await twoKeys(client);
    const error = await client.fail('tasks/update', {
      taskId,
      inputResponses: { [keys[0]]: { action: 'accept' }, [keys[1]]: { action: 'maybe' } },
    });
    expect(error.code).toBe(-32602);
    expect(error.message).toContain(keys[1]);
    const task = await client.ok('tasks/get', { taskId });
    expect(Object.keys(task.inputRequests as object).sort()).toEqual(keys);
  });

  it('accepts an answer carrying a 100,000-deep extra field without a stack overflow', async () => {
    const client = setup();
    const { taskId, keys } = await twoKeys(client);
    const deep = { action: 'decline', extra: nested(100_000) };
    await client.ok('tasks/update', { taskId, inputResponses: { [keys[0]]: { action: 'accept' }, [keys[1]]: deep } });
    const task = await client.waitForTerminal(taskId);
    expect(task.result).toMatchObject({ content: [{ text: 'accept,decline' }] });
  });
});

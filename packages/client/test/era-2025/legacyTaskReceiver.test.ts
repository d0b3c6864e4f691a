import { RELATED_TASK_META_KEY, type TransportResponse } from '@mcp-tasks/protocol';
import { describe, expect, it } from 'vitest';
import { type InputHandlers, McpClient, type McpClientOptions } from '../../src/index.js';
import { type FakeTransport, textResult, until } from '../fakeTransport.js';
import { legacyTransport } from './legacyServer.js';

const clientInfo = { name: 'test-client', version: '1.0.0' };
const form = {
  message: 'Name?',
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
  task: { ttl: 60_000 },
};
const sampling = {
  messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
  maxTokens: 5,
  task: {},
};

async function connected(handlers: InputHandlers, options: Partial<McpClientOptions> = {}): Promise<FakeTransport> {
  const transport = legacyTransport({ handle: () => textResult('ok') });
  await new McpClient({ transport, clientInfo, handlers, ...options }).connect();
  return transport;
}

/** A handler whose answer the test releases. */
function gate<T>() {
  let release: (value: T) => void = () => undefined;
  let fail: (error: Error) => void = () => undefined;
  const promise = new Promise<T>((resolve, reject) => {
    release = resolve;
    fail = reject;
  });
  return { promise, release: (value: T) => release(value), fail: (error: Error) => fail(error) };
}

const resultOf = (response: TransportResponse) => ('result' in response ? response.result : undefined);

describe('the client as task receiver (L-T24, L-C22)', () => {
  it('L-T24, L-T6, L-T7: a task-augmented elicitation answers {task} at once; tasks/get, tasks/result follow it', async () => {
    const answer = gate<{ action: 'accept'; content: { name: string } }>();
    let asked = 0;
    const transport = await connected({
      elicitation: () => {
        asked++;
        return answer.promise;
      },
    });
    const created = resultOf(await transport.serverRequest('elicitation/create', form, 1));
    expect(created).toMatchObject({ task: { status: 'working', ttl: 60_000 } });
    const taskId = (created as { task: { taskId: string } }).task.taskId;
    expect(taskId).toMatch(/^[0-9a-f-]{36}$/);
    await until(() => asked === 1, 'the handler');
    await expect(transport.serverRequest('tasks/get', { taskId }, 2)).resolves.toMatchObject({
      result: { taskId, status: 'working' },
    });
    const result = transport.serverRequest('tasks/result', { taskId }, 3);
    answer.release({ action: 'accept', content: { name: 'Ada' } });
    await expect(result).resolves.toMatchObject({
      result: { action: 'accept', content: { name: 'Ada' }, _meta: { [RELATED_TASK_META_KEY]: { taskId } } },
    });
    await expect(transport.serverRequest('tasks/get', { taskId }, 4)).resolves.toMatchObject({
      result: { status: 'completed' },
    });
    await expect(transport.serverRequest('tasks/list', {}, 5)).resolves.toMatchObject({
      result: { tasks: [{ taskId, status: 'completed' }] },
    });
  });

  it('L-T17: tasks/cancel cancels a working task (the handler sees the abort); a terminal one gets -32602', async () => {
    let aborted = false;
    const transport = await connected({
      elicitation: (_p, { signal }) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => {
            aborted = true;
            reject(signal.reason);
          });
        }),
    });
    const created = resultOf(await transport.serverRequest('elicitation/create', form, 1));
    const taskId = (created as { task: { taskId: string } }).task.taskId;
    await expect(transport.serverRequest('tasks/cancel', { taskId }, 2)).resolves.toMatchObject({
      result: { taskId, status: 'cancelled' },
    });
    await until(() => aborted, 'the abort');
    await expect(transport.serverRequest('tasks/cancel', { taskId }, 3)).resolves.toMatchObject({
      error: { code: -32602 },
    });
    await expect(transport.serverRequest('tasks/get', { taskId }, 4)).resolves.toMatchObject({
      result: { status: 'cancelled' },
    });
  });

  it('L-T10: a failing sampling handler makes a failed task; tasks/result is the error', async () => {
    const answer = gate<never>();
    const transport = await connected({ sampling: () => answer.promise });
    const created = resultOf(await transport.serverRequest('sampling/createMessage', sampling, 1));
    const taskId = (created as { task: { taskId: string } }).task.taskId;
    answer.fail(new Error('no model'));
    await expect(transport.serverRequest('tasks/result', { taskId }, 2)).resolves.toMatchObject({
      error: { code: -32603 },
    });
    await expect(transport.serverRequest('tasks/get', { taskId }, 3)).resolves.toMatchObject({
      result: { status: 'failed' },
    });
  });

  it('L-T22: unknown task ids get -32602', async () => {
    const transport = await connected({ elicitation: () => ({ action: 'decline' }) });
    for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel'])
      await expect(transport.serverRequest(method, { taskId: 'nope' })).resolves.toMatchObject({
        error: { code: -32602 },
      });
  });

  it('L-C22, L-T3: with tasks undeclared, params.task is ignored and tasks/* are -32601', async () => {
    const transport = await connected({ elicitation: () => ({ action: 'decline' }) }, { tasks: false });
    await expect(transport.serverRequest('elicitation/create', form, 1)).resolves.toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { action: 'decline' },
    });
    await expect(transport.serverRequest('tasks/list', {}, 2)).resolves.toMatchObject({ error: { code: -32601 } });
  });

  it('L-T21: a task past its ttl is gone', async () => {
    let now = 0;
    const clock = { now: () => now, sleep: async () => undefined };
    const transport = await connected({ elicitation: () => ({ action: 'decline' }) }, { clock });
    const created = resultOf(await transport.serverRequest('elicitation/create', { ...form, task: { ttl: 1000 } }, 1));
    const taskId = (created as { task: { taskId: string } }).task.taskId;
    await expect(transport.serverRequest('tasks/get', { taskId }, 2)).resolves.toHaveProperty('result');
    now = 1000;
    await expect(transport.serverRequest('tasks/get', { taskId }, 3)).resolves.toMatchObject({
      error: { code: -32602 },
    });
  });
});

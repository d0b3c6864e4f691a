import { afterEach, describe, expect, it } from 'vitest';
import type { McpServer } from '../src/index.js';
import { fixtureServer } from './fixture.js';
import { EXT_CAPS, expectCreateTask, Loopback, TASKS_ONLY } from './harness.js';

let server: McpServer;
afterEach(async () => server?.close());

function setup(options: Parameters<typeof fixtureServer>[0] = {}) {
  server = fixtureServer(options);
  return new Loopback(server, { caps: EXT_CAPS });
}

const isInputRequired = (task: Record<string, unknown>) => task.status === 'input_required';
const keysOf = (task: Record<string, unknown>) => Object.keys(task.inputRequests as object);

describe('input inside a task', () => {
  it('S14/S21/S23: input_required shows every outstanding request, repeated on each poll', async () => {
    const client = setup();
    const taskId = expectCreateTask(await client.call('confirm_delete', { filename: 'a.txt' }));
    const first = await client.waitForTask(taskId, isInputRequired);
    const again = await client.ok('tasks/get', { taskId });
    expect(again.inputRequests).toEqual(first.inputRequests);
    const [request] = Object.values(first.inputRequests as Record<string, { method: string }>);
    expect(request?.method).toBe('elicitation/create');
    expect(first).not.toHaveProperty('result');
  });

  it('S24: tasks/update delivers the answer, acks with {resultType} only, and the task completes', async () => {
    const client = setup();
    const taskId = expectCreateTask(await client.call('confirm_delete', { filename: 'b.txt' }));
    const [key] = keysOf(await client.waitForTask(taskId, isInputRequired));
    const ack = await client.ok('tasks/update', {
      taskId,
      inputResponses: { [key as string]: { action: 'accept', content: { confirm: true } } },
    });
    expect(Object.keys(ack).sort()).toEqual(['_meta', 'resultType']);
    expect(await client.waitForTerminal(taskId)).toMatchObject({
      status: 'completed',
      result: { content: [{ text: 'deleted b.txt' }] },
    });
  });

  it('S26: unknown keys, even with garbage values, are ignored and acked', async () => {
    const client = setup();
    const taskId = expectCreateTask(await client.call('confirm_delete', { filename: 'rt.txt' }));
    await client.waitForTask(taskId, isInputRequired);
    const ack = await client.ok('tasks/update', {
      taskId,
      inputResponses: { 'unknown-key': { ignored: true }, other: 7 },
    });
    expect(ack.resultType).toBe('complete');
    expect((await client.ok('tasks/get', { taskId })).status).toBe('input_required');
  });

  it('rejects a non-object inputResponses or a non-object answer for an outstanding key with -32602', async () => {
    const client = setup();
    const taskId = expectCreateTask(await client.call('confirm_delete', { filename: 'c.txt' }));
    const [key] = keysOf(await client.waitForTask(taskId, isInputRequired));
    expect((await client.fail('tasks/update', { taskId, inputResponses: null })).code).toBe(-32602);
    expect((await client.fail('tasks/update', { taskId, inputResponses: { [key as string]: 'yes' } })).code).toBe(
      -32602,
    );
  });

  it('S24/S26/S46: an answer that does not fit its request is -32602 naming the key, and nothing of that update is delivered', async () => {
    const client = setup();
    const taskId = expectCreateTask(await client.call('multi_input'));
    const task = await client.waitForTask(taskId, (t) => isInputRequired(t) && keysOf(t).length === 2);
    const [first, second] = keysOf(task) as [string, string];
    const error = await client.fail('tasks/update', {
      taskId,
      inputResponses: {
        [first]: { action: 'accept', content: { name: 'ok' } },
        [second]: { action: 'maybe' },
        'unknown-key': { ignored: true },
      },
    });
    expect(error.code).toBe(-32602);
    expect(error.message).toContain(`inputResponses["${second}"]`);
    expect(keysOf(await client.ok('tasks/get', { taskId }))).toEqual([first, second]);
  });

  it('S26: keys that are not outstanding are never checked, even for an input_required task', async () => {
    const client = setup();
    const taskId = expectCreateTask(await client.call('confirm_delete', { filename: 'u.txt' }));
    await client.waitForTask(taskId, isInputRequired);
    expect(
      (await client.ok('tasks/update', { taskId, inputResponses: { stale: { action: 'maybe' } } })).resultType,
    ).toBe('complete');
  });

  it('decision 7: tasks/update on a terminal task acks and changes nothing', async () => {
    const client = setup();
    const taskId = expectCreateTask(await client.call('confirm_delete', { filename: 't.txt' }));
    const [key] = keysOf(await client.waitForTask(taskId, isInputRequired)) as [string];
    await client.ok('tasks/cancel', { taskId });
    const before = await client.ok('tasks/get', { taskId });
    const ack = await client.ok('tasks/update', {
      taskId,
      inputResponses: { [key]: { action: 'accept', content: { confirm: true } } },
    });
    expect(Object.keys(ack).sort()).toEqual(['_meta', 'resultType']);
    expect(await client.ok('tasks/get', { taskId })).toEqual(before);
  });

  it('S25: tasks/update on an unknown task is -32602', async () => {
    const client = setup();
    expect((await client.fail('tasks/update', { taskId: 'nope', inputResponses: {} })).code).toBe(-32602);
  });

  it('S27/S20: a partial update keeps input_required with the rest; keys are distinct and never reused', async () => {
    const client = setup();
    const taskId = expectCreateTask(await client.call('multi_input'));
    const task = await client.waitForTask(taskId, (t) => isInputRequired(t) && keysOf(t).length === 2);
    const [first, second] = keysOf(task) as [string, string];
    expect(first).not.toBe(second);
    await client.ok('tasks/update', {
      taskId,
      inputResponses: { [first]: { action: 'accept', content: { name: 'partial-1' } } },
    });
    const after = await client.ok('tasks/get', { taskId });
    expect(after.status).toBe('input_required');
    expect(keysOf(after)).toEqual([second]);
    await client.ok('tasks/update', {
      taskId,
      inputResponses: { [first]: { action: 'accept', content: { name: 'again' } } },
    });
    await client.ok('tasks/update', {
      taskId,
      inputResponses: { [second]: { action: 'accept', content: { name: 'partial-2' } } },
    });
    const done = await client.waitForTerminal(taskId);
    expect(done.status).toBe('completed');
    const text = (done.result as { content: [{ text: string }] }).content[0].text;
    expect(text).toContain('partial-1');
    expect(text).toContain('partial-2');
    expect(text).not.toContain('again');
  });

  it('two tasks/update with the same key: the first answer wins, both ack', async () => {
    const client = setup();
    const taskId = expectCreateTask(await client.call('confirm_delete', { filename: 'd.txt' }));
    const [key] = keysOf(await client.waitForTask(taskId, isInputRequired)) as [string];
    const [a, b] = await Promise.all([
      client.ok('tasks/update', {
        taskId,
        inputResponses: { [key]: { action: 'accept', content: { confirm: true } } },
      }),
      client.ok('tasks/update', { taskId, inputResponses: { [key]: { action: 'decline' } } }),
    ]);
    expect([a.resultType, b.resultType]).toEqual(['complete', 'complete']);
    expect(await client.waitForTerminal(taskId)).toMatchObject({ result: { content: [{ text: 'deleted d.txt' }] } });
  });

  it('cancel while input is being answered: the task ends cancelled and the late answer is ignored', async () => {
    const client = setup();
    const taskId = expectCreateTask(await client.call('confirm_delete', { filename: 'e.txt' }));
    const [key] = keysOf(await client.waitForTask(taskId, isInputRequired)) as [string];
    const [cancelAck, updateAck] = await Promise.all([
      client.ok('tasks/cancel', { taskId }),
      client.ok('tasks/update', {
        taskId,
        inputResponses: { [key]: { action: 'accept', content: { confirm: true } } },
      }),
    ]);
    expect(cancelAck.resultType).toBe('complete');
    expect(updateAck.resultType).toBe('complete');
    const final = await client.waitForTerminal(taskId);
    expect(['cancelled', 'completed']).toContain(final.status);
  });

  it('sampling, roots and setStatus work inside a task', async () => {
    const client = setup();
    const taskId = expectCreateTask(await client.call('sample_in_task'));
    const first = await client.waitForTask(taskId, isInputRequired);
    expect(first.statusMessage).toBe('sampling');
    const [sampleKey] = keysOf(first) as [string];
    await client.ok('tasks/update', {
      taskId,
      inputResponses: { [sampleKey]: { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'm' } },
    });
    const second = await client.waitForTask(taskId, (t) => isInputRequired(t) && !keysOf(t).includes(sampleKey));
    const [rootsKey] = keysOf(second) as [string];
    expect((second.inputRequests as Record<string, { method: string }>)[rootsKey]?.method).toBe('roots/list');
    await client.ok('tasks/update', { taskId, inputResponses: { [rootsKey]: { roots: [{ uri: 'file:///r' }] } } });
    const done = await client.waitForTerminal(taskId);
    expect(JSON.stringify(done.result)).toContain('Paris');
  });

  it('decision 4/S22: an undeclared input kind fails inside the tool instead of parking', async () => {
    const client = setup();
    const taskId = expectCreateTask(await client.call('confirm_delete', { filename: 'f.txt' }, { caps: TASKS_ONLY }));
    const task = await client.waitForTerminal(taskId);
    expect(task).toMatchObject({
      status: 'failed',
      error: { code: -32021, data: { requiredCapabilities: { elicitation: {} } } },
    });
  });

  it('limits outstanding input requests per task', async () => {
    const client = setup({ tasks: { maxInputRequestsPerTask: 1 } });
    const taskId = expectCreateTask(await client.call('multi_input'));
    const task = await client.waitForTerminal(taskId);
    expect(task).toMatchObject({ status: 'completed', result: { isError: true } });
    expect(JSON.stringify(task.result)).toMatch(/Too many outstanding input requests/);
  });
});

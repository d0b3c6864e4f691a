import { encodeMessage, META, TASKS_EXTENSION_ID } from '@mcp-tasks/protocol';
import { InMemoryTaskStore } from '@mcp-tasks/task-store';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpServer } from '../src/index.js';
import { TASK_LIMIT_ERROR_CODE } from '../src/index.js';
import { fixtureServer, type Hooks } from './fixture.js';
import { BASE_CAPS, deferred, EXT_CAPS, expectCreateTask, Loopback } from './harness.js';

let server: McpServer;
afterEach(async () => server?.close());

function setup(options: Parameters<typeof fixtureServer>[0] = {}) {
  const gate = deferred();
  const hooks: Hooks = { gate: gate.promise, lateResults: 0 };
  server = fixtureServer(options, hooks);
  return { client: new Loopback(server, { caps: EXT_CAPS }), open: gate.resolve, hooks };
}

const REQUIRED = { requiredCapabilities: { extensions: { [TASKS_EXTENSION_ID]: {} } } };

describe('task creation', () => {
  it('S4/S7: a forbidden tool answers synchronously even for a declaring client', async () => {
    const { client } = setup();
    const result = await client.call('greet', { name: 'World' });
    expect(result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'Hello, World!' }] });
    expect(result).not.toHaveProperty('taskId');
  });

  it('S4/S7: for a declaring client every other method answers complete, never a task', async () => {
    const { client } = setup();
    for (const method of ['server/discover', 'tools/list', 'prompts/list', 'resources/list']) {
      const result = await client.ok(method);
      expect(result.resultType).toBe('complete');
      expect(result).not.toHaveProperty('taskId');
    }
  });

  it('S6/S8/S9: CreateTaskResult is flat, resultType task, and tasks/get resolves right away', async () => {
    const { client } = setup();
    const created = await client.call('slow_compute', { seconds: 60, label: 'x' });
    const taskId = expectCreateTask(created);
    expect(created).toMatchObject({ status: 'working', ttlMs: 3_600_000, pollIntervalMs: 200 });
    expect(created).not.toHaveProperty('ttl');
    expect(created).not.toHaveProperty('pollInterval');
    const got = await client.ok('tasks/get', { taskId });
    expect(got).toMatchObject({ resultType: 'complete', taskId, status: 'working' });
  });

  it('S8/S13/S45: tasks/get of a working task is exactly the flat task, resultType and serverInfo _meta', async () => {
    const { client } = setup();
    const taskId = expectCreateTask(await client.call('slow_compute', { seconds: 60 }));
    for (let poll = 0; poll < 2; poll++) {
      expect(await client.ok('tasks/get', { taskId })).toEqual({
        resultType: 'complete',
        taskId,
        status: 'working',
        createdAt: expect.any(String),
        lastUpdatedAt: expect.any(String),
        ttlMs: 3_600_000,
        pollIntervalMs: 200,
        _meta: { [META.serverInfo]: { name: 'fixture', version: '1.0.0' } },
      });
    }
  });

  it('S11: task ids are long random strings, unique per task', async () => {
    const { client } = setup();
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) ids.add(expectCreateTask(await client.call('slow_compute', { seconds: 60 })));
    expect(ids.size).toBe(5);
    for (const id of ids) expect(id.length).toBeGreaterThanOrEqual(22);
  });

  it('S3/S41: an optional tool runs synchronously without the extension, also with only a legacy tasks capability', async () => {
    const { client } = setup();
    for (const caps of [{}, { tasks: { requests: { tools: { call: {} } } } }]) {
      const result = await client.call('slow_compute', { seconds: 0 }, { caps });
      expect(result).toMatchObject({ resultType: 'complete', content: [{ type: 'text' }] });
      expect(result).not.toHaveProperty('taskId');
    }
  });

  it('S3: the per-request _meta opt-in creates a task', async () => {
    const { client } = setup();
    expectCreateTask(
      await client.call('slow_compute', { seconds: 60 }, { caps: { extensions: { [TASKS_EXTENSION_ID]: {} } } }),
    );
  });

  it('S5: a required tool without the extension is -32021 with requiredCapabilities', async () => {
    const { client } = setup();
    const error = await client.fail('tools/call', { name: 'failing_job', arguments: {} }, { caps: BASE_CAPS });
    expect(error.code).toBe(-32021);
    expect(error.data).toEqual(REQUIRED);
  });

  it('S39: a legacy task param neither enables nor changes task creation', async () => {
    const { client } = setup();
    const sync = await client.ok('tools/call', {
      name: 'greet',
      arguments: { name: 'legacy-hint' },
      task: { ttl: 60000 },
    });
    expect(sync.resultType).toBe('complete');
    const noExt = await client.ok(
      'tools/call',
      { name: 'slow_compute', arguments: { seconds: 0 }, task: { ttl: 1 } },
      { caps: BASE_CAPS },
    );
    expect(noExt.resultType).toBe('complete');
  });

  it('reports invalid arguments of a task tool as a tool error, not a task', async () => {
    const { client } = setup();
    const result = await client.call('slow_compute', { seconds: 'soon' });
    expect(result).toMatchObject({ resultType: 'complete', isError: true });
  });

  it('answers directly when the tool finishes within immediateResultMs', async () => {
    const { client } = setup({ tasks: { immediateResultMs: 1000 } });
    const result = await client.call('slow_compute', { seconds: 0 });
    expect(result).toMatchObject({ resultType: 'complete', content: [{ text: 'computed ' }] });
  });

  it('creates the task when an immediate-result tool touches its task context', async () => {
    const { client, open } = setup({ tasks: { immediateResultMs: 1000 } });
    open();
    const created = await client.call('gated');
    const taskId = expectCreateTask(created);
    expect((await client.waitForTerminal(taskId)).status).toBe('completed');
  });

  it('creates the task when the grace period runs out', async () => {
    const { client } = setup({ tasks: { immediateResultMs: 5 } });
    expectCreateTask(await client.call('slow_compute', { seconds: 60 }));
  });

  it('refuses new tasks beyond the store limit with a clear error', async () => {
    const { client } = setup({ store: new InMemoryTaskStore({ maxTasksPerOwner: 1 }) });
    expectCreateTask(await client.call('slow_compute', { seconds: 60 }));
    const error = await client.fail('tools/call', { name: 'slow_compute', arguments: { seconds: 60 } });
    expect(error.message).toMatch(/Too many live tasks/);
    // A client fault to back off from (HTTP 429 with Retry-After), never the internal error that invites retries.
    expect(error).toMatchObject({ code: TASK_LIMIT_ERROR_CODE, data: { retryAfterSeconds: 1 } });
    expect(error.code).not.toBe(-32603);
  });

  // 10,000 calls: about 15 s on a loaded 2-core machine alone, more beside the monorepo's other suites.
  it('bounds each principal to 10,000 tasks in the default store, and tasks.maxTasksPerPrincipal sets it', {
    timeout: 120_000,
  }, async () => {
    const { client } = setup();
    for (let i = 0; i < 10_000; i++) expectCreateTask(await client.call('slow_compute', { seconds: 60 }));
    const error = await client.fail('tools/call', { name: 'slow_compute', arguments: { seconds: 60 } });
    expect(error).toMatchObject({ code: TASK_LIMIT_ERROR_CODE });
    await server.close({ graceMs: 1000 });

    const small = setup({ tasks: { maxTasksPerPrincipal: 2 } }).client;
    expectCreateTask(await small.call('slow_compute', { seconds: 60 }));
    expectCreateTask(await small.call('slow_compute', { seconds: 60 }));
    expect(await small.fail('tools/call', { name: 'slow_compute', arguments: { seconds: 60 } })).toMatchObject({
      code: TASK_LIMIT_ERROR_CODE,
    });
  });
});

describe('tasks/get of an unchanged task', () => {
  it('answers every poll with one frozen result, written as JSON.stringify would, and anew once the task changes', async () => {
    const serverInfo = { name: 'fixture', version: '1.0.0' };
    const { client } = setup({ serverInfo });
    const taskId = expectCreateTask(await client.call('slow_compute', { seconds: 60 }));
    const first = await client.send('tasks/get', { taskId });
    const second = await client.send('tasks/get', { taskId });
    if (!('result' in first.response) || !('result' in second.response)) throw new Error('expected results');
    expect(second.response.result).toBe(first.response.result);
    expect(Object.isFrozen(first.response.result)).toBe(true);
    expect(encodeMessage(second.response)).toBe(JSON.stringify(second.response));
    // The server copied serverInfo when it was made: later changes to the caller's object show nowhere.
    serverInfo.name = 'changed';
    await client.ok('tasks/cancel', { taskId });
    const after = await client.ok('tasks/get', { taskId });
    expect(after).not.toBe(first.response.result);
    expect(after).toMatchObject({ status: 'cancelled', _meta: { [META.serverInfo]: { name: 'fixture' } } });
  });
});

describe('tasks/get outcomes', () => {
  it('S13/S15: completed carries the result exactly as tools/call would return it', async () => {
    const { client } = setup();
    const taskId = expectCreateTask(await client.call('slow_compute', { seconds: 0, label: 'L' }));
    const task = await client.waitForTerminal(taskId);
    expect(task).toMatchObject({
      resultType: 'complete',
      status: 'completed',
      result: { resultType: 'complete', content: [{ type: 'text', text: 'computed L' }] },
    });
    expect(task).not.toHaveProperty('error');
    expect(task).not.toHaveProperty('inputRequests');
    expect(task.result).not.toHaveProperty(['_meta', 'io.modelcontextprotocol/related-task']);
  });

  it('S17/decision 11: an isError result ends completed, not failed', async () => {
    const { client } = setup();
    const taskId = expectCreateTask(await client.call('error_result_job'));
    expect(await client.waitForTerminal(taskId)).toMatchObject({ status: 'completed', result: { isError: true } });
  });

  it('decision 11: an ordinary exception ends completed with an isError result', async () => {
    const { client } = setup();
    const taskId = expectCreateTask(await client.call('failing_job'));
    const task = await client.waitForTerminal(taskId);
    expect(task).toMatchObject({
      status: 'completed',
      result: { resultType: 'complete', isError: true, content: [{ type: 'text', text: 'the job failed' }] },
    });
  });

  it('S16: a thrown ProtocolError ends failed with that error and a statusMessage, no result', async () => {
    const { client } = setup();
    const taskId = expectCreateTask(await client.call('protocol_error_job'));
    const task = await client.waitForTerminal(taskId);
    expect(task).toMatchObject({
      status: 'failed',
      error: { code: -32603, message: 'backend unavailable', data: { retry: false } },
      statusMessage: 'backend unavailable',
    });
    expect(task).not.toHaveProperty('result');
  });

  it('S18: unknown task id is -32602', async () => {
    const { client } = setup();
    const error = await client.fail('tasks/get', { taskId: 'tasks-conformance-nonexistent-12345' });
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(/not found or expired/);
  });

  it('S19: tasks/get, update and cancel without the extension are -32021 before any lookup', async () => {
    const { client } = setup();
    for (const [method, params] of [
      ['tasks/get', { taskId: 'gate-test' }],
      ['tasks/update', { taskId: 'gate-test', inputResponses: {} }],
      ['tasks/cancel', { taskId: 'gate-test' }],
    ] as const) {
      const error = await client.fail(method, params, { caps: {} });
      expect(error).toMatchObject({ code: -32021, data: REQUIRED });
    }
  });

  it('rejects a missing or non-string taskId with -32602', async () => {
    const { client } = setup();
    expect((await client.fail('tasks/get', {})).code).toBe(-32602);
    expect((await client.fail('tasks/cancel', { taskId: 5 })).code).toBe(-32602);
  });

  it('S12: another principal cannot see, update or cancel the task', async () => {
    const { client } = setup();
    const taskId = expectCreateTask(await client.call('slow_compute', { seconds: 60 }));
    const mallory = new Loopback(server, { caps: EXT_CAPS, principal: 'mallory' });
    expect((await mallory.fail('tasks/get', { taskId })).code).toBe(-32602);
    expect((await mallory.fail('tasks/update', { taskId, inputResponses: {} })).code).toBe(-32602);
    expect((await mallory.fail('tasks/cancel', { taskId })).code).toBe(-32602);
    expect((await client.ok('tasks/get', { taskId })).status).toBe('working');
  });

  it('S12: the anonymous owner and a named principal are distinct', async () => {
    const { client } = setup();
    const alice = new Loopback(server, { caps: EXT_CAPS, principal: 'alice' });
    const taskId = expectCreateTask(await alice.call('slow_compute', { seconds: 60 }));
    expect((await client.fail('tasks/get', { taskId })).code).toBe(-32602);
    expect((await alice.ok('tasks/get', { taskId })).status).toBe('working');
  });
});

describe('tasks/cancel', () => {
  it('S28/S30: acks with exactly {resultType}, aborts the tool and ends cancelled', async () => {
    const { client } = setup();
    const taskId = expectCreateTask(await client.call('slow_compute', { seconds: 60 }));
    const ack = await client.ok('tasks/cancel', { taskId });
    expect(Object.keys(ack).sort()).toEqual(['_meta', 'resultType']);
    expect(ack.resultType).toBe('complete');
    expect((await client.ok('tasks/get', { taskId })).status).toBe('cancelled');
  });

  it('decision 7: cancelling a terminal task acks and leaves it unchanged', async () => {
    const { client } = setup();
    const taskId = expectCreateTask(await client.call('slow_compute', { seconds: 0 }));
    await client.waitForTerminal(taskId);
    expect((await client.ok('tasks/cancel', { taskId })).resultType).toBe('complete');
    expect((await client.ok('tasks/get', { taskId })).status).toBe('completed');
  });

  it('S29: unknown task id is -32602', async () => {
    const { client } = setup();
    expect((await client.fail('tasks/cancel', { taskId: 'nope' })).code).toBe(-32602);
  });

  it('a tool that ignores its signal still reads cancelled, and its late result is dropped', async () => {
    const store = new InMemoryTaskStore();
    const { client, open, hooks } = setup({ store });
    const taskId = expectCreateTask(await client.call('ignores_signal'));
    await client.ok('tasks/cancel', { taskId });
    open();
    await server.close();
    expect(hooks.lateResults).toBe(1);
    expect(await store.get('\u0000anonymous', taskId)).toMatchObject({ status: 'cancelled' });
    await store.close();
  });

  it('cancel racing completion: the first terminal write wins and both calls succeed', async () => {
    const { client, open } = setup();
    const taskId = expectCreateTask(await client.call('gated'));
    open();
    const [ack] = await Promise.all([client.ok('tasks/cancel', { taskId }), client.waitForTerminal(taskId)]);
    expect(ack.resultType).toBe('complete');
    const final = await client.waitForTerminal(taskId);
    expect(['cancelled', 'completed']).toContain(final.status);
    expect((await client.ok('tasks/get', { taskId })).status).toBe(final.status);
  });
});

describe('expiry (S44, decision 12)', () => {
  it('keeps a task for ttlMs, then answers -32602 and aborts the running tool', async () => {
    const { client } = setup({ tasks: { ttlMs: 300 } }); // long enough to read it back on a loaded machine
    const taskId = expectCreateTask(await client.call('slow_compute', { seconds: 60 }));
    expect((await client.ok('tasks/get', { taskId })).ttlMs).toBe(300);
    const deadline = Date.now() + 5000;
    let error: { code: number; message: string } | undefined;
    while (error === undefined && Date.now() < deadline) {
      const { response } = await client.send('tasks/get', { taskId });
      if ('error' in response) error = response.error;
      else await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(error).toMatchObject({ code: -32602, message: expect.stringMatching(/expired/) });
  });
});

describe('close()', () => {
  it('aborts running tools, waits for them and marks a task failed when the server shuts down under it (shared store)', async () => {
    const store = new InMemoryTaskStore();
    const { client } = setup({ store });
    const taskId = expectCreateTask(await client.call('slow_compute', { seconds: 60 }));
    await server.close();
    const record = await store.get('\u0000anonymous', taskId);
    expect(record).toMatchObject({ status: 'failed', statusMessage: expect.stringMatching(/shut down/) });
    await server.close(); // idempotent
    expect(await store.get('\u0000anonymous', taskId)).toBe(record);
    await store.close();
  });
});

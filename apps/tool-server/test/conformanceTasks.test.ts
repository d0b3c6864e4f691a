import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createToolServer } from '../src/createToolServer.js';
import { BASE_CAPS, firstText, Loopback } from './loopback.js';

let server: ReturnType<typeof createToolServer>;
let client: Loopback;
beforeEach(() => {
  server = createToolServer({ tools: 'conformance' });
  client = new Loopback(server);
});
afterEach(() => server.close());

const accept = (content: object) => ({ action: 'accept', content });

describe('task tools (CONFORMANCE.md 6.3 rows 21-27)', () => {
  it('greet stays synchronous even with the extension and a legacy task param (S39)', async () => {
    const result = await client.call('greet', { name: 'World' }, { extra: { task: { ttl: 60000 } } });
    expect(result).toMatchObject({ resultType: 'complete' });
    expect(firstText(result)).toBe('Hello, World!');
  });

  it('slow_compute runs synchronously without the extension and as a cancellable task with it', async () => {
    const sync = await client.call('slow_compute', { seconds: 0 }, { caps: {} });
    expect(sync.resultType).toBe('complete');
    const taskId = await client.startTask('slow_compute', { seconds: 60, label: 'x' });
    expect(await client.ok('tasks/cancel', { taskId })).toMatchObject({ resultType: 'complete' });
    expect(await client.waitForTerminal(taskId)).toMatchObject({ status: 'cancelled' });
  });

  it('failing_job is task-required (-32021 without the extension, S5) and completes with isError', async () => {
    const error = await client.fail('tools/call', { name: 'failing_job', arguments: {} }, { caps: {} });
    expect(error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
    });
    const taskId = await client.startTask('failing_job');
    const task = await client.waitForTerminal(taskId);
    expect(task).toMatchObject({ status: 'completed', result: { isError: true, resultType: 'complete' } });
  });

  it('protocol_error_job ends failed with a JSON-RPC error, a statusMessage and no result (S16)', async () => {
    const task = await client.waitForTerminal(await client.startTask('protocol_error_job'));
    expect(task).toMatchObject({ status: 'failed', error: { code: -32603 } });
    expect(typeof task.statusMessage).toBe('string');
    expect(task).not.toHaveProperty('result');
  });

  it('confirm_delete parks on one elicitation and deletes on accept', async () => {
    const taskId = await client.startTask('confirm_delete', { filename: 'a.txt' });
    const requests = await client.waitForInput(taskId);
    const [key, request] = Object.entries(requests)[0] ?? [];
    expect(request?.method).toBe('elicitation/create');
    await client.ok('tasks/update', { taskId, inputResponses: { [key ?? '']: accept({ confirm: true }) } });
    expect(firstText((await client.waitForTerminal(taskId)).result as never)).toBe('deleted a.txt');
  });

  it('multi_input shows two keys at once and stays input_required until both are answered (S27)', async () => {
    const taskId = await client.startTask('multi_input');
    const requests = await client.waitForTask(taskId, (t) => Object.keys(t.inputRequests ?? {}).length === 2);
    const [first, second] = Object.keys(requests.inputRequests as object);
    await client.ok('tasks/update', { taskId, inputResponses: { [first ?? '']: accept({ name: 'x' }) } });
    const partial = await client.waitForTask(taskId, (t) => !Object.hasOwn(t.inputRequests ?? {}, first ?? ''));
    expect(partial.status).toBe('input_required');
    expect(Object.keys(partial.inputRequests as object)).toEqual([second]);
    await client.ok('tasks/update', { taskId, inputResponses: { [second ?? '']: accept({ name: 'y' }) } });
    expect(await client.waitForTerminal(taskId)).toMatchObject({ status: 'completed' });
  });

  it('test_tool_with_task asks synchronously first (S10), then creates a task that greets the name', async () => {
    const first = await client.call('test_tool_with_task');
    expect(first.resultType).toBe('input_required');
    expect(first).not.toHaveProperty('taskId');
    const second = await client.call(
      'test_tool_with_task',
      {},
      { extra: { inputResponses: { user_name: accept({ name: 'Alice' }) }, requestState: first.requestState } },
    );
    expect(second.resultType).toBe('task');
    expect(second).not.toHaveProperty('requestState');
    const task = await client.waitForTerminal(second.taskId as string);
    expect(firstText(task.result as never)).toMatch(/Alice/);
  });
});

describe('MRTR tools (CONFORMANCE.md 6.5)', () => {
  it('elicitation: user_name round trip; a wrong key is asked again; a non-object answer is -32602', async () => {
    const first = await client.call('test_input_required_result_elicitation');
    expect(first).toMatchObject({
      resultType: 'input_required',
      inputRequests: { user_name: { method: 'elicitation/create' } },
    });
    const done = await client.call(
      'test_input_required_result_elicitation',
      {},
      {
        extra: { inputResponses: { user_name: accept({ name: 'Bob' }), unknown_extra_key: {} } },
      },
    );
    expect(firstText(done)).toBe('Hello, Bob!');
    const again = await client.call(
      'test_input_required_result_elicitation',
      {},
      {
        extra: { inputResponses: { wrong_key: accept({}) } },
      },
    );
    expect(again.resultType).toBe('input_required');
    const bad = await client.fail('tools/call', {
      name: 'test_input_required_result_elicitation',
      arguments: {},
      inputResponses: { user_name: 12345 },
    });
    expect(bad.code).toBe(-32602);
  });

  it('multi_round issues a new requestState each round and completes on round 3', async () => {
    const r1 = await client.call('test_input_required_result_multi_round');
    expect(Object.keys(r1.inputRequests as object)).toEqual(['step1']);
    const r2 = await client.call(
      'test_input_required_result_multi_round',
      {},
      {
        extra: { inputResponses: { step1: accept({ name: 'a' }) }, requestState: r1.requestState },
      },
    );
    expect(Object.keys(r2.inputRequests as object)).toEqual(['step2']);
    expect(r2.requestState).not.toBe(r1.requestState);
    const r3 = await client.call(
      'test_input_required_result_multi_round',
      {},
      {
        extra: { inputResponses: { step2: accept({ ok: true }) }, requestState: r2.requestState },
      },
    );
    expect(r3.resultType).toBe('complete');
  });

  it('multiple_inputs asks for all three kinds with a state and completes when all are answered', async () => {
    const r1 = await client.call('test_input_required_result_multiple_inputs');
    const methods = Object.values(r1.inputRequests as Record<string, { method: string }>).map((r) => r.method);
    expect(methods.sort()).toEqual(['elicitation/create', 'roots/list', 'sampling/createMessage']);
    const r2 = await client.call(
      'test_input_required_result_multiple_inputs',
      {},
      {
        extra: {
          requestState: r1.requestState,
          inputResponses: {
            user_name: accept({ name: 'a' }),
            greeting: { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'm' },
            client_roots: { roots: [] },
          },
        },
      },
    );
    expect(r2.resultType).toBe('complete');
  });

  it('rejects a tampered requestState with -32602', async () => {
    const r1 = await client.call('test_input_required_result_tampered_state');
    expect(typeof r1.requestState).toBe('string');
    const error = await client.fail('tools/call', {
      name: 'test_input_required_result_tampered_state',
      arguments: {},
      inputResponses: { confirm: accept({ ok: true }) },
      requestState: `${r1.requestState}-TAMPERED`,
    });
    expect(error.code).toBe(-32602);
  });

  it("capabilities asks only for the kinds this request's _meta declares", async () => {
    const result = await client.call('test_input_required_result_capabilities', {}, { caps: { sampling: {} } });
    expect(Object.keys(result.inputRequests as object)).toEqual(['capital_question']);
    const all = await client.call('test_input_required_result_capabilities', {}, { caps: BASE_CAPS });
    expect(Object.keys(all.inputRequests as object).sort()).toEqual(['capital_question', 'client_roots', 'user_name']);
    expect(firstText(await client.call('test_input_required_result_capabilities', {}, { caps: {} }))).toContain(
      'no input capabilities',
    );
  });
});

import { META } from '@mcp-tasks/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpServer } from '../src/index.js';
import { fixtureServer } from './fixture.js';
import { BASE_CAPS, EXT_CAPS, expectCreateTask, Loopback } from './harness.js';

let server: McpServer;
afterEach(async () => server?.close());

function setup() {
  server = fixtureServer();
  return new Loopback(server, { caps: BASE_CAPS });
}

const NAME = { action: 'accept', content: { name: 'Alice' } };

describe('MRTR on tools/call (SEP-2322)', () => {
  it('answers input_required with the keyed request, then completes on retry', async () => {
    const client = setup();
    const first = await client.call('test_input_required_result_elicitation');
    expect(first).toMatchObject({
      resultType: 'input_required',
      inputRequests: { user_name: { method: 'elicitation/create' } },
    });
    const second = await client.ok('tools/call', {
      name: 'test_input_required_result_elicitation',
      arguments: {},
      inputResponses: { user_name: NAME, unknown_extra_key: { x: 1 } },
    });
    expect(second).toMatchObject({ resultType: 'complete', content: [{ text: expect.stringContaining('Alice') }] });
  });

  it('re-requests when the needed response is missing', async () => {
    const client = setup();
    const result = await client.ok('tools/call', {
      name: 'test_input_required_result_elicitation',
      inputResponses: { wrong_key: NAME },
    });
    expect(result.resultType).toBe('input_required');
  });

  it.each([
    ['a non-object response value', { user_name: 12345 }],
    ['a null inputResponses', null],
    ['an array inputResponses', []],
  ])('rejects %s with -32602', async (_label, inputResponses) => {
    const client = setup();
    const error = await client.fail('tools/call', { name: 'test_input_required_result_elicitation', inputResponses });
    expect(error.code).toBe(-32602);
  });

  it('CONFORMANCE 6.5: a malformed answer to a key the tool asked for is -32602 naming the key; others are ignored', async () => {
    const client = setup();
    const name = 'test_input_required_result_multi_round';
    const r1 = await client.call(name);
    expect(r1.requestState).toEqual(expect.any(String));
    const error = await client.fail('tools/call', {
      name,
      inputResponses: { step1: { action: 'maybe' } },
      requestState: r1.requestState,
    });
    expect(error.code).toBe(-32602);
    expect(error.message).toContain('inputResponses["step1"]');
    const r2 = await client.ok('tools/call', {
      name,
      inputResponses: { step1: NAME, 'unknown-key': { ignored: true } },
      requestState: r1.requestState,
    });
    expect(r2.resultType).toBe('input_required');
    // step2 asked for sampling: an elicitation-shaped answer does not fit it.
    const wrongKind = await client.fail('tools/call', {
      name,
      inputResponses: { step2: NAME },
      requestState: r2.requestState,
    });
    expect(wrongKind).toMatchObject({ code: -32602, message: expect.stringContaining('sampling/createMessage') });
  });

  it('signs a requestState for every round with input requests, even without handler state', async () => {
    const client = setup();
    const first = await client.call('test_input_required_result_elicitation');
    expect(first.requestState).toEqual(expect.any(String));
    const error = await client.fail('tools/call', {
      name: 'test_input_required_result_elicitation',
      inputResponses: { user_name: { content: { name: 'Alice' } } },
      requestState: first.requestState,
    });
    expect(error.code).toBe(-32602);
    const second = await client.ok('tools/call', {
      name: 'test_input_required_result_elicitation',
      inputResponses: { user_name: NAME },
      requestState: first.requestState,
    });
    expect(second).toMatchObject({ resultType: 'complete', content: [{ text: expect.stringContaining('Alice') }] });
  });

  it('multi-round: each round carries a new signed state the handler reads back', async () => {
    const client = setup();
    const name = 'test_input_required_result_multi_round';
    const r1 = await client.call(name);
    expect(r1).toMatchObject({ resultType: 'input_required', inputRequests: { step1: {} } });
    const r2 = await client.ok('tools/call', { name, inputResponses: { step1: NAME }, requestState: r1.requestState });
    expect(r2).toMatchObject({ resultType: 'input_required', inputRequests: { step2: {} } });
    expect(r2.requestState).not.toBe(r1.requestState);
    const r3 = await client.ok('tools/call', {
      name,
      inputResponses: { step2: { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'm' } },
      requestState: r2.requestState,
    });
    expect(r3).toMatchObject({ resultType: 'complete', content: [{ text: 'done after step 2' }] });
  });

  it('rejects a tampered requestState with -32602', async () => {
    const client = setup();
    const name = 'test_input_required_result_multi_round';
    const r1 = await client.call(name);
    const error = await client.fail('tools/call', {
      name,
      inputResponses: { step1: NAME },
      requestState: `${r1.requestState}-TAMPERED`,
    });
    expect(error.code).toBe(-32602);
  });

  it('rejects a requestState replayed on another tool or by another principal', async () => {
    const client = setup();
    const r1 = await client.call('test_input_required_result_multi_round');
    const otherTool = await client.fail('tools/call', {
      name: 'test_input_required_result_capabilities',
      requestState: r1.requestState,
    });
    expect(otherTool.code).toBe(-32602);
    const mallory = new Loopback(server, { caps: BASE_CAPS, principal: 'mallory' });
    const otherUser = await mallory.fail('tools/call', {
      name: 'test_input_required_result_multi_round',
      requestState: r1.requestState,
    });
    expect(otherUser.code).toBe(-32602);
  });

  it('S22: builds input requests only for kinds declared on this request', async () => {
    const client = setup();
    const result = await client.call('test_input_required_result_capabilities', {}, { caps: { sampling: {} } });
    expect(result.resultType).toBe('input_required');
    expect(Object.keys(result.inputRequests as object)).toEqual(['capital_question']);
  });

  it('answers -32021 when a handler asks for an undeclared kind', async () => {
    const client = setup();
    const error = await client.fail('tools/call', { name: 'test_missing_capability' }, { caps: {} });
    expect(error).toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
  });

  it('S10: MRTR rounds finish before the task; the CreateTaskResult has no inputRequests or requestState', async () => {
    server = fixtureServer();
    const client = new Loopback(server, { caps: EXT_CAPS });
    const r1 = await client.call('test_tool_with_task');
    expect(r1).toMatchObject({ resultType: 'input_required', inputRequests: { user_name: {} } });
    expect(r1).not.toHaveProperty('taskId');
    const r2 = await client.ok('tools/call', {
      name: 'test_tool_with_task',
      arguments: {},
      inputResponses: { user_name: NAME },
      requestState: r1.requestState,
    });
    const taskId = expectCreateTask(r2);
    const done = await client.waitForTerminal(taskId);
    expect(done).toMatchObject({
      status: 'completed',
      result: { content: [{ text: expect.stringMatching(/Alice.*round/) }] },
    });
  });

  it('MRTR on prompts/get', async () => {
    const client = setup();
    const r1 = await client.ok('prompts/get', { name: 'test_input_required_result_prompt' });
    expect(r1).toMatchObject({ resultType: 'input_required', inputRequests: { user_context: {} } });
    const r2 = await client.ok('prompts/get', {
      name: 'test_input_required_result_prompt',
      inputResponses: { user_context: { action: 'accept', content: { context: 'x' } } },
    });
    expect(r2).toMatchObject({ resultType: 'complete', messages: [{ role: 'user' }] });
  });

  it('S31: list methods and tasks/* never answer input_required', async () => {
    server = fixtureServer();
    const client = new Loopback(server, { caps: EXT_CAPS });
    for (const method of ['tools/list', 'prompts/list', 'resources/list']) {
      expect((await client.ok(method)).resultType).toBe('complete');
    }
    const taskId = expectCreateTask(await client.call('confirm_delete', { filename: 'z' }));
    await client.waitForTask(taskId, (t) => t.status === 'input_required');
    expect((await client.ok('tasks/get', { taskId })).resultType).toBe('complete');
    expect((await client.ok('tasks/cancel', { taskId })).resultType).toBe('complete');
  });

  it('does not send progress or log notifications unless asked', async () => {
    const client = setup();
    const { notifications } = await client.send('tools/call', { name: 'test_tool_with_progress' });
    expect(notifications).toEqual([]);
    const asked = await client.send(
      'tools/call',
      { name: 'test_tool_with_progress' },
      {
        meta: { progressToken: 'progress-test-1', [META.logLevel]: 'info' },
      },
    );
    expect(asked.notifications.map((n) => n.method)).toEqual([
      'notifications/progress',
      'notifications/progress',
      'notifications/progress',
      'notifications/message',
    ]);
    expect(asked.notifications[2]?.params).toEqual({ progressToken: 'progress-test-1', progress: 100, total: 100 });
    const quiet = await client.send(
      'tools/call',
      { name: 'test_tool_with_progress' },
      { meta: { [META.logLevel]: 'error' } },
    );
    expect(quiet.notifications).toEqual([]);
  });
});

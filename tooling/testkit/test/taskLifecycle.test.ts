/**
 * The task lifecycle as users drive it with `McpClient.callTool`: completion, tool errors, protocol failures,
 * mid-task input and cancellation, against the real server through a linked pair.
 */
import { TaskFailedError } from '@mcp-tasks/client';
import { type DetailedTask, ErrorCode, ProtocolError, type Task } from '@mcp-tasks/protocol';
import { InMemoryTaskStore } from '@mcp-tasks/task-store';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { createHarness, deferred, FAST_POLL_MS, registerUntilCancelled, text, until } from './harness.js';

const FORM = { type: 'object', properties: { answer: { type: 'string' } } } as const;

describe('tasks that end on their own', () => {
  it('S6/S8/S9/S15/C19: a task completes and callTool resolves with the result tasks/get holds', async () => {
    const h = createHarness();
    const release = deferred();
    h.server.tool({
      name: 'build',
      description: 'Builds',
      taskSupport: 'required',
      handler: async (_args, ctx) => {
        await until(release.promise, ctx.signal);
        return { ...text('built'), structuredContent: { artifacts: 2 } };
      },
    });
    const { client } = h.connect();
    const seen: Array<Task | DetailedTask> = [];
    const call = client.callTool('build', {}, { onStatus: (t) => seen.push(t) });
    await vi.waitFor(() => expect(seen.length).toBeGreaterThan(0));
    const seed = h.sent('tools/call')[0]?.response as { result: Record<string, unknown> };
    expect(seed.result).toMatchObject({ resultType: 'task', status: 'working', pollIntervalMs: FAST_POLL_MS });
    expect(typeof seed.result.taskId).toBe('string');
    expect(Date.parse(String(seed.result.createdAt))).not.toBeNaN();
    expect(Date.parse(String(seed.result.lastUpdatedAt))).not.toBeNaN();
    expect(seed.result).toHaveProperty('ttlMs');
    expect(seed.result).not.toHaveProperty('result');
    // S9: the task is durably created by the time the CreateTaskResult arrives.
    const taskId = String(seed.result.taskId);
    await expect(client.getTask(taskId)).resolves.toMatchObject({ taskId, status: 'working' });
    release.resolve();
    const result = await call;
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'built' }], structuredContent: { artifacts: 2 } });
    const final = await client.getTask(taskId);
    expect(final).toMatchObject({
      status: 'completed',
      resultType: 'complete',
      result: { structuredContent: { artifacts: 2 } },
    });
    expect(seen.at(-1)?.status).toBe('completed');
    expect(h.sent('tasks/get').length).toBeGreaterThan(0);
  });

  it('S17/decision 11: a result with isError completes the task (not failed) and callTool resolves with it', async () => {
    const h = createHarness();
    h.server.tool({
      name: 'lint',
      description: 'Lints',
      taskSupport: 'required',
      handler: () => ({ ...text('3 problems'), isError: true }),
    });
    const { client } = h.connect();
    const statuses: string[] = [];
    const result = await client.callTool('lint', {}, { onStatus: (t) => statuses.push(t.status) });
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: '3 problems' }] });
    expect(statuses.at(-1)).toBe('completed');
  });

  it('decision 11: a task whose handler throws an ordinary error completes with an isError result', async () => {
    const h = createHarness();
    h.server.tool({
      name: 'crash',
      description: 'Crashes',
      taskSupport: 'required',
      handler: async () => {
        throw new Error('out of memory');
      },
    });
    const { client } = h.connect();
    const statuses: string[] = [];
    const result = await client.callTool('crash', {}, { onStatus: (t) => statuses.push(t.status) });
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'out of memory' }] });
    expect(statuses.at(-1)).toBe('completed');
    expect(h.serverErrors).toEqual([]);
  });

  it('S16/C19: a thrown ProtocolError fails the task with that error and a statusMessage', async () => {
    const h = createHarness();
    h.server.tool({
      name: 'deploy',
      description: 'Deploys',
      taskSupport: 'required',
      handler: async () => {
        throw new ProtocolError(ErrorCode.InvalidParams, 'No such environment: mars', { environment: 'mars' });
      },
    });
    const { client } = h.connect();
    let taskId = '';
    const error = await client
      .callTool('deploy', {}, { onStatus: (t) => (taskId = t.taskId) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskFailedError);
    const failed = error as TaskFailedError;
    expect(failed.error).toBeInstanceOf(ProtocolError);
    expect(failed.error.code).toBe(ErrorCode.InvalidParams);
    expect(failed.error.message).toBe('No such environment: mars');
    expect(failed.error.data).toEqual({ environment: 'mars' });
    expect(failed.statusMessage).toBeTruthy();
    const task = await client.getTask(taskId);
    expect(task).toMatchObject({
      status: 'failed',
      error: { code: ErrorCode.InvalidParams, message: 'No such environment: mars', data: { environment: 'mars' } },
    });
    expect(task.statusMessage).toBeTruthy();
  });
});

describe('mid-task input', () => {
  it('C10/C11/S14: elicitation mid-way: input_required → tasks/update → working → completed', async () => {
    const h = createHarness();
    const resume = deferred();
    h.server.tool({
      name: 'interview',
      description: 'Asks one question mid-way',
      taskSupport: 'required',
      handler: async (_args, ctx) => {
        await ctx.setStatus('thinking');
        const answer = (await ctx.elicit({ message: 'Favourite colour?', requestedSchema: FORM })) as {
          content?: { answer?: string };
        };
        await until(resume.promise, ctx.signal);
        return text(`colour: ${answer.content?.answer}`);
      },
    });
    const prompts: string[] = [];
    const { client } = h.connect({
      handlers: {
        elicitation: (params) => {
          prompts.push(params.message);
          return { action: 'accept', content: { answer: 'teal' } };
        },
      },
    });
    const seen: Array<Task | DetailedTask> = [];
    const call = client.callTool('interview', {}, { onStatus: (t) => seen.push(t) });
    // Wait until the task is observed working again after the answer, then let the tool finish.
    await vi.waitFor(() => {
      const asked = seen.findIndex((t) => t.status === 'input_required');
      expect(asked).toBeGreaterThanOrEqual(0);
      expect(seen.slice(asked).some((t) => t.status === 'working')).toBe(true);
    });
    resume.resolve();
    const result = await call;

    expect(result.content).toEqual([{ type: 'text', text: 'colour: teal' }]);
    expect(prompts).toEqual(['Favourite colour?']);
    const asked = seen.find((t): t is DetailedTask => t.status === 'input_required') as DetailedTask & {
      inputRequests: Record<string, { method: string; params: { message: string } }>;
    };
    const [key, request] = Object.entries(asked.inputRequests)[0] ?? [];
    expect(request).toMatchObject({ method: 'elicitation/create', params: { message: 'Favourite colour?' } });
    const updates = h.sent('tasks/update');
    expect(updates).toHaveLength(1); // C13: answered once however many polls repeated it
    expect(updates[0]?.message.params?.inputResponses).toEqual({
      [String(key)]: { action: 'accept', content: { answer: 'teal' } },
    });
    expect(updates[0]?.response).toMatchObject({ result: { resultType: 'complete' } });
    expect(Object.keys((updates[0]?.response as { result?: object } | undefined)?.result ?? {}).sort()).toEqual([
      '_meta',
      'resultType',
    ]);
    const statuses = seen.map((t) => t.status);
    expect(statuses.indexOf('input_required')).toBeLessThan(statuses.lastIndexOf('working'));
    expect(statuses.at(-1)).toBe('completed');
  });

  it('S14/S20: two simultaneous input requests are listed together, with distinct keys, and both answered', async () => {
    const h = createHarness();
    h.server.tool({
      name: 'pair',
      description: 'Asks two things at once',
      taskSupport: 'required',
      handler: async (_args, ctx) => {
        const [name, summary] = await Promise.all([
          ctx.elicit({ message: 'Name?', requestedSchema: FORM }),
          ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'sum' } }], maxTokens: 5 }),
        ]);
        const sampled = Array.isArray(summary.content) ? summary.content[0] : summary.content;
        return text(`${String(name.content?.answer)}/${sampled?.type === 'text' ? sampled.text : ''}`);
      },
    });
    const { client } = h.connect({
      handlers: {
        elicitation: () => ({ action: 'accept', content: { answer: 'Bo' } }),
        sampling: () => ({ role: 'assistant', content: { type: 'text', text: 'short' }, model: 'm' }),
      },
    });
    const result = await client.callTool('pair');
    expect(result.content).toEqual([{ type: 'text', text: 'Bo/short' }]);
    const listed = h
      .sent('tasks/get')
      .map((e) => (e.response as { result?: { inputRequests?: Record<string, { method: string }> } }).result)
      .find((r) => r?.inputRequests !== undefined);
    const requests = listed?.inputRequests ?? {};
    expect(
      Object.values(requests)
        .map((r) => r.method)
        .sort(),
    ).toEqual(['elicitation/create', 'sampling/createMessage']);
    const answeredKeys = h.sent('tasks/update').flatMap((e) => Object.keys(e.message.params?.inputResponses ?? {}));
    expect(answeredKeys.sort()).toEqual(Object.keys(requests).sort());
    expect(new Set(answeredKeys).size).toBe(2);
  });

  it('decision 4: a task asking for an undeclared input kind fails inside the tool instead of parking', async () => {
    const h = createHarness();
    h.server.tool({
      name: 'rooted',
      description: 'Needs roots',
      taskSupport: 'required',
      handler: async (_args, ctx) => {
        await ctx.listRoots();
        return text('unreachable');
      },
    });
    const { client } = h.connect(); // no roots handler
    const error = await client.callTool('rooted').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskFailedError);
    expect((error as TaskFailedError).error.code).toBe(ErrorCode.MissingRequiredClientCapability);
    expect(h.sent('tasks/get').every((e) => !JSON.stringify(e.response).includes('roots/list'))).toBe(true);
  });
});

describe('cancellation', () => {
  it('C16/S30: aborting callTool sends tasks/cancel; the task ends cancelled and the tool signal aborts', async () => {
    const h = createHarness();
    const tool = registerUntilCancelled(h, 'forever', 'required');
    const { client } = h.connect();
    const controller = new AbortController();
    let taskId = '';
    const call = client.callTool('forever', {}, { signal: controller.signal, onStatus: (t) => (taskId = t.taskId) });
    await tool.started;
    await vi.waitFor(() => expect(taskId).not.toBe(''));
    const reason = new Error('user pressed stop');
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);

    await vi.waitFor(() => expect(h.sent('tasks/cancel')).toHaveLength(1));
    expect(h.sent('tasks/cancel')[0]?.message.params?.taskId).toBe(taskId);
    expect(h.sent('notifications/cancelled')).toHaveLength(0);
    await vi.waitFor(() => expect(tool.signal()?.aborted).toBe(true));
    await expect(client.getTask(taskId)).resolves.toMatchObject({ status: 'cancelled' });
    // decision 6/7: a second cancel on the terminal task is acknowledged and changes nothing.
    await expect(client.cancelTask(taskId)).resolves.toBeUndefined();
    await expect(client.getTask(taskId)).resolves.toMatchObject({ status: 'cancelled' });
  });

  it('decision 6: a tool that ignores cancellation and returns later cannot move the task out of cancelled', async () => {
    const store = new InMemoryTaskStore();
    onTestFinished(() => store.close());
    const h = createHarness({ taskStore: store });
    const cancelled = deferred();
    const returned = deferred();
    h.server.tool({
      name: 'stubborn',
      description: 'Finishes anyway',
      taskSupport: 'required',
      handler: async (_args, ctx) => {
        await until(new Promise<never>(() => undefined), ctx.signal).catch(() => undefined);
        await cancelled.promise;
        returned.resolve();
        return text('finished anyway');
      },
    });
    const { client } = h.connect();
    const raw = await client.callToolRaw('stubborn');
    if (raw.kind !== 'task') throw new Error(`expected a task, got ${raw.kind}`);
    await client.cancelTask(raw.task.taskId);
    cancelled.resolve();
    await returned.promise;
    await h.server.close(); // waits until the late result has been written or dropped
    // A restarted server on the same store sees what was kept.
    const { client: observer } = createHarness({ taskStore: store }).connect();
    const task = await observer.getTask(raw.task.taskId);
    expect(task.status).toBe('cancelled');
    expect(task).not.toHaveProperty('result');
  });
});

describe('shutdown', () => {
  // close() stops every call, also one still inside its grace period, and writes nothing to the closed store.
  it('server close() during the immediate-result grace period aborts the tool and reports nothing', async () => {
    const h = createHarness({ tasks: { immediateResultMs: 1_500 } });
    const tool = registerUntilCancelled(h, 'maybeLong', 'optional');
    const { client } = h.connect();
    const call = client.callTool('maybeLong').catch((error: unknown) => error);
    await tool.started;
    const closed = h.server.close();
    await vi.waitFor(() => expect(tool.signal()?.aborted).toBe(true), { timeout: 1_000 });
    await closed;
    const error = await call;
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).message).toMatch(/shut/i);
    expect(h.serverErrors).toEqual([]);
  });
});

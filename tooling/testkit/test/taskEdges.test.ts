/**
 * Edges of the task lifecycle users will hit: driving a task by hand with the low-level methods, cancelling while
 * waiting for input, handlers that decline or fail, resuming a task parked on input, concurrent listened tasks,
 * and the immediate-result grace period.
 */
import { InMemoryTaskJournal, InputHandlerError } from '@mcp-tasks/client';
import type { DetailedTask } from '@mcp-tasks/protocol';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createHarness, type Deferred, deferred, registerUntilCancelled, text, until } from './harness.js';

const FORM = { type: 'object', properties: { v: { type: 'string' } } } as const;
type InputTask = DetailedTask & { inputRequests: Record<string, { method: string; params: { message: string } }> };

describe('driving a task by hand (callToolRaw, getTask, updateTask)', () => {
  it('S23/S26/S27/S20: subsets, ignored keys, repeated snapshots and never-reused keys', async () => {
    const h = createHarness();
    h.server.tool({
      name: 'form',
      description: 'Asks two questions at once, then one more',
      taskSupport: 'required',
      handler: async (_args, ctx) => {
        const [a, b] = await Promise.all([
          ctx.elicit({ message: 'A?', requestedSchema: FORM }),
          ctx.elicit({ message: 'B?', requestedSchema: FORM }),
        ]);
        const c = await ctx.elicit({ message: 'C?', requestedSchema: FORM });
        return text([a, b, c].map((x) => x.content?.v).join(''));
      },
    });
    // The handler only declares the elicitation capability (decision 4); this test answers by hand.
    const { client } = h.connect({ handlers: { elicitation: () => ({ action: 'decline' }) } });
    const raw = await client.callToolRaw('form');
    if (raw.kind !== 'task') throw new Error(`expected a task, got ${raw.kind}`);
    const taskId = raw.task.taskId;
    const waitFor = async (predicate: (t: DetailedTask) => boolean): Promise<DetailedTask> => {
      let task: DetailedTask | undefined;
      await vi.waitFor(async () => {
        task = await client.getTask(taskId);
        expect(predicate(task)).toBe(true);
      });
      return task as DetailedTask;
    };
    const keysOf = (t: DetailedTask) => Object.keys((t as InputTask).inputRequests ?? {}).sort();

    const first = (await waitFor((t) => keysOf(t).length === 2)) as InputTask;
    expect(
      Object.values(first.inputRequests)
        .map((r) => r.params.message)
        .sort(),
    ).toEqual(['A?', 'B?']);
    // S23: the same outstanding requests on every poll until answered.
    expect((await client.getTask(taskId)) as InputTask).toMatchObject({ inputRequests: first.inputRequests });
    const keyFor = (t: InputTask, message: string) =>
      String(Object.entries(t.inputRequests).find(([, r]) => r.params.message === message)?.[0]);
    const keyA = keyFor(first, 'A?');
    const keyB = keyFor(first, 'B?');

    // S27 + S26: answer only A, plus a key that was never issued.
    await client.updateTask(taskId, {
      [keyA]: { action: 'accept', content: { v: 'a' } },
      bogus: { action: 'accept', content: { v: 'x' } },
    });
    const afterA = (await waitFor((t) => keysOf(t).join() === keyB)) as InputTask;
    expect(afterA.status).toBe('input_required');

    await client.updateTask(taskId, { [keyB]: { action: 'accept', content: { v: 'b' } } });
    const third = (await waitFor((t) => keysOf(t).length === 1 && keysOf(t)[0] !== keyB)) as InputTask;
    const keyC = keyFor(third, 'C?');
    // S20: a new request never reuses a key whose response was delivered.
    expect([keyA, keyB]).not.toContain(keyC);
    // S26: answering an already-answered key again is ignored.
    await client.updateTask(taskId, { [keyA]: { action: 'accept', content: { v: 'z' } } });
    expect(await client.getTask(taskId)).toMatchObject({ status: 'input_required' });

    await client.updateTask(taskId, { [keyC]: { action: 'accept', content: { v: 'c' } } });
    const done = await waitFor((t) => t.status === 'completed');
    expect(done).toMatchObject({ result: { content: [{ type: 'text', text: 'abc' }] } });
  });
});

describe('input edge cases', () => {
  it('C16/S30: aborting while the task waits for input cancels it and aborts the tool', async () => {
    const h = createHarness();
    let toolSignal: AbortSignal | undefined;
    h.server.tool({
      name: 'ask',
      description: 'Asks and waits',
      taskSupport: 'required',
      handler: async (_args, ctx) => {
        toolSignal = ctx.signal;
        await ctx.elicit({ message: 'Well?', requestedSchema: FORM });
        return text('answered');
      },
    });
    const asked = deferred();
    const controller = new AbortController();
    const { client } = h.connect({
      handlers: {
        // The user never answers; the handler waits until the call is aborted.
        elicitation: async (_params, ctx) => {
          asked.resolve();
          await until(new Promise<never>(() => undefined), ctx.signal);
          return { action: 'cancel' };
        },
      },
    });
    let taskId = '';
    const call = client.callTool('ask', {}, { signal: controller.signal, onStatus: (t) => (taskId = t.taskId) });
    await asked.promise;
    controller.abort(new Error('closed the dialog'));
    await expect(call).rejects.toThrow('closed the dialog');
    await vi.waitFor(() => expect(toolSignal?.aborted).toBe(true));
    await expect(client.getTask(taskId)).resolves.toMatchObject({ status: 'cancelled' });
    expect(h.sent('tasks/update')).toHaveLength(0);
  });

  it('C12: a declined elicitation reaches the tool as decline; a throwing elicitation handler answers cancel', async () => {
    const h = createHarness();
    h.server.tool({
      name: 'consent',
      description: 'Asks for consent',
      taskSupport: 'required',
      handler: async (_args, ctx) => {
        const answer = (await ctx.elicit({ message: 'Allow?', requestedSchema: FORM })) as { action: string };
        return text(answer.action);
      },
    });
    const decliner = h.connect({ handlers: { elicitation: () => ({ action: 'decline' }) } });
    await expect(decliner.client.callTool('consent')).resolves.toMatchObject({
      content: [{ type: 'text', text: 'decline' }],
    });
    const broken = h.connect({
      handlers: {
        elicitation: () => {
          throw new Error('UI crashed');
        },
      },
    });
    await expect(broken.client.callTool('consent')).resolves.toMatchObject({
      content: [{ type: 'text', text: 'cancel' }],
    });
  });

  it('a failing sampling handler ends the call with InputHandlerError and cancels the task', async () => {
    const h = createHarness();
    let toolSignal: AbortSignal | undefined;
    h.server.tool({
      name: 'summarise',
      description: 'Samples',
      taskSupport: 'required',
      handler: async (_args, ctx) => {
        toolSignal = ctx.signal;
        await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'x' } }], maxTokens: 5 });
        return text('sampled');
      },
    });
    const { client } = h.connect({
      handlers: {
        sampling: () => {
          throw new Error('model offline');
        },
      },
    });
    let taskId = '';
    const error = await client
      .callTool('summarise', {}, { onStatus: (t) => (taskId = t.taskId) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputHandlerError);
    expect((error as InputHandlerError).method).toBe('sampling/createMessage');
    await vi.waitFor(() => expect(h.sent('tasks/cancel')).toHaveLength(1));
    await vi.waitFor(() => expect(toolSignal?.aborted).toBe(true));
    await expect(client.getTask(taskId)).resolves.toMatchObject({ status: 'cancelled' });
  });

  it('C8/C10: a task that asked for input while its client was down is answered by the resumed client', async () => {
    const h = createHarness();
    const asked = deferred();
    h.server.tool({
      name: 'later',
      description: 'Asks once the client is gone',
      taskSupport: 'required',
      handler: async (_args, ctx) => {
        await until(asked.promise, ctx.signal);
        const answer = await ctx.elicit({ message: 'Still there?', requestedSchema: FORM });
        return text(String(answer.content?.v));
      },
    });
    const journal = new InMemoryTaskJournal();
    // The creating request must declare elicitation for the task to ask later (decision 4).
    const first = h.connect({
      principal: 'dana',
      tasks: { journal },
      handlers: { elicitation: () => ({ action: 'decline' }) },
    });
    let taskId = '';
    const lost = first.client.callTool('later', {}, { onStatus: (t) => (taskId = t.taskId) });
    await vi.waitFor(() => expect(taskId).not.toBe(''));
    await first.client.close();
    await expect(lost).rejects.toBeDefined();
    asked.resolve();

    const second = h.connect({
      principal: 'dana',
      tasks: { journal },
      handlers: { elicitation: () => ({ action: 'accept', content: { v: 'yes' } }) },
    });
    const statuses: string[] = [];
    const result = await second.client.resumeTask(taskId, { onStatus: (t) => statuses.push(t.status) });
    expect(result.content).toEqual([{ type: 'text', text: 'yes' }]);
    expect(statuses).toContain('input_required');
    expect(journal.list()).toEqual([]);
  });
});

describe('several tasks at once', () => {
  it('C21: concurrent listened tasks share one stream and each gets its own result', async () => {
    const h = createHarness({ tasks: { pollIntervalMs: 3_600_000 } });
    const gates = new Map<string, Deferred<void>>();
    h.server.tool({
      name: 'job',
      description: 'Finishes when told',
      taskSupport: 'required',
      inputSchema: z.object({ id: z.string() }),
      handler: async ({ id }, ctx) => {
        const gate = deferred();
        gates.set(id, gate);
        await until(gate.promise, ctx.signal);
        return text(`job ${id}`);
      },
    });
    const { client } = h.connect({ tasks: { listen: { maxStreams: 1 }, maxIntervalMs: 3_600_000 } });
    const ids = ['a', 'b', 'c'];
    const calls = ids.map((id) => client.callTool('job', { id }));
    await vi.waitFor(() => {
      expect(gates.size).toBe(3);
      // One open stream, acknowledged for all three before any finishes.
      const open = h.sent('subscriptions/listen').filter((e) => e.response === undefined);
      expect(open).toHaveLength(1);
      const ack = open[0]?.notifications.find((n) => n.method === 'notifications/subscriptions/acknowledged');
      expect((ack?.params?.notifications as { taskIds?: unknown[] } | undefined)?.taskIds).toHaveLength(3);
    });
    for (const id of [...ids].reverse()) gates.get(id)?.resolve();
    const results = await Promise.all(calls);
    expect(results.map((r) => r.content)).toEqual(ids.map((id) => [{ type: 'text', text: `job ${id}` }]));
  });
});

describe('immediate-result grace period', () => {
  it('a task-capable tool that finishes within immediateResultMs answers directly; one that asks becomes a task', async () => {
    const h = createHarness({ tasks: { immediateResultMs: 5_000 } });
    h.server.tool({ name: 'fast', description: 'Fast', taskSupport: 'optional', handler: () => text('quick') });
    h.server.tool({
      name: 'asks',
      description: 'Asks at once',
      taskSupport: 'optional',
      handler: async (_args, ctx) => {
        const answer = (await ctx.elicit({ message: 'Go?', requestedSchema: FORM })) as { action: string };
        return text(answer.action);
      },
    });
    const { client } = h.connect({ handlers: { elicitation: () => ({ action: 'accept', content: {} }) } });
    await expect(client.callToolRaw('fast')).resolves.toMatchObject({ kind: 'complete' });
    const statuses: string[] = [];
    const result = await client.callTool('asks', {}, { onStatus: (t) => statuses.push(t.status) });
    expect(result.content).toEqual([{ type: 'text', text: 'accept' }]);
    expect(statuses).toContain('input_required');
  });
  // RequestInfo.signal: until the answer is decided the tool belongs to the request.
  it('a client abandoning tools/call during the immediate-result grace period aborts the tool', async () => {
    const h = createHarness({ tasks: { immediateResultMs: 1_500 } });
    const tool = registerUntilCancelled(h, 'maybeLong', 'optional');
    const { client } = h.connect();
    const controller = new AbortController();
    const call = client.callTool('maybeLong', {}, { signal: controller.signal });
    await tool.started;
    controller.abort(new Error('user left'));
    await expect(call).rejects.toThrow('user left');
    await vi.waitFor(() => expect(tool.signal()?.aborted).toBe(true), { timeout: 1_000 });
  });
});

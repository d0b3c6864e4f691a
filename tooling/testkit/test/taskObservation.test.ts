/**
 * How the client observes a task: polling at the server's pollIntervalMs (fake timers), and listen notifications
 * reaching the same terminal state as polling.
 */
import { TaskNotFoundError } from '@mcp-tasks/client';
import type { DetailedTask, Task, TransportNotification } from '@mcp-tasks/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHarness, deferred, registerGated, text, until } from './harness.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('polling', () => {
  it('C6/C7: polls tasks/get exactly at the server pollIntervalMs until a terminal status', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const h = createHarness({ tasks: { pollIntervalMs: 1000 } });
    const { release } = registerGated(h, 'slow', () => 'done');
    // The client's own floor and default are far from 1000, so only the server's value can explain the timing.
    const { client } = h.connect({ tasks: { minIntervalMs: 1, defaultIntervalMs: 5, maxIntervalMs: 60_000 } });
    const gets = () => h.sent('tasks/get').length;
    let settled: unknown;
    const call = client.callTool('slow').then((r) => (settled = r));
    await vi.advanceTimersByTimeAsync(0);
    expect(h.sent('tools/call')).toHaveLength(1);
    expect(gets()).toBe(0);
    await vi.advanceTimersByTimeAsync(999);
    expect(gets()).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(gets()).toBe(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(gets()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(gets()).toBe(2);
    release.resolve();
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBeUndefined(); // still waiting for the next poll to see the completion
    await vi.advanceTimersByTimeAsync(1000);
    expect(gets()).toBe(3);
    await call;
    expect(settled).toMatchObject({ content: [{ type: 'text', text: 'done' }] });
    await vi.advanceTimersByTimeAsync(5000);
    expect(gets()).toBe(3); // C7: no polling after a terminal status
  });

  it('C6: clamps a server pollIntervalMs above maxIntervalMs to the client cap', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const h = createHarness({ tasks: { pollIntervalMs: 60_000 } });
    const { release } = registerGated(h, 'slow', () => 'done');
    const { client } = h.connect({ tasks: { maxIntervalMs: 250 } });
    const call = client.callTool('slow');
    await vi.advanceTimersByTimeAsync(249);
    expect(h.sent('tasks/get')).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.sent('tasks/get')).toHaveLength(1);
    release.resolve();
    await vi.advanceTimersByTimeAsync(250);
    await expect(call).resolves.toMatchObject({ content: [{ type: 'text', text: 'done' }] });
  });
});

describe('listen notifications', () => {
  /** A tool that asks one question, then waits for the test before finishing. */
  function registerInterview(h: ReturnType<typeof createHarness>) {
    const finish = deferred();
    h.server.tool({
      name: 'interview',
      description: 'Asks, then finishes when told',
      taskSupport: 'required',
      handler: async (_args, ctx) => {
        const answer = (await ctx.elicit({
          message: 'Ready?',
          requestedSchema: { type: 'object', properties: { ready: { type: 'boolean' } } },
        })) as { content?: { ready?: boolean } };
        await until(finish.promise, ctx.signal);
        return { ...text(`ready=${answer.content?.ready}`), structuredContent: { ready: answer.content?.ready } };
      },
    });
    return finish;
  }
  const handlers = { elicitation: () => ({ action: 'accept' as const, content: { ready: true } }) };

  it('C21/S32/S34/S35: a listening client reaches the same terminal state as a polling one', async () => {
    // The server asks for hour-long polls: only notifications can make the listening client finish promptly.
    const h = createHarness({ tasks: { pollIntervalMs: 3_600_000 } });
    const finish = registerInterview(h);
    finish.resolve();

    const poller = h.connect({ handlers, tasks: { maxIntervalMs: 5 } });
    const polled = await poller.client.callTool('interview');

    const listener = h.connect({ handlers, tasks: { listen: true, maxIntervalMs: 3_600_000 } });
    const seen: Array<Task | DetailedTask> = [];
    const listened = await listener.client.callTool('interview', {}, { onStatus: (t) => seen.push(t) });

    expect(listened).toEqual(polled);
    expect(listened.structuredContent).toEqual({ ready: true });
    const streams = h.sent('subscriptions/listen');
    expect(streams).toHaveLength(1);
    const listen = streams[0];
    const taskId = String(seen[0]?.taskId);
    expect(listen?.message.params?.notifications).toEqual({ taskIds: [taskId] });
    const [ack, ...rest] = listen?.notifications ?? [];
    expect(ack?.method).toBe('notifications/subscriptions/acknowledged');
    expect(ack?.params?.notifications).toMatchObject({ taskIds: [taskId] });
    const taskNotes = rest.filter((n: TransportNotification) => n.method === 'notifications/tasks');
    expect(taskNotes.map((n) => n.params?.status)).toContain('completed');
    for (const note of [ack, ...taskNotes]) {
      expect(
        (note?.params?._meta as Record<string, unknown> | undefined)?.['io.modelcontextprotocol/subscriptionId'],
      ).toBe(listen?.message.id);
    }
    // S35: the terminal notification carries what tasks/get returns.
    const terminal = taskNotes.find((n) => n.params?.status === 'completed');
    const { _meta: _noteMeta, ...notified } = terminal?.params ?? {};
    const { _meta: _getMeta, resultType, ...got } = await listener.client.getTask(taskId);
    expect(resultType).toBe('complete');
    expect(notified).toEqual(got);
    expect(notified).not.toHaveProperty('resultType');
    // The input request also arrived by notification and was answered once.
    expect(taskNotes.map((n) => n.params?.status)).toContain('input_required');
    expect(
      h.sent('tasks/update').filter((e) => JSON.stringify(e.message.params?.taskId) === JSON.stringify(taskId)),
    ).toHaveLength(1);
    expect(seen.at(-1)?.status).toBe('completed');
  });

  it('S36: no progress or log notifications travel on a task listen stream', async () => {
    const h = createHarness({ tasks: { pollIntervalMs: 3_600_000 } });
    h.server.tool({
      name: 'chatty',
      description: 'Reports progress',
      taskSupport: 'required',
      handler: async (_args, ctx) => {
        ctx.progress(1, 2, 'half');
        ctx.log('info', 'working hard');
        await ctx.setStatus('half way');
        return text('done');
      },
    });
    const { client } = h.connect({ tasks: { listen: true, maxIntervalMs: 3_600_000 } });
    await client.callTool('chatty');
    const methods = h.sent('subscriptions/listen').flatMap((e) => e.notifications.map((n) => n.method));
    expect(methods).toContain('notifications/tasks');
    expect(methods).not.toContain('notifications/progress');
    expect(methods).not.toContain('notifications/message');
  });
});

describe('expiry while listening', () => {
  // The server ends a listen stream whose acknowledged tasks all expired; the client then polls and gets -32602.
  it('S44/C20/C21: a listening client learns of TTL expiry without waiting for its safety poll', async () => {
    const h = createHarness({ tasks: { ttlMs: 50, pollIntervalMs: 3_600_000 } });
    h.server.tool({
      name: 'stuck',
      description: 'Never finishes',
      taskSupport: 'required',
      handler: async (_args, ctx) => {
        await until(new Promise<never>(() => undefined), ctx.signal);
        return text('never');
      },
    });
    const { client } = h.connect({ tasks: { listen: true, honourTtl: false, maxIntervalMs: 60_000 } });
    let outcome: unknown;
    const call = client.callTool('stuck').then(
      (result) => (outcome = result),
      (error: unknown) => (outcome = error),
    );
    await vi.waitFor(() => expect(outcome).toBeDefined(), { timeout: 2_000 });
    expect(outcome).toBeInstanceOf(TaskNotFoundError);
    await call;
  });
});

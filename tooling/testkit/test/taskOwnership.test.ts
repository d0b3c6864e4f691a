/**
 * Who can reach a task and for how long: owner isolation between principals, resuming after a client restart
 * with the same journal, and TTL expiry.
 */
import { InMemoryTaskJournal, type TaskExpiredError, TaskNotFoundError } from '@mcp-tasks/client';
import { ErrorCode, ProtocolError, TransportError } from '@mcp-tasks/protocol';
import { describe, expect, it, vi } from 'vitest';
import { createHarness, registerGated, text } from './harness.js';

const isInvalidParams = (e: unknown) => e instanceof ProtocolError && e.code === ErrorCode.InvalidParams;

describe('owner isolation', () => {
  it('S12/S18: another principal cannot get, update, cancel, resume or listen to a task', async () => {
    const h = createHarness();
    const { release } = registerGated(h);
    const alice = h.connect({ principal: 'alice' });
    const bob = h.connect({ principal: 'bob', tasks: { honourTtl: false } });
    const anonymous = h.connect();
    let taskId = '';
    const call = alice.client.callTool('gated', {}, { onStatus: (t) => (taskId = t.taskId) });
    await vi.waitFor(() => expect(taskId).not.toBe(''));

    for (const intruder of [bob, anonymous]) {
      await expect(intruder.client.getTask(taskId)).rejects.toSatisfy(isInvalidParams);
      await expect(intruder.client.cancelTask(taskId)).rejects.toSatisfy(isInvalidParams);
      await expect(intruder.client.updateTask(taskId, { k: { action: 'accept', content: {} } })).rejects.toSatisfy(
        isInvalidParams,
      );
      await expect(intruder.client.resumeTask(taskId)).rejects.toBeInstanceOf(TaskNotFoundError);
    }
    // A listen request naming someone else's task is acknowledged without it.
    const stop = new AbortController();
    const listenCall = bob.client.request(
      'subscriptions/listen',
      { notifications: { taskIds: [taskId] } },
      { signal: stop.signal },
    );
    await vi.waitFor(() => expect(h.sent('subscriptions/listen')[0]?.notifications.length).toBeGreaterThan(0));
    stop.abort(new Error('enough'));
    await expect(listenCall).rejects.toThrow('enough');
    const listen = h.sent('subscriptions/listen')[0];
    const ack = listen?.notifications[0];
    expect(ack?.method).toBe('notifications/subscriptions/acknowledged');
    expect(JSON.stringify(ack?.params?.notifications ?? {})).not.toContain(taskId);
    expect(listen?.notifications.some((n) => n.method === 'notifications/tasks')).toBe(false);

    // The owner is unaffected by all of that.
    await expect(alice.client.getTask(taskId)).resolves.toMatchObject({ status: 'working' });
    release.resolve();
    await expect(call).resolves.toMatchObject({ content: [{ type: 'text', text: 'done {}' }] });
  });

  it('S11: task ids are unguessable (long, random, distinct)', async () => {
    const h = createHarness();
    h.server.tool({ name: 'quick', description: 'Quick', taskSupport: 'required', handler: () => text('ok') });
    const { client } = h.connect();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const raw = await client.callToolRaw('quick');
      if (raw.kind === 'task') ids.push(raw.task.taskId);
    }
    expect(ids).toHaveLength(5);
    expect(new Set(ids).size).toBe(5);
    for (const id of ids) expect(id.length).toBeGreaterThanOrEqual(16);
  });
});

describe('resume after restart', () => {
  it('C8: a second McpClient with the same journal resumes a pending task to its result', async () => {
    const h = createHarness();
    const { release, signals } = registerGated(h);
    const journal = new InMemoryTaskJournal();
    const first = h.connect({ principal: 'carol', tasks: { journal } });
    let taskId = '';
    const lost = first.client.callTool('gated', { target: 'web' }, { onStatus: (t) => (taskId = t.taskId) });
    await vi.waitFor(() => expect(taskId).not.toBe(''));
    expect(journal.list()).toMatchObject([
      { taskId, method: 'tools/call', name: 'gated', arguments: { target: 'web' } },
    ]);

    // The process "dies": its transport goes away mid-drive.
    await first.client.close();
    await expect(lost).rejects.toSatisfy((e) => e instanceof TransportError && e.code === 'closed');
    expect(journal.list()).toHaveLength(1); // transport failures keep the entry
    expect(signals[0]?.aborted).toBe(false); // the server keeps running the task

    const second = h.connect({ principal: 'carol', tasks: { journal } });
    const [entry] = journal.list();
    const resumed = second.client.resumeTask(String(entry?.taskId));
    release.resolve();
    await expect(resumed).resolves.toMatchObject({ content: [{ type: 'text', text: 'done {"target":"web"}' }] });
    expect(journal.list()).toEqual([]);
  });
});

describe('task expiry (TTL)', () => {
  it('S44/S18/C20/decision 12: after the TTL the task is gone: -32602, TaskNotFoundError, tool aborted', async () => {
    const h = createHarness({ tasks: { ttlMs: 40 } });
    const { signals } = registerGated(h);
    const journal = new InMemoryTaskJournal();
    // honourTtl off, so the client keeps polling until the server says the task is gone.
    const { client } = h.connect({ tasks: { honourTtl: false, journal } });
    let taskId = '';
    const error = await client.callTool('gated', {}, { onStatus: (t) => (taskId = t.taskId) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskNotFoundError);
    expect((error as TaskNotFoundError).taskId).toBe(taskId);
    expect(journal.list()).toEqual([]);
    const gone = await client.getTask(taskId).catch((e: unknown) => e);
    expect(gone).toSatisfy(isInvalidParams);
    expect((gone as ProtocolError).message).toMatch(/expired|not found/);
    await vi.waitFor(() => expect(signals[0]?.aborted).toBe(true));
  });

  it('C9: past createdAt + ttlMs the client gives up with TaskExpiredError and a best-effort tasks/cancel', async () => {
    const h = createHarness({ tasks: { ttlMs: 60_000 } });
    const { signals } = registerGated(h);
    // A client clock an hour ahead sees the task past its TTL on the first poll; the server still holds it.
    const clock = { now: () => Date.now() + 3_600_000, sleep: (ms: number, signal?: AbortSignal) => sleep(ms, signal) };
    const { client } = h.connect({ clock });
    let taskId = '';
    const error = await client.callTool('gated', {}, { onStatus: (t) => (taskId = t.taskId) }).catch((e: unknown) => e);
    expect((error as TaskExpiredError).code).toBe('task_expired');
    await vi.waitFor(() => expect(h.sent('tasks/cancel')).toHaveLength(1));
    expect(h.sent('tasks/cancel')[0]?.message.params?.taskId).toBe(taskId);
    await vi.waitFor(() => expect(signals[0]?.aborted).toBe(true));
  });
});

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

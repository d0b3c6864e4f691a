/** The 2025-11-25 experimental tasks on the shared TaskStore: creation, the four methods, status per wire. */
import {
  LegacyCreateTaskResultSchema,
  LegacyListTasksResultSchema,
  LegacyTaskSchema,
  RELATED_TASK_META_KEY,
} from '@mcp-tasks/protocol';
import { describe, expect, it, vi } from 'vitest';
import { legacyServerCapabilities } from '../../src/era-2025/legacyInitialize.js';
import { legacyToolCallMode } from '../../src/era-2025/legacyTaskCall.js';
import { legacyToolWire } from '../../src/era-2025/legacyTaskWire.js';
import { TASK_LIMIT_ERROR_CODE } from '../../src/index.js';
import { ENVELOPE, legacyFixture } from './legacyTaskSetup.js';

const TASK_KEYS = ['createdAt', 'lastUpdatedAt', 'pollInterval', 'status', 'statusMessage', 'taskId', 'ttl'];

function expectFlatTask(value: unknown) {
  const task = LegacyTaskSchema.parse(value);
  for (const key of Object.keys(task)) expect(TASK_KEYS).toContain(key);
  return task;
}

describe('task-augmented tools/call (2025-11-25)', () => {
  it('L-T6/L-T7: answers { task } at once, a working Task with ttl and pollInterval in ms', async () => {
    const f = legacyFixture();
    const created = await f.call('slow');
    const { task } = LegacyCreateTaskResultSchema.parse(created);
    expect(Object.keys(created)).toEqual(['task']);
    expectFlatTask(task);
    expect(task).toMatchObject({ status: 'working', ttl: 600_000, pollInterval: 500 });
    expect(task.taskId.length).toBeGreaterThanOrEqual(22);
    expect(task.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/);
  });

  it('L-T6: a tool that finishes at once still answers a task (no immediate-result grace)', async () => {
    const f = legacyFixture({ immediateResultMs: 60_000 });
    const { task } = await f.call('quick');
    expect(task.status).toBe('working');
    expect(await f.route('tasks/result', { taskId: task.taskId })).toEqual({
      content: [{ type: 'text', text: 'quick' }],
      _meta: { [RELATED_TASK_META_KEY]: { taskId: task.taskId } },
    });
  });

  it('L-T21: honours the requested ttl, capped by the server TTL', async () => {
    const f = legacyFixture({ ttlMs: 60_000 });
    expect((await f.call('slow', {}, { ttl: 5_000 })).task.ttl).toBe(5_000);
    expect((await f.call('slow', {}, { ttl: 3_600_000 })).task.ttl).toBe(60_000);
    expect((await f.call('slow')).task.ttl).toBe(60_000);
    const unlimited = legacyFixture({ ttlMs: null });
    expect((await unlimited.call('slow')).task.ttl).toBeNull();
  });

  it('L-T4: taskSupport decides: forbidden + task → -32601, required without task → -32601', async () => {
    const f = legacyFixture();
    const mode = (params: Record<string, unknown>) => legacyToolCallMode(f.tools, params);
    expect(() => mode({ name: 'plain', task: {} })).toThrowError(expect.objectContaining({ code: -32601 }));
    expect(() => mode({ name: 'quick' })).toThrowError(expect.objectContaining({ code: -32601 }));
    expect(mode({ name: 'slow' })).toBe('direct');
    expect(mode({ name: 'plain' })).toBe('direct');
    expect(mode({ name: 'slow', task: { ttl: 10 } })).toBe('task');
    expect(mode({ name: 'quick', task: {} })).toBe('task');
    expect(() => mode({ name: 'slow', task: { ttl: -1 } })).toThrowError(expect.objectContaining({ code: -32602 }));
    expect(() => mode({ name: 'slow', task: 'yes' })).toThrowError(expect.objectContaining({ code: -32602 }));
    expect(() => mode({ name: 'nope', task: {} })).toThrowError(expect.objectContaining({ code: -32602 }));
    expect(await f.rejection(f.call('plain'))).toMatchObject({ code: -32601 });
  });

  it('L-T10: arguments failing the schema give a task already failed with the isError result', async () => {
    const f = legacyFixture();
    const { task } = await f.call('typed', { n: 'seven' });
    expect(task.status).toBe('failed');
    const result = await f.route('tasks/result', { taskId: task.taskId });
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text' }] });
    expect(result).not.toHaveProperty('resultType');
  });

  it('L-T21: over the per-owner task limit a task-augmented call is -32029, also with bad arguments', async () => {
    const f = legacyFixture({ maxTasksPerOwner: 1 });
    await f.call('slow');
    expect(await f.rejection(f.call('slow'))).toMatchObject({ code: TASK_LIMIT_ERROR_CODE });
    expect(await f.rejection(f.call('typed', { n: 'x' }))).toMatchObject({ code: TASK_LIMIT_ERROR_CODE });
    expect((await f.call('slow', {}, {}, 'session-b')).task.status).toBe('working');
  });

  it('L-S36: tools/list shows execution.taskSupport; the capability lists list, cancel, tools.call (L-T1)', () => {
    const f = legacyFixture();
    expect(legacyToolWire(f.tool('quick'))).toMatchObject({
      name: 'quick',
      execution: { taskSupport: 'required' },
    });
    expect(legacyToolWire(f.tool('plain'))).toMatchObject({ execution: { taskSupport: 'forbidden' } });
    expect(legacyServerCapabilities('2025-11-25').tasks).toEqual({
      list: {},
      cancel: {},
      requests: { tools: { call: {} } },
    });
  });
});

describe('tasks/get and tasks/result', () => {
  it('L-T14: tasks/get answers the flat Task, never the result', async () => {
    const f = legacyFixture();
    const { task } = await f.call('slow');
    const got = expectFlatTask(await f.route('tasks/get', { taskId: task.taskId }));
    expect(got).toEqual(task);
    f.gate.resolve();
    await vi.waitFor(async () =>
      expect((await f.route('tasks/get', { taskId: task.taskId })).status).toBe('completed'),
    );
    const done = await f.route('tasks/get', { taskId: task.taskId });
    expectFlatTask(done);
    expect(done).not.toHaveProperty('result');
    expect(done).not.toHaveProperty('_meta');
  });

  it('L-T15: tasks/result blocks until terminal, then returns exactly the result with related-task _meta', async () => {
    const f = legacyFixture();
    const { task } = await f.call('slow');
    let settled = false;
    const result = f.route('tasks/result', { taskId: task.taskId }).finally(() => {
      settled = true;
    });
    expect((await f.route('tasks/get', { taskId: task.taskId })).status).toBe('working');
    expect(settled).toBe(false);
    f.gate.resolve();
    expect(await result).toEqual({
      content: [{ type: 'text', text: 'slow done' }],
      structuredContent: { ok: true },
      _meta: { [RELATED_TASK_META_KEY]: { taskId: task.taskId } },
    });
  });

  it('L-T15: tasks/result rejects with the request signal when it aborts', async () => {
    const f = legacyFixture();
    const { task } = await f.call('slow');
    const controller = new AbortController();
    const pending = f.route('tasks/result', { taskId: task.taskId }, 'session-a', controller.signal);
    controller.abort(new Error('client went away'));
    await expect(pending).rejects.toThrow('client went away');
    expect(f.runtime.ops.stats().pendingWaits).toBe(0);
  });

  it('L-T10: an isError result is failed on this wire, with a statusMessage; tasks/result still returns it', async () => {
    const f = legacyFixture();
    const { task } = await f.call('reports_error');
    const result = await f.route('tasks/result', { taskId: task.taskId });
    expect(result).toEqual({
      content: [{ type: 'text', text: 'disk full' }],
      isError: true,
      _meta: { [RELATED_TASK_META_KEY]: { taskId: task.taskId } },
    });
    const got = await f.route('tasks/get', { taskId: task.taskId });
    expect(got).toMatchObject({ status: 'failed', statusMessage: expect.any(String) });
  });

  it('L-T15: a JSON-RPC error fails the task and tasks/result answers the same error', async () => {
    const f = legacyFixture();
    const { task } = await f.call('rpc_error');
    expect(await f.rejection(f.route('tasks/result', { taskId: task.taskId }))).toEqual({
      code: -32050,
      message: 'Upstream refused',
      data: { upstream: 'db' },
    });
    expect((await f.route('tasks/get', { taskId: task.taskId })).status).toBe('failed');
  });

  it('L-T21/L-T22: a task that expires while tasks/result waits answers -32602', async () => {
    const f = legacyFixture();
    const { task } = await f.call('slow', {}, { ttl: 30 });
    expect(await f.rejection(f.route('tasks/result', { taskId: task.taskId }))).toMatchObject({ code: -32602 });
    expect(await f.rejection(f.route('tasks/get', { taskId: task.taskId }))).toMatchObject({ code: -32602 });
  });

  it('L-T22/L-T23: unknown, malformed and foreign task ids are -32602 on get, result and cancel', async () => {
    const f = legacyFixture();
    const { task } = await f.call('slow');
    for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
      expect(await f.rejection(f.route(method, { taskId: 'no-such-task' }))).toMatchObject({ code: -32602 });
      expect(await f.rejection(f.route(method, { taskId: task.taskId }, 'session-b'))).toMatchObject({
        code: -32602,
      });
      expect(await f.rejection(f.route(method, {}))).toMatchObject({ code: -32602 });
    }
    expect((await f.route('tasks/get', { taskId: task.taskId })).status).toBe('working');
  });
});

describe('tasks/list', () => {
  it('L-T16: pages the requestor’s own tasks with an opaque nextCursor, oldest first', async () => {
    const f = legacyFixture({ listPageSize: 2 });
    const mine: string[] = [];
    for (let i = 0; i < 5; i++) mine.push((await f.call('slow')).task.taskId);
    await f.call('slow', {}, {}, 'session-b');
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = LegacyListTasksResultSchema.parse(
        await f.route('tasks/list', cursor === undefined ? {} : { cursor }),
      );
      for (const task of page.tasks) expectFlatTask(task);
      seen.push(...page.tasks.map((task) => task.taskId));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor !== undefined);
    expect(pages).toBe(3);
    expect(seen.sort()).toEqual([...mine].sort());
    const other = LegacyListTasksResultSchema.parse(await f.route('tasks/list', {}, 'session-b'));
    expect(other.tasks).toHaveLength(1);
    expect(await f.route('tasks/list', {}, 'session-c')).toEqual({ tasks: [] });
  });

  it('L-T16: a cursor it did not hand out, or one that is not a string, is -32602', async () => {
    const f = legacyFixture();
    await f.call('slow');
    expect(await f.rejection(f.route('tasks/list', { cursor: 'bogus' }))).toMatchObject({ code: -32602 });
    expect(await f.rejection(f.route('tasks/list', { cursor: 7 }))).toMatchObject({ code: -32602 });
  });

  it('L-T16: lists only tasks of this wire (a 2026 task of the same owner is left out and -32602 on get)', async () => {
    const f = legacyFixture();
    const { task } = await f.call('slow');
    const modern = await f.runtime.ops.create('session-a', { ttlMs: null, requestMeta: { method: 'tools/call' } });
    const listed = (await f.route('tasks/list', {})) as { tasks: Array<{ taskId: string }> };
    expect(listed.tasks.map((t) => t.taskId)).toEqual([task.taskId]);
    expect(await f.rejection(f.route('tasks/get', { taskId: modern.taskId }))).toMatchObject({ code: -32602 });
  });
});

describe('tasks/cancel', () => {
  it('L-T17: cancels a running task before answering, answers the cancelled Task and aborts the tool', async () => {
    const f = legacyFixture();
    const { task } = await f.call('slow');
    const cancelled = expectFlatTask(await f.route('tasks/cancel', { taskId: task.taskId }));
    expect(cancelled).toMatchObject({ taskId: task.taskId, status: 'cancelled' });
    expect((await f.route('tasks/get', { taskId: task.taskId })).status).toBe('cancelled');
    await vi.waitFor(() => expect(f.aborted).toContain(task.taskId));
    f.gate.resolve();
    expect(await f.rejection(f.route('tasks/result', { taskId: task.taskId }))).toMatchObject({ code: -32603 });
    expect((await f.route('tasks/get', { taskId: task.taskId })).status).toBe('cancelled');
  });

  it('L-T9: a task starts working and its terminal status never changes afterwards', async () => {
    const f = legacyFixture();
    const { task } = await f.call('quick');
    expect(task.status).toBe('working');
    await f.route('tasks/result', { taskId: task.taskId });
    const done = await f.route('tasks/get', { taskId: task.taskId });
    expect(done.status).toBe('completed');
    expect(await f.rejection(f.route('tasks/cancel', { taskId: task.taskId }))).toMatchObject({ code: -32602 });
    expect(await f.route('tasks/get', { taskId: task.taskId })).toEqual(done);
  });

  it('L-T17: a terminal task (cancelled, completed, or failed by isError) is -32602', async () => {
    const f = legacyFixture();
    const running = await f.call('slow');
    await f.route('tasks/cancel', { taskId: running.task.taskId });
    expect(await f.rejection(f.route('tasks/cancel', { taskId: running.task.taskId }))).toMatchObject({
      code: -32602,
    });
    for (const name of ['quick', 'reports_error']) {
      const { task } = await f.call(name);
      await f.route('tasks/result', { taskId: task.taskId });
      expect(await f.rejection(f.route('tasks/cancel', { taskId: task.taskId }))).toMatchObject({ code: -32602 });
    }
  });
});

describe('notifications of a running task', () => {
  it('L-T20: the tool’s progress and log messages carry the related-task _meta', async () => {
    const f = legacyFixture({ envelope: { ...ENVELOPE, progressToken: 'tok-1', logLevel: 'debug' } });
    const { task } = await f.call('reports_progress');
    await f.route('tasks/result', { taskId: task.taskId });
    const related = { [RELATED_TASK_META_KEY]: { taskId: task.taskId } };
    expect(f.notifications.find((n) => n.method === 'notifications/progress')?.params).toEqual({
      progressToken: 'tok-1',
      progress: 1,
      total: 2,
      message: 'half way',
      _meta: related,
    });
    expect(f.notifications.find((n) => n.method === 'notifications/message')?.params).toEqual({
      level: 'info',
      data: 'hello',
      _meta: related,
    });
  });

  it('L-T20: a tool still logs with the related-task _meta after its CreateTaskResult was sent', async () => {
    const f = legacyFixture({ envelope: { ...ENVELOPE, logLevel: 'debug' } });
    const { task } = await f.call('reports_later');
    f.gate.resolve();
    await f.route('tasks/result', { taskId: task.taskId });
    expect(f.notifications.find((n) => n.method === 'notifications/message')?.params).toEqual({
      level: 'info',
      data: 'later',
      _meta: { [RELATED_TASK_META_KEY]: { taskId: task.taskId } },
    });
  });
});

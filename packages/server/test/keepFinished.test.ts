import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { McpServer } from '../src/index.js';
import { TASK_LIMIT_ERROR_CODE } from '../src/index.js';
import { fixtureServer, type Hooks } from './fixture.js';
import { deferred, EXT_CAPS, expectCreateTask, Loopback } from './harness.js';

const HOUR = 3_600_000;
let server: McpServer;

beforeEach(() => {
  // Timers still run (tools and waits progress); the test jumps the clock past the retention.
  vi.useFakeTimers({ shouldAdvanceTime: true });
});
afterEach(async () => {
  await server?.close();
  vi.useRealTimers();
});

function setup(tasks: {
  keepFinishedMs?: number | null;
  maxTasksPerPrincipal?: number;
  maxFinishedTasksPerPrincipal?: number;
}) {
  const hooks: Hooks = { gate: deferred().promise, lateResults: 0 };
  server = fixtureServer({ tasks: { ttlMs: HOUR, ...tasks } }, hooks);
  return new Loopback(server, { caps: EXT_CAPS });
}

async function expectGone(client: Loopback, taskId: string) {
  const error = await client.fail('tasks/get', { taskId });
  expect(error.code).toBeTypeOf('number');
}

describe('tasks.keepFinishedMs (issue 18 defect 1)', () => {
  it('drops a completed task with a 1 h TTL after keepFinishedMs, and tasks/get shows the shortened ttlMs', async () => {
    const client = setup({ keepFinishedMs: 60_000 });
    const taskId = expectCreateTask(await client.call('slow_compute', { seconds: 0 }));
    const task = await client.waitForTerminal(taskId);
    expect(task.status).toBe('completed');
    expect(task.ttlMs).toBeGreaterThanOrEqual(60_000);
    expect(task.ttlMs).toBeLessThan(HOUR);
    await vi.advanceTimersByTimeAsync(Number(task.ttlMs) + 1);
    await expectGone(client, taskId);
  });

  it('drops a cancelled task after keepFinishedMs', async () => {
    const client = setup({ keepFinishedMs: 60_000 });
    const taskId = expectCreateTask(await client.call('slow_compute', { seconds: 600 }));
    await client.ok('tasks/cancel', { taskId });
    const task = await client.ok('tasks/get', { taskId });
    expect(task).toMatchObject({ status: 'cancelled' });
    expect(task.ttlMs).toBeLessThan(HOUR);
    await vi.advanceTimersByTimeAsync(Number(task.ttlMs) + 1);
    await expectGone(client, taskId);
  });

  it('keeps finished tasks until the TTL when keepFinishedMs is null', async () => {
    const client = setup({ keepFinishedMs: null });
    const taskId = expectCreateTask(await client.call('slow_compute', { seconds: 0 }));
    expect(await client.waitForTerminal(taskId)).toMatchObject({ status: 'completed', ttlMs: HOUR });
    await vi.advanceTimersByTimeAsync(30 * 60_000);
    expect(await client.ok('tasks/get', { taskId })).toMatchObject({ status: 'completed', ttlMs: HOUR });
  });

  it('keeps finished tasks 10 minutes by default', async () => {
    const client = setup({});
    const taskId = expectCreateTask(await client.call('slow_compute', { seconds: 0 }));
    const task = await client.waitForTerminal(taskId);
    expect(task.ttlMs).toBeGreaterThanOrEqual(600_000);
    expect(task.ttlMs).toBeLessThan(HOUR);
  });

  it('counts only live tasks against maxTasksPerPrincipal: a finished task frees its place at once (long soak)', async () => {
    const client = setup({ maxTasksPerPrincipal: 1 });
    const running = expectCreateTask(await client.call('slow_compute', { seconds: 60 }));
    expect(await client.fail('tools/call', { name: 'slow_compute', arguments: { seconds: 0 } })).toMatchObject({
      code: TASK_LIMIT_ERROR_CODE,
    });
    await client.ok('tasks/cancel', { taskId: running });
    await client.waitForTerminal(running);
    const next = expectCreateTask(await client.call('slow_compute', { seconds: 0 }));
    await client.waitForTerminal(next);
    expectCreateTask(await client.call('slow_compute', { seconds: 0 }));
  });

  it('keeps at most maxFinishedTasksPerPrincipal finished tasks, dropping the oldest-finished on the next create', async () => {
    const client = setup({ maxFinishedTasksPerPrincipal: 1 });
    const first = expectCreateTask(await client.call('slow_compute', { seconds: 0 }));
    await client.waitForTerminal(first);
    const second = expectCreateTask(await client.call('slow_compute', { seconds: 0 }));
    await client.waitForTerminal(second);
    expectCreateTask(await client.call('slow_compute', { seconds: 60 }));
    expect(await client.fail('tasks/get', { taskId: first })).toMatchObject({ code: -32602 });
    expect(await client.ok('tasks/get', { taskId: second })).toMatchObject({ status: 'completed' });
  });
});

/**
 * A tool's outcome reaches the task although the store was briefly unavailable (a database restarting): the write
 * is retried while this instance holds the lease, and given up (reported) once the lease lapsed or on shutdown.
 */
import { ErrorCode, ProtocolError } from '@mcp-tasks/protocol';
import { InMemoryTaskStore, type TaskRecord, type TaskStore, TaskStoreError } from '@mcp-tasks/task-store';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { McpServer } from '../src/index.js';
import { expectCreateTask, Loopback } from './harness.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  vi.useRealTimers();
});

const unavailable = (what: string) =>
  new ProtocolError(ErrorCode.InternalError, `Task store unavailable: PostgreSQL did not answer (${what})`);

/**
 * An in-memory store whose writes fail while `failing(next)` says so: `attempts` counts the completing writes.
 * Without `update`, every transition is a `get` then a `swap`, so `swap` sees each write.
 */
function flakyStore(failing: (next: TaskRecord, attempt: number) => Error | undefined) {
  const inner = new InMemoryTaskStore();
  cleanups.push(() => inner.close());
  const counts = { completing: 0 };
  const store: TaskStore = {
    create: (owner, options) => inner.create(owner, options),
    get: (owner, taskId) => inner.get(owner, taskId),
    list: (owner, options) => inner.list(owner, options),
    swap: async (owner, taskId, version, next) => {
      if (next.status === 'completed') counts.completing += 1;
      const error = failing(next, counts.completing);
      if (error !== undefined) throw error;
      return inner.swap(owner, taskId, version, next);
    },
    expireDue: (now, limit) => inner.expireDue(now, limit),
    lapsedLeases: (now, limit) => inner.lapsedLeases(now, limit),
    watch: (listener) => inner.watch(listener),
    close: async () => undefined,
  };
  return { store, counts };
}

function serve(store: TaskStore, leaseMs = 30_000) {
  const errors: unknown[] = [];
  const server = new McpServer({
    serverInfo: { name: 'retrying', version: '1.0.0' },
    taskStore: store,
    tasks: { workerId: 'worker-a', leaseMs },
    onError: (error) => errors.push(error),
  });
  server.tool({
    name: 'answer',
    description: 'Answers at once',
    taskSupport: 'required',
    handler: () => ({ content: [{ type: 'text', text: '42' }] }),
  });
  cleanups.push(() => server.close({ graceMs: 50 }));
  return { server, client: new Loopback(server), errors };
}

describe('writing a tool outcome while the task store is unavailable', () => {
  it('retries until the store answers: the task completes with the result and nothing is reported', async () => {
    const { store, counts } = flakyStore((next, attempt) =>
      next.status === 'completed' && attempt <= 3 ? unavailable(`attempt ${attempt}`) : undefined,
    );
    const { client, errors } = serve(store);
    const taskId = expectCreateTask(await client.call('answer'));
    const task = await client.waitForTerminal(taskId);
    expect(task).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: '42' }] } });
    expect(counts.completing).toBe(4);
    expect(errors).toEqual([]);
  });

  it('retries a status update as well, so a tool that sets its status during an outage still completes', async () => {
    let statusWrites = 0;
    const { store } = flakyStore((next) => {
      if (next.statusMessage !== 'halfway' || next.status !== 'working') return undefined;
      statusWrites += 1;
      return statusWrites <= 3 ? unavailable(`status ${statusWrites}`) : undefined;
    });
    const { server, client, errors } = serve(store);
    server.tool({
      name: 'reporting',
      description: 'Sets its status, then answers',
      taskSupport: 'required',
      handler: async (_args, ctx) => {
        await ctx.setStatus('halfway');
        return { content: [{ type: 'text', text: 'done' }] };
      },
    });
    const taskId = expectCreateTask(await client.call('reporting'));
    const task = await client.waitForTerminal(taskId);
    expect(task).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'done' }] } });
    expect(statusWrites).toBe(4);
    expect(errors).toEqual([]);
  });

  it('does not retry an error that is not transient: it is reported once', async () => {
    const refusal = new TaskStoreError('invalid_argument', 'refused');
    const { store, counts } = flakyStore((next) => (next.status === 'completed' ? refusal : undefined));
    const { client, errors } = serve(store);
    const taskId = expectCreateTask(await client.call('answer'));
    await vi.waitFor(() => expect(errors).toContain(refusal), { timeout: 5_000 });
    expect(counts.completing).toBe(1);
    expect(await client.ok('tasks/get', { taskId })).toMatchObject({ status: 'working' });
  });

  it('gives up and reports the error once its lease lapsed (renewals fail as well)', async () => {
    const completing = unavailable('completing');
    const renewing = unavailable('renewing');
    let toolDone = false;
    const { store, counts } = flakyStore((next) => {
      if (next.status === 'completed') return completing;
      return toolDone ? renewing : undefined;
    });
    const { client, errors } = serve(store, 300);
    const taskId = expectCreateTask(await client.call('answer'));
    toolDone = true;
    await vi.waitFor(() => expect(errors).toContain(completing), { timeout: 5_000 });
    expect(counts.completing).toBeGreaterThan(1);
    expect(await client.ok('tasks/get', { taskId })).toMatchObject({ status: 'working' });
  });

  it('stops retrying on shutdown, leaving no timer behind', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { store, counts } = flakyStore((next) => (next.status === 'completed' ? unavailable('down') : undefined));
    const { server, client } = serve(store);
    expectCreateTask(await client.call('answer'));
    await vi.waitFor(() => expect(counts.completing).toBeGreaterThan(1), { timeout: 5_000 });
    await server.close({ graceMs: 50 });
    const attempts = counts.completing;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(counts.completing).toBe(attempts);
  });
});

/**
 * Two server instances on one PostgreSQL, in one process: everything one instance writes reaches the tools and
 * streams of the other through the database alone (they share nothing in memory).
 */
import { freshDatabase } from '@mcp-tasks/postgres-harness';
import { isTaskAbort, type McpServer } from '@mcp-tasks/server';
import { beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { type Instance, instance } from './instances.js';

let url = '';
let tables = 0;
beforeAll(async () => {
  url = await freshDatabase(inject('postgresUrl'), 'cross');
});

const ASK = {
  message: 'Name?',
  requestedSchema: { type: 'object' as const, properties: { name: { type: 'string' as const } } },
};

/** Registers on `server` a tool that asks a name (or waits to be cancelled) and records its abort reasons. */
function register(server: McpServer, name: string, reasons: unknown[], resumable = false): void {
  server.tool({
    name: 'job',
    description: 'Asks a name and greets it',
    taskSupport: 'required',
    resumable,
    handler: async (_args, ctx) => {
      ctx.signal.addEventListener('abort', () => reasons.push(ctx.signal.reason));
      const answer = await ctx.elicit(ASK);
      return { content: [{ type: 'text', text: `${name} greets ${answer.content?.name}` }] };
    },
  });
}

function pair(leaseMs = 30_000, resumable = false) {
  const table = `tasks_${++tables}`;
  const a = instance(url, table, 'worker-a', leaseMs);
  const b = instance(url, table, 'worker-b', leaseMs);
  const reasons = { a: [] as unknown[], b: [] as unknown[] };
  register(a.server, 'worker-a', reasons.a, resumable);
  register(b.server, 'worker-b', reasons.b, resumable);
  return { a, b, reasons, table };
}

async function startJob(at: Instance): Promise<string> {
  const created = await at.call('tools/call', { name: 'job', arguments: {} });
  expect(created.resultType).toBe('task');
  return created.taskId as string;
}

async function waitForStatus(at: Instance, taskId: string, status: string) {
  return vi.waitFor(
    async () => {
      const task = await at.call('tasks/get', { taskId });
      expect(task.status).toBe(status);
      return task;
    },
    { timeout: 10_000 },
  );
}

describe('two server instances on one PostgreSQL', () => {
  it('reads at B a task created at A, and an answer given at B wakes the tool waiting at A', async () => {
    const { a, b } = pair();
    const taskId = await startJob(a);
    const asked = await waitForStatus(b, taskId, 'input_required');
    const [key] = Object.keys(asked.inputRequests as object);
    await b.call('tasks/update', {
      taskId,
      inputResponses: { [key as string]: { action: 'accept', content: { name: 'ann' } } },
    });
    const done = await waitForStatus(b, taskId, 'completed');
    expect(done).toMatchObject({ result: { content: [{ text: 'worker-a greets ann' }] } });
  });

  it('a cancel at B aborts the tool running at A (the tool observes its signal)', async () => {
    const { a, b, reasons } = pair();
    const taskId = await startJob(a);
    await waitForStatus(b, taskId, 'input_required');
    await b.call('tasks/cancel', { taskId });
    await vi.waitFor(() => expect(reasons.a.some((reason) => isTaskAbort(reason, 'cancelled'))).toBe(true));
    expect(await a.call('tasks/get', { taskId })).toMatchObject({ status: 'cancelled' });
  });

  it('a listen stream at B carries the status changes of a task running at A', async () => {
    const { a, b } = pair();
    const taskId = await startJob(a);
    await waitForStatus(b, taskId, 'input_required');
    const stream = b.listen({ taskIds: [taskId] });
    await vi.waitFor(() => expect(stream.seen.length).toBeGreaterThan(0));
    await a.call('tasks/cancel', { taskId });
    const statuses = () =>
      stream.seen
        .filter((n) => n.method === 'notifications/tasks')
        .map((n) => (n.params as { status?: string }).status);
    await vi.waitFor(() => expect(statuses()).toContain('cancelled'));
    stream.close();
    await stream.done;
  });

  it('fails the task of a worker that stopped renewing its lease with the lost-worker error', async () => {
    const { a, b, reasons } = pair(300);
    const taskId = await startJob(a);
    await waitForStatus(b, taskId, 'input_required');
    await a.store.close(); // worker a loses its database: it can renew nothing
    const failed = await waitForStatus(b, taskId, 'failed');
    expect(failed).toMatchObject({
      error: { code: -32603, message: 'Worker worker-a stopped renewing its lease; the task was lost' },
    });
    // A's own tick notices the lapse on its clock, independently of B's sweep: under load it can come seconds later.
    await vi.waitFor(() => expect(reasons.a.some((reason) => isTaskAbort(reason, 'lease_lost'))).toBe(true), {
      timeout: 10_000,
    });
  });

  it('runs a resumable tool again on B when A stops renewing, and B completes it', async () => {
    const { a, b } = pair(300, true);
    const taskId = await startJob(a);
    await waitForStatus(b, taskId, 'input_required');
    await a.store.close();
    const asked = await vi.waitFor(
      async () => {
        const record = await b.store.get('\u0000anonymous', taskId);
        expect(record?.lease?.worker).toBe('worker-b');
        return record;
      },
      { timeout: 10_000 },
    );
    const [key] = Object.keys(asked?.inputRequests ?? {});
    await b.call('tasks/update', {
      taskId,
      inputResponses: { [key as string]: { action: 'accept', content: { name: 'bo' } } },
    });
    expect(await waitForStatus(b, taskId, 'completed')).toMatchObject({
      result: { content: [{ text: 'worker-b greets bo' }] },
    });
  });

  it('loses no task when both instances restart: a completed result is still returned', async () => {
    const { a, b, table } = pair();
    const taskId = await startJob(a);
    const asked = await waitForStatus(b, taskId, 'input_required');
    const [key] = Object.keys(asked.inputRequests as object);
    await b.call('tasks/update', {
      taskId,
      inputResponses: { [key as string]: { action: 'accept', content: { name: 'cy' } } },
    });
    await waitForStatus(a, taskId, 'completed');
    await a.server.close({ graceMs: 50 });
    await b.server.close({ graceMs: 50 });
    const restarted = instance(url, table, 'worker-c');
    expect(await restarted.call('tasks/get', { taskId })).toMatchObject({
      status: 'completed',
      result: { content: [{ text: 'worker-a greets cy' }] },
    });
  });
});

/** LeaseKeeper's sweep: a task whose worker stopped renewing fails, kept no longer than `keepFinishedMs`. */
import { InMemoryTaskStore, TaskOperations } from '@mcp-tasks/task-store';
import { afterEach, describe, expect, it } from 'vitest';
import { LeaseKeeper } from '../src/leaseKeeper.js';
import { ToolSupervisor } from '../src/toolSupervisor.js';

const HOUR = 3_600_000;
const OWNER = 'alice';
const stores: InMemoryTaskStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

/** A store holding one task whose lease (of `dead-worker`) lapsed, and a keeper of `worker-b` sweeping it. */
async function lapsedTask(keepFinishedMs: number | null) {
  const store = new InMemoryTaskStore();
  stores.push(store);
  const ops = new TaskOperations(store);
  const errors: unknown[] = [];
  const common = { ops, workerId: 'worker-b', leaseMs: 1_000, report: (error: unknown) => errors.push(error) };
  const supervisor = new ToolSupervisor({
    ...common,
    ttlMs: HOUR,
    pollIntervalMs: 1_000,
    immediateResultMs: 0,
    maxInputRequestsPerTask: 10,
    newTaskId: () => 'unused',
  });
  const keeper = new LeaseKeeper({ ...common, supervisor, keepFinishedMs, resume: () => false });
  const created = await store.create(OWNER, {
    ttlMs: HOUR,
    pollIntervalMs: 1_000,
    lease: { worker: 'dead-worker', until: Date.now() - 1 },
  });
  return { store, keeper, taskId: created.taskId, errors };
}

describe('LeaseKeeper lost-worker failure', () => {
  it('fails the task and shortens its ttlMs to the time since creation plus keepFinishedMs', async () => {
    const { store, keeper, taskId, errors } = await lapsedTask(60_000);
    await keeper.tick();
    const record = await store.get(OWNER, taskId);
    expect(record).toMatchObject({
      status: 'failed',
      error: { code: -32603, message: 'Worker dead-worker stopped renewing its lease; the task was lost' },
    });
    expect(record?.ttlMs).toBeGreaterThanOrEqual(60_000);
    expect(record?.ttlMs).toBeLessThan(HOUR);
    expect(errors).toEqual([]);
  });

  it('keeps the TTL of the failed task when keepFinishedMs is null', async () => {
    const { store, keeper, taskId } = await lapsedTask(null);
    await keeper.tick();
    expect(await store.get(OWNER, taskId)).toMatchObject({ status: 'failed', ttlMs: HOUR });
  });
});

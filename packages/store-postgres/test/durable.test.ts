import { freshDatabase } from '@mcp-tasks/postgres-harness';
import { TaskOperations } from '@mcp-tasks/task-store';
import pg from 'pg';
import { beforeAll, describe, expect, inject, it, onTestFinished, vi } from 'vitest';
import { PostgresTaskStore } from '../src/index.js';

let url = '';
let tables = 0;
beforeAll(async () => {
  url = await freshDatabase(inject('postgresUrl'), 'durable');
});

function open(table: string, instanceId?: string): PostgresTaskStore {
  const store = new PostgresTaskStore({
    connectionString: url,
    table,
    onError: () => undefined,
    ...(instanceId === undefined ? {} : { instanceId }),
  });
  onTestFinished(() => store.close());
  return store;
}

async function admin(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  onTestFinished(() => client.end());
  return client;
}

describe('PostgresTaskStore durable execution', () => {
  it('migrates a table made before durable execution: old tasks stay as they were, new ones are durable', async () => {
    const table = `durable_${++tables}`;
    const before = open(table);
    const old = await before.create('alice', { ttlMs: null, lease: { worker: 'w0', until: Date.now() - 1 } });
    // The shape of a database from before: no runnable time, no step table.
    const client = await admin();
    await client.query(`ALTER TABLE ${table} DROP COLUMN runnable_at; DROP TABLE ${table}_steps`);
    await before.close();

    const after = open(table);
    await after.migrate();
    expect((await after.get('alice', old.taskId))?.execution).toBeUndefined();
    expect((await after.lapsedLeases(Date.now(), 10)).map((record) => record.taskId)).toEqual([old.taskId]);
    const task = await after.create('alice', { ttlMs: null, durable: true });
    const [claimed] = await after.claim({ worker: 'w1', limit: 10, leaseMs: 60_000, now: Date.now() });
    expect(claimed?.taskId).toBe(task.taskId);
    const step = await after.recordStep('alice', task.taskId, 'w1', { name: 'a', attempt: 1, result: { ok: true } });
    expect(step.ok).toBe(true);
    const columns = await client.query(
      `SELECT column_name FROM information_schema.columns WHERE table_name = $1 AND column_name = 'runnable_at'`,
      [table],
    );
    expect(columns.rowCount).toBe(1);
  });

  it('writes a completed step in one round trip to the database', async () => {
    const store = open(`durable_${++tables}`);
    const task = await store.create('alice', {
      ttlMs: null,
      durable: true,
      lease: { worker: 'w1', until: Date.now() + 60_000 },
    });
    await store.steps('alice', task.taskId); // migrated and connected
    const queries = vi.spyOn(pg.Client.prototype, 'query');
    onTestFinished(() => queries.mockRestore());
    for (let i = 0; i < 5; i++) {
      await store.recordStep('alice', task.taskId, 'w1', { name: `step-${i}`, attempt: 1, result: { i } });
    }
    expect(queries).toHaveBeenCalledTimes(5);
    expect((await store.steps('alice', task.taskId)).map((step) => step.result)).toEqual(
      [0, 1, 2, 3, 4].map((i) => ({ i })),
    );
  });

  it('is timed and its writes observed through TaskOperations hooks, durable methods included', async () => {
    const calls: string[] = [];
    const writes: Array<[string | undefined, string]> = [];
    const ops = new TaskOperations(open(`durable_${++tables}`), {
      onStoreCall: (operation, durationMs, failed) => {
        expect(durationMs).toBeGreaterThanOrEqual(0);
        calls.push(`${operation}${failed ? ' failed' : ''}`);
      },
      onWrite: (before, after) => writes.push([before?.status, after.status]),
    });
    const store = ops.store as PostgresTaskStore;
    const lease = { worker: 'w1', until: Date.now() + 60_000 };
    const task = await ops.create('alice', { ttlMs: null, durable: true, lease });
    await store.recordStep('alice', task.taskId, 'w1', { name: 'a', attempt: 1, result: 1 });
    await ops.complete('alice', task.taskId, { content: [] });
    expect(calls).toEqual(expect.arrayContaining(['create', 'recordStep']));
    expect(calls.some((call) => call === 'update' || call === 'swap')).toBe(true);
    expect(writes).toEqual([
      [undefined, 'working'],
      ['working', 'completed'],
    ]);
    await ops.close();
  });

  it('a claim on one instance is seen on another; their concurrent claims of 40 tasks never overlap', async () => {
    const table = `durable_${++tables}`;
    const a = open(table, 'instance-a');
    const b = open(table, 'instance-b');
    const seen: string[] = [];
    const unwatch = await b.watch((event) => {
      if (event.record.execution?.state === 'running') seen.push(event.record.taskId);
    });
    onTestFinished(unwatch);
    const ops = new TaskOperations(a);
    const ids = new Set<string>();
    for (let i = 0; i < 40; i++) ids.add((await ops.create(`owner-${i % 4}`, { ttlMs: null, durable: true })).taskId);
    const claims = await Promise.all(
      [a, b, a, b].map((store, i) => store.claim({ worker: `w${i}`, limit: 15, leaseMs: 60_000, now: Date.now() })),
    );
    const taken = claims.flat().map((record) => record.taskId);
    expect(new Set(taken).size).toBe(taken.length);
    expect(new Set(taken)).toEqual(ids);
    const byA = claims[0]?.map((record) => record.taskId) ?? [];
    await vi.waitFor(() => expect(seen).toEqual(expect.arrayContaining(byA)));
  });
});

import { freshDatabase } from '@mcp-tasks/postgres-harness';
import { isTaskStoreError, TaskOperations, type TaskRecord } from '@mcp-tasks/task-store';
import pg from 'pg';
import { beforeAll, describe, expect, inject, it, onTestFinished, vi } from 'vitest';
import { MAX_GET_BATCH } from '../src/getBatcher.js';
import { PostgresTaskStore, type PostgresTaskStoreOptions, TaskStoreUnavailableError } from '../src/index.js';

let url = '';
let tables = 0;
beforeAll(async () => {
  url = await freshDatabase(inject('postgresUrl'), 'gets');
});

function open(options: Partial<PostgresTaskStoreOptions> = {}): PostgresTaskStore {
  const store = new PostgresTaskStore({ connectionString: url, table: `gets_${++tables}`, ...options });
  onTestFinished(() => store.close());
  return store;
}

/** Counts the statements sent to the database from now until the test ends (one per round trip). */
function countQueries() {
  const queries = vi.spyOn(pg.Client.prototype, 'query');
  onTestFinished(() => queries.mockRestore());
  return queries;
}

async function settle<T>(promises: Promise<T>[]): Promise<({ value: T } | { error: unknown })[]> {
  return Promise.all(
    promises.map((p) =>
      p.then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      ),
    ),
  );
}

describe('PostgresTaskStore coalesced gets', () => {
  it('answers each caller of one statement by its own id and owner, duplicates included', async () => {
    const store = open();
    const a = await store.create('alice', { ttlMs: null });
    const b = await store.create('bob', { ttlMs: null });
    const nul = await store.create('a\u0000b', { ttlMs: null });
    const queries = countQueries();
    const got = await Promise.all([
      store.get('alice', a.taskId),
      store.get('bob', a.taskId),
      store.get('alice', a.taskId),
      store.get('bob', b.taskId),
      store.get('alice', b.taskId),
      store.get('alice', 'no-such-task'),
      store.get('a\u0000b', nul.taskId),
      store.get('a', nul.taskId),
    ]);
    expect(queries).toHaveBeenCalledTimes(1);
    expect(got).toEqual([a, undefined, a, b, undefined, undefined, nul, undefined]);
    expect(got[2]).toBe(got[0]); // the same (id, owner) shares one frozen record
    expect(Object.isFrozen(got[0])).toBe(true);
  });

  it('returns the right record to each of 500 concurrent gets, in one statement per batch of distinct ids', async () => {
    const store = open();
    const owners = ['alice', 'bob'];
    const tasks: TaskRecord[] = [];
    for (let i = 0; i < 200; i += 50) {
      tasks.push(
        ...(await Promise.all(
          Array.from({ length: 50 }, (_, j) => store.create(owners[(i + j) % 2] as string, { ttlMs: null })),
        )),
      );
    }
    const asks = Array.from({ length: 500 }, (_, i) => ({ task: tasks[(i * 7) % tasks.length] as TaskRecord, i }));
    // Every third get asks with the other owner's name: nothing.
    const ownerOf = ({ task, i }: { task: TaskRecord; i: number }) =>
      i % 3 === 0 ? (task.owner === 'alice' ? 'bob' : 'alice') : task.owner;
    const queries = countQueries();
    const got = await Promise.all(asks.map((ask) => store.get(ownerOf(ask), ask.task.taskId)));
    expect(got).toEqual(asks.map(({ task, i }) => (i % 3 === 0 ? undefined : task)));
    expect(queries).toHaveBeenCalledTimes(Math.ceil(200 / MAX_GET_BATCH));
  });

  it('sees a write that resolved before the get, even while an earlier get is in flight', async () => {
    const store = open({ maxConnections: 2 });
    const ops = new TaskOperations(store);
    const task = await ops.create('alice', { ttlMs: null });
    for (let round = 0; round < 10; round++) {
      const earlier = store.get('alice', task.taskId);
      await ops.setStatusMessage('alice', task.taskId, `round ${round}`);
      const [later, again] = await Promise.all([store.get('alice', task.taskId), store.get('alice', task.taskId)]);
      expect(later?.statusMessage).toBe(`round ${round}`);
      expect(again).toBe(later);
      expect((await earlier)?.taskId).toBe(task.taskId);
    }
  });

  it('rejects every caller of a failed statement with the error a lone get gets (statement timeout)', async () => {
    const table = `gets_${++tables}`;
    const store = open({ table, statementTimeoutMs: 300, onError: () => undefined });
    const task = await store.create('alice', { ttlMs: null });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    onTestFinished(() => admin.end());
    await admin.query(`BEGIN; LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
    const queries = countQueries();
    const results = await settle([
      store.get('alice', task.taskId),
      store.get('bob', task.taskId),
      store.get('alice', task.taskId),
      store.get('alice', 'other'),
    ]);
    expect(queries).toHaveBeenCalledTimes(1);
    const errors = results.map((result) => ('error' in result ? result.error : result));
    for (const error of errors) {
      expect(error).toBeInstanceOf(TaskStoreUnavailableError);
      expect(error).toMatchObject({ code: -32603, data: { retryAfterSeconds: 1 } });
    }
    const lone = open({ table, statementTimeoutMs: 300, coalesceGets: false, onError: () => undefined });
    const [loneResult] = await settle([lone.get('alice', task.taskId)]);
    expect(loneResult).toMatchObject({ error: { message: (errors[0] as Error).message } });
    await admin.query('COMMIT');
    expect(await store.get('alice', task.taskId)).toEqual(task);
  });

  it('answers a lone get with no timer running (setTimeout, setInterval, setImmediate faked)', async () => {
    const store = open();
    const task = await store.create('alice', { ttlMs: null });
    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval', 'setImmediate'] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    expect(await store.get('alice', task.taskId)).toEqual(task);
  });

  it('sends one statement per get when coalesceGets is false, with the same answers', async () => {
    const store = open({ coalesceGets: false });
    const task = await store.create('alice', { ttlMs: null });
    const queries = countQueries();
    const got = await Promise.all([store.get('alice', task.taskId), store.get('bob', task.taskId)]);
    expect(got).toEqual([task, undefined]);
    expect(queries).toHaveBeenCalledTimes(2);
  });

  it('refuses gets once closed', async () => {
    const store = open();
    const task = await store.create('alice', { ttlMs: null });
    await store.close();
    const error = await store.get('alice', task.taskId).catch((e: unknown) => e);
    expect(isTaskStoreError(error) && error.code).toBe('closed');
  });
});

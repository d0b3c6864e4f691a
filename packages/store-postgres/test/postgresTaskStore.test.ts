import { type AddressInfo, createServer, Socket } from 'node:net';
import { freshDatabase } from '@mcp-tasks/postgres-harness';
import { isTaskStoreError, type TaskEvent, TaskOperations, type TaskStoreLimits } from '@mcp-tasks/task-store';
import pg from 'pg';
import { beforeAll, describe, expect, inject, it, onTestFinished, vi } from 'vitest';
import { PostgresTaskStore, TaskStoreUnavailableError } from '../src/index.js';

let url = '';
let tables = 0;
beforeAll(async () => {
  url = await freshDatabase(inject('postgresUrl'), 'store');
});

/** Two stores (two instances) on one table, closed after the test. */
function open(limits: TaskStoreLimits = {}, table = `tasks_${++tables}`): PostgresTaskStore {
  const store = new PostgresTaskStore({ ...limits, connectionString: url, table, onError: () => undefined });
  onTestFinished(() => store.close());
  return store;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('PostgresTaskStore', () => {
  it('enforces maxTasksPerOwner per owner, also for concurrent creates', async () => {
    const store = open({ maxTasksPerOwner: 3 });
    const outcomes = await Promise.allSettled(Array.from({ length: 8 }, () => store.create('alice', { ttlMs: null })));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(3);
    for (const o of outcomes) if (o.status === 'rejected') expect(isTaskStoreError(o.reason, 'task_limit')).toBe(true);
    await expect(store.create('bob', { ttlMs: null })).resolves.toMatchObject({ owner: 'bob' });
  });

  it('lists by keyset on its index: a page read on one instance continues on another, NUL owners included', async () => {
    const table = `tasks_${++tables}`;
    const a = open({}, table);
    const b = open({}, table);
    const owner = 'anon\u0000one';
    const created = [];
    for (let i = 0; i < 5; i++) created.push(await a.create(owner, { ttlMs: null }));
    await a.create('other', { ttlMs: null });
    const first = await a.list(owner, { limit: 3 });
    const rest = await b.list(owner, {
      limit: 3,
      ...(first.nextCursor === undefined ? {} : { cursor: first.nextCursor }),
    });
    expect(rest.nextCursor).toBeUndefined();
    const ids = [...first.tasks, ...rest.tasks].map((task) => task.taskId);
    expect(ids.sort()).toEqual(created.map((task) => task.taskId).sort());
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    onTestFinished(() => client.end());
    const indexes = await client.query(`SELECT indexdef FROM pg_indexes WHERE tablename = $1 AND indexname = $2`, [
      table,
      `${table}_owner_created`,
    ]);
    expect(indexes.rows).toHaveLength(1);
  });

  it('rejects a ttl above maxTtlMs, or null under a maximum, with ttl_limit', async () => {
    const store = open({ maxTtlMs: 60_000 });
    expect(isTaskStoreError(await rejection(store.create('alice', { ttlMs: 60_001 })), 'ttl_limit')).toBe(true);
    expect(isTaskStoreError(await rejection(store.create('alice', { ttlMs: null })), 'ttl_limit')).toBe(true);
    const ops = new TaskOperations(store);
    const task = await store.create('alice', { ttlMs: 1_000 });
    expect(
      isTaskStoreError(await rejection(ops.compareAndSwap('alice', task.taskId, 1, { ttlMs: 70_000 })), 'ttl_limit'),
    ).toBe(true);
  });

  it('refuses an id and owner too long for a notification with invalid_argument', async () => {
    const store = open();
    const error = await rejection(store.create('x'.repeat(2_000), { ttlMs: null }));
    expect(isTaskStoreError(error, 'invalid_argument')).toBe(true);
  });

  it('stores owners and payloads containing U+0000 and U+E000 unchanged', async () => {
    const store = open();
    const ops = new TaskOperations(store);
    const owner = '\u0000anonymous\uE000';
    const task = await ops.create(owner, { ttlMs: null, requestMeta: { 'k\u0000': 'v\u0000\\u0000\uE000\uE001' } });
    await ops.setStatusMessage(owner, task.taskId, 'a\u0000b');
    const stored = await store.get(owner, task.taskId);
    expect(stored?.requestMeta).toEqual({ 'k\u0000': 'v\u0000\\u0000\uE000\uE001' });
    expect(stored?.statusMessage).toBe('a\u0000b');
    expect(await store.get('anonymous', task.taskId)).toBeUndefined();
  });

  it('answers the same with and without prepared statements, each statement run twice on one connection', async () => {
    for (const preparedStatements of [true, false]) {
      const store = new PostgresTaskStore({
        connectionString: url,
        table: `tasks_${++tables}`,
        maxConnections: 1,
        preparedStatements,
        onError: () => undefined,
      });
      onTestFinished(() => store.close());
      const ops = new TaskOperations(store);
      for (let round = 0; round < 2; round++) {
        const task = await ops.create('alice', { ttlMs: 60_000, lease: { worker: 'w', until: Date.now() - 1 } });
        expect(await store.get('alice', task.taskId)).toEqual(task);
        expect(await store.get('bob', task.taskId)).toBeUndefined();
        await ops.setStatusMessage('alice', task.taskId, `round ${round}`);
        expect((await store.get('alice', task.taskId))?.statusMessage).toBe(`round ${round}`);
        expect((await store.list('alice', { limit: 10 })).tasks).toHaveLength(round + 1);
        expect((await store.lapsedLeases(Date.now(), 10)).map((r) => r.taskId)).toContain(task.taskId);
      }
    }
  });

  it('keeps tasks across a restart of the store (a new instance on the same table)', async () => {
    const table = `tasks_${++tables}`;
    const first = open({}, table);
    const ops = new TaskOperations(first);
    const task = await ops.create('alice', { ttlMs: null });
    await ops.complete('alice', task.taskId, { content: [], isError: false });
    await first.close();
    const second = open({}, table);
    expect(await second.get('alice', task.taskId)).toMatchObject({ status: 'completed', result: { content: [] } });
  });

  it("delivers another instance's writes on the change feed, in version order", async () => {
    const table = `tasks_${++tables}`;
    const a = open({}, table);
    const b = open({}, table);
    const seen: TaskEvent[] = [];
    await b.watch((event) => seen.push(event));
    const ops = new TaskOperations(a);
    const task = await ops.create('alice', { ttlMs: 1 });
    await ops.setStatusMessage('alice', task.taskId, 'one');
    await ops.setStatusMessage('alice', task.taskId, 'two');
    await vi.waitFor(() => expect(seen.at(-1)).toMatchObject({ type: 'updated', record: { statusMessage: 'two' } }));
    const versions = seen.map((e) => e.record.version);
    expect(versions).toEqual([...versions].sort((x, y) => x - y));
    await vi.waitFor(async () => expect(await a.expireDue(Date.now(), 10)).toHaveLength(1));
    await vi.waitFor(() => expect(seen.at(-1)).toMatchObject({ type: 'expired', record: { taskId: task.taskId } }));
  });

  it('expires a finished task by the ttlMs its terminal write shortened (keepFinishedMs)', async () => {
    const store = open();
    const ops = new TaskOperations(store, { keepFinishedMs: 0 });
    onTestFinished(() => ops.close());
    const done = await ops.create('alice', { ttlMs: 3_600_000 });
    const live = await ops.create('alice', { ttlMs: 3_600_000 });
    const ended = await ops.complete('alice', done.taskId, {});
    expect(ended).toMatchObject({ won: true });
    await vi.waitFor(async () =>
      expect((await store.expireDue(Date.now(), 10)).map((r) => r.taskId)).toEqual([done.taskId]),
    );
    expect(await store.get('alice', done.taskId)).toBeUndefined();
    expect(await store.get('alice', live.taskId)).toMatchObject({ status: 'working', ttlMs: 3_600_000 });
  });

  it('catches up on writes made while its listening connection was down', async () => {
    const table = `tasks_${++tables}`;
    const a = open({}, table);
    const b = open({}, table);
    const seen: string[] = [];
    await b.watch((event) => seen.push(`${event.record.statusMessage}`));
    const task = await a.create('alice', { ttlMs: null });
    b.simulateListenerDisconnect();
    // Written while b is not listening: only the catch-up after the reconnect can deliver it.
    await new TaskOperations(a).setStatusMessage('alice', task.taskId, 'while down');
    await vi.waitFor(() => expect(seen).toContain('while down'));
  });

  it('catches up on expiries made by another instance while its listening connection was down', async () => {
    const table = `tasks_${++tables}`;
    const a = open({}, table);
    const b = open({}, table);
    const seen: TaskEvent[] = [];
    await b.watch((event) => seen.push(event));
    const task = await a.create('alice', { ttlMs: 1 });
    const kept = await a.create('alice', { ttlMs: null });
    b.simulateListenerDisconnect();
    // Expired (row deleted) while b is not listening: only its tombstone can tell b after the reconnect.
    expect(await a.expireDue(Date.now() + 60_000, 10)).toHaveLength(1);
    await new TaskOperations(a).setStatusMessage('alice', kept.taskId, 'after the expiry');
    await vi.waitFor(() => expect(seen.map((e) => e.record.statusMessage)).toContain('after the expiry'));
    const expiries = seen.filter((e) => e.type === 'expired');
    expect(expiries).toEqual([
      { type: 'expired', record: expect.objectContaining({ taskId: task.taskId, owner: 'alice' }) },
    ]);
    // A later catch-up re-reads the same tombstone but does not deliver the expiry again.
    b.simulateListenerDisconnect();
    await new TaskOperations(a).setStatusMessage('alice', kept.taskId, 'second reconnect');
    await vi.waitFor(() => expect(seen.map((e) => e.record.statusMessage)).toContain('second reconnect'));
    expect(seen.filter((e) => e.type === 'expired')).toHaveLength(1);
  });

  it('prunes tombstones of expiries older than ten minutes when it expires tasks', async () => {
    const table = `tasks_${++tables}`;
    const store = open({}, table);
    const task = await store.create('alice', { ttlMs: 1 });
    await store.migrate();
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    onTestFinished(() => admin.end());
    const elevenMinutesAgo = Date.now() - 11 * 60_000;
    await admin.query(
      `INSERT INTO ${table}_expired (seq, task_id, owner, version, expired_at) VALUES (0, 'old', 'alice', 1, $1)`,
      [elevenMinutesAgo],
    );
    expect(await store.expireDue(Date.now() + 60_000, 10)).toHaveLength(1);
    const left = await admin.query(`SELECT task_id FROM ${table}_expired`);
    expect(left.rows).toEqual([{ task_id: task.taskId }]);
  });

  it('closes every socket of the pool and of the listening connection before close resolves', async () => {
    const sockets: Socket[] = [];
    const stream = () => {
      const socket = new Socket();
      sockets.push(socket);
      return socket;
    };
    const table = `tasks_${++tables}`;
    const store = new PostgresTaskStore({ connectionString: url, table, clientConfig: { stream }, onError: () => {} });
    onTestFinished(() => store.close());
    await store.watch(() => undefined);
    // Several pool connections at once, and a listening connection being re-opened when close is called.
    await Promise.all(Array.from({ length: 4 }, () => store.create('alice', { ttlMs: null })));
    const opened = sockets.length;
    store.simulateListenerDisconnect();
    await vi.waitFor(() => expect(sockets.length).toBeGreaterThan(opened));
    await store.close();
    expect(sockets.filter((socket) => !socket.destroyed)).toEqual([]);
  });

  describe('a busy pool', () => {
    /**
     * A store on a pool of one whose only client is stuck behind a table lock held by `admin`, and a second call
     * queued for that client. Only pg-pool's timers are faked, so the sockets stay real.
     */
    async function busyStore(options: { connectTimeoutMs: number; poolWaitTimeoutMs?: number }) {
      const table = `tasks_${++tables}`;
      const store = new PostgresTaskStore({ ...options, connectionString: url, table, maxConnections: 1 });
      onTestFinished(() => store.close());
      const task = await store.create('alice', { ttlMs: null });
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      onTestFinished(() => admin.end());
      await admin.query(`BEGIN; LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      onTestFinished(() => {
        vi.useRealTimers();
      });
      const holder = store.create('alice', { ttlMs: null });
      const waiter = store.get('alice', task.taskId);
      // The holder has the only client once its INSERT waits for the lock; the waiter is queued behind it.
      const deadline = Date.now() + 10_000;
      for (;;) {
        const blocked = await admin.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity
           WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'INSERT INTO ${table} %'`,
        );
        if (blocked.rows[0].n === 1) break;
        if (Date.now() > deadline) throw new Error('the holder never waited for the lock');
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      return { task, admin, holder, waiter: waiter.then(...settled) };
    }
    const settled = [(value: unknown) => ({ value }), (error: unknown) => ({ error })] as const;

    it('waits longer than connectTimeoutMs for a free pooled client instead of reporting the database down', async () => {
      const { task, admin, holder, waiter } = await busyStore({ connectTimeoutMs: 300 });
      vi.advanceTimersByTime(1_000);
      await admin.query('COMMIT');
      await holder;
      expect(await waiter).toEqual({ value: expect.objectContaining({ taskId: task.taskId }) });
    });

    it('rejects with a busy-pool TaskStoreUnavailableError after poolWaitTimeoutMs', async () => {
      const { admin, holder, waiter } = await busyStore({ connectTimeoutMs: 300, poolWaitTimeoutMs: 2_000 });
      vi.advanceTimersByTime(2_001);
      const { error } = (await waiter) as { error?: unknown };
      expect(error).toBeInstanceOf(TaskStoreUnavailableError);
      expect(error).toMatchObject({ code: -32603, message: expect.stringMatching(/busy.*2000 ms/) });
      await admin.query('COMMIT');
      await holder;
    });
  });

  it('bounds opening a connection by connectTimeoutMs, apart from the longer pool wait', async () => {
    // A server that accepts the connection and never answers the startup message.
    const accepted: Socket[] = [];
    const silent = createServer((socket) => accepted.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    onTestFinished(async () => {
      for (const socket of accepted) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    });
    const { port } = silent.address() as AddressInfo;
    const store = new PostgresTaskStore({
      connectionString: `postgres://nobody@127.0.0.1:${port}/none`,
      connectTimeoutMs: 200,
      poolWaitTimeoutMs: 600_000,
    });
    onTestFinished(() => store.close());
    const error = await rejection(store.get('alice', 'x'));
    expect(error).toBeInstanceOf(TaskStoreUnavailableError);
    expect(error).toMatchObject({ message: expect.stringContaining('did not answer') });
  });

  it('answers with a clear, retryable -32603 error (data.retryAfterSeconds) when the database is unreachable', async () => {
    const store = new PostgresTaskStore({
      connectionString: 'postgres://nobody@127.0.0.1:1/none',
      connectTimeoutMs: 500,
    });
    onTestFinished(() => store.close());
    const error = await rejection(store.get('alice', 'x'));
    expect(error).toBeInstanceOf(TaskStoreUnavailableError);
    expect(error).toMatchObject({
      code: -32603,
      message: expect.stringContaining('127.0.0.1:1/none'),
      data: { retryAfterSeconds: 1 },
    });
    // On the wire too: a transient error a caller may retry after data.retryAfterSeconds.
    expect((error as TaskStoreUnavailableError).toJSON()).toMatchObject({
      code: -32603,
      data: { retryAfterSeconds: 1 },
    });
    expect(await rejection(store.watch(() => undefined))).toBeInstanceOf(TaskStoreUnavailableError);
  });
});

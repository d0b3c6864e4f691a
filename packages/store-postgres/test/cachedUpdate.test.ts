import { freshDatabase } from '@mcp-tasks/postgres-harness';
import { TaskOperations, type TaskRecord, type TerminalResult } from '@mcp-tasks/task-store';
import { complete, newTask } from '@mcp-tasks/task-store/transitions';
import pg from 'pg';
import { beforeAll, describe, expect, inject, it, onTestFinished, vi } from 'vitest';
import { PostgresTaskStore, type PostgresTaskStoreOptions } from '../src/index.js';
import { RecordCache } from '../src/recordCache.js';

let url = '';
let tables = 0;
beforeAll(async () => {
  url = await freshDatabase(inject('postgresUrl'), 'updates');
});

const RESULT = { content: [{ type: 'text', text: 'done' }] };
const ELICIT = {
  method: 'elicitation/create' as const,
  params: { message: 'ok?', requestedSchema: { type: 'object' as const, properties: {} } },
};

/** A store on `table` (a fresh one when absent), migrated, closed when the test ends. */
async function open(options: Partial<PostgresTaskStoreOptions> = {}): Promise<PostgresTaskStore> {
  const store = new PostgresTaskStore({ connectionString: url, table: `updates_${++tables}`, ...options });
  onTestFinished(() => store.close());
  await store.migrate();
  return store;
}

/** Two instances on one table, each with its own operations. */
async function twoInstances() {
  const a = await open();
  const b = await open({ table: `updates_${tables}` });
  return { a, b, opsA: new TaskOperations(a), opsB: new TaskOperations(b) };
}

/** The outcome of a finishing call on a task that exists. */
function found(result: TerminalResult) {
  if (!result.found) throw new Error('the task was not found');
  return result;
}

/** Counts the statements sent to the database from now until the test ends (one per round trip). */
function countQueries() {
  const queries = vi.spyOn(pg.Client.prototype, 'query');
  onTestFinished(() => queries.mockRestore());
  return queries;
}

describe('PostgresTaskStore update from the records it wrote', () => {
  it('creates and completes a task in two statements: the insert and the conditional write', async () => {
    const store = await open();
    const ops = new TaskOperations(store);
    const queries = countQueries();
    const task = await store.create('alice', { ttlMs: null });
    const done = found(await ops.complete('alice', task.taskId, RESULT));
    expect(queries).toHaveBeenCalledTimes(2);
    expect(done.won).toBe(true);
    expect(done.record).toMatchObject({ status: 'completed', version: 2, result: RESULT });
    expect(await store.get('alice', task.taskId)).toEqual(done.record);
  });

  it('transitions the winner of a write made by another instance, as a read then a write would', async () => {
    const { a, opsB } = await twoInstances();
    const now = Date.now();
    const opsA = new TaskOperations(a, { now: () => now });
    const task = await a.create('alice', { ttlMs: null });
    const moved = await opsB.requestInput('alice', task.taskId, ELICIT);
    if (!moved.ok) throw new Error('the other instance could not write');
    const queries = countQueries();
    const done = found(await opsA.complete('alice', task.taskId, RESULT, 'finished'));
    // The stale write loses, the winner is read, the transition of the winner is written.
    expect(queries).toHaveBeenCalledTimes(3);
    expect(done.won).toBe(true);
    expect(done.record).toEqual(complete(moved.record, RESULT, new Date(now).toISOString(), 'finished'));
    expect(await a.get('alice', task.taskId)).toEqual(done.record);
  });

  it('answers with the record that stands when another instance finished the task first', async () => {
    const { a, opsA, opsB } = await twoInstances();
    const task = await a.create('alice', { ttlMs: null });
    const cancelled = found(await opsB.cancel('alice', task.taskId, 'stop'));
    const done = found(await opsA.complete('alice', task.taskId, RESULT));
    expect(done.won).toBe(false);
    expect(done.record).toEqual(cancelled.record);
    expect(await a.get('alice', task.taskId)).toEqual(cancelled.record);
  });

  it('reads the task again when the transition refuses the record it remembered', async () => {
    const { a, opsA, opsB } = await twoInstances();
    const task = await a.create('alice', { ttlMs: null });
    // Only the other instance knows of this request: this one remembers the task without it.
    const asked = await opsB.requestInput('alice', task.taskId, ELICIT);
    if (!asked.ok) throw new Error('the other instance could not ask');
    const queries = countQueries();
    const withdrawn = await opsA.withdrawInput('alice', task.taskId, asked.key);
    expect(queries).toHaveBeenCalledTimes(2); // the read, then the write
    expect(withdrawn.ok).toBe(true);
    if (withdrawn.ok) expect(withdrawn.record).toMatchObject({ version: asked.record.version + 1, status: 'working' });
    // A refusal that stands after the read is the answer, as without the cache.
    const again = await opsA.withdrawInput('alice', task.taskId, asked.key);
    expect(again).toEqual({ ok: false, current: withdrawn.ok ? withdrawn.record : undefined });
  });

  it('uses a remembered record only for its owner', async () => {
    const store = await open();
    const ops = new TaskOperations(store);
    const task = await store.create('alice', { ttlMs: null });
    const queries = countQueries();
    expect(await ops.setStatusMessage('bob', task.taskId, 'mine')).toEqual({ ok: false, current: undefined });
    expect(queries).toHaveBeenCalledTimes(1); // bob's read finds nothing
    expect(await store.get('alice', task.taskId)).toEqual(task);
    queries.mockClear();
    const done = found(await ops.complete('alice', task.taskId, RESULT));
    expect(done.won).toBe(true);
    expect(queries).toHaveBeenCalledTimes(1);
  });

  it('never writes a remembered record over a later task that was given the same id', async () => {
    const { a, b, opsA } = await twoInstances();
    const first = await a.create('alice', { taskId: 'reused', ttlMs: 1 });
    expect(await b.expireDue(Date.parse(first.createdAt) + 1, 10)).toHaveLength(1);
    while (new Date().toISOString() === first.createdAt) await new Promise((resolve) => setTimeout(resolve, 1));
    const second = await b.create('alice', { taskId: 'reused', ttlMs: null, statusMessage: 'second' });
    expect(second.version).toBe(first.version); // the same id and version: only the creation time tells them apart
    const done = found(await opsA.complete('alice', 'reused', RESULT));
    expect(done.won).toBe(true);
    expect(done.record).toMatchObject({ createdAt: second.createdAt, ttlMs: null, version: second.version + 1 });
  });

  it('is refreshed by the change feed, so a task another instance wrote last costs one statement', async () => {
    const { a, opsA, opsB } = await twoInstances();
    const seen: TaskRecord[] = [];
    await a.watch((event) => seen.push(event.record));
    const task = await a.create('alice', { ttlMs: null });
    const moved = await opsB.setStatusMessage('alice', task.taskId, 'elsewhere');
    if (!moved.ok) throw new Error('the other instance could not write');
    await vi.waitFor(() => expect(seen.map((record) => record.version)).toContain(moved.record.version));
    const queries = countQueries();
    const done = await opsA.setStatusMessage('alice', task.taskId, 'here');
    expect(queries).toHaveBeenCalledTimes(1);
    expect(done.ok && done.record).toMatchObject({ version: moved.record.version + 1, statusMessage: 'here' });
  });

  it('keeps at most updateCacheSize records, the most recently written', async () => {
    const store = await open({ updateCacheSize: 3 });
    const ops = new TaskOperations(store);
    const tasks: TaskRecord[] = [];
    for (let i = 0; i < 6; i++) tasks.push(await store.create('alice', { ttlMs: null }));
    const queries = countQueries();
    for (const task of tasks.slice(3)) await ops.setStatusMessage('alice', task.taskId, 'recent');
    expect(queries).toHaveBeenCalledTimes(3); // remembered: one statement each
    queries.mockClear();
    for (const task of tasks.slice(0, 3)) await ops.setStatusMessage('alice', task.taskId, 'evicted');
    expect(queries).toHaveBeenCalledTimes(6); // dropped: a read and a write each
  });

  it('reads first, as before, when the cache is off', async () => {
    const store = await open({ updateCacheSize: 0 });
    const task = await store.create('alice', { ttlMs: null });
    const queries = countQueries();
    expect(found(await new TaskOperations(store).complete('alice', task.taskId, RESULT)).won).toBe(true);
    expect(queries).toHaveBeenCalledTimes(2);
  });
});

describe('RecordCache', () => {
  const record = (taskId: string) => newTask(taskId, 'alice', { ttlMs: null }, '2026-01-01T00:00:00.000Z', null);
  const later = (current: TaskRecord, changes: Partial<TaskRecord> = {}): TaskRecord =>
    Object.freeze({ ...current, version: current.version + 1, ...changes });

  it('never holds more than its limit, dropping the least recently written', () => {
    const cache = new RecordCache(4);
    const records = Array.from({ length: 50 }, (_, i) => record(`t${i}`));
    for (const [i, each] of records.entries()) {
      cache.remember(each);
      expect(cache.size).toBe(Math.min(i + 1, 4));
      if (i % 5 === 0) cache.remember(later(records[Math.max(0, i - 2)] as TaskRecord)); // a write moves it last
    }
    expect(records.slice(-3).every((each) => cache.lookup('alice', each.taskId) === each)).toBe(true);
    expect(cache.lookup('alice', 't0')).toBeUndefined();
  });

  it('answers only the owner, keeps the later version, drops finished and expired tasks', () => {
    const cache = new RecordCache(10);
    const first = record('t');
    const second = later(first);
    cache.remember(second);
    cache.remember(first);
    expect(cache.lookup('alice', 't')).toBe(second);
    expect(cache.lookup('bob', 't')).toBeUndefined();
    cache.observe({ type: 'updated', record: later(second) });
    expect(cache.lookup('alice', 't')?.version).toBe(3);
    cache.observe({ type: 'updated', record: record('untold') });
    expect(cache.lookup('alice', 'untold')).toBeUndefined();
    cache.remember(later(second, { status: 'completed', version: 4 }));
    expect(cache.size).toBe(0);
    cache.remember(first);
    cache.observe({ type: 'expired', record: first });
    expect(cache.size).toBe(0);
    // A parked durable task keeps nothing in the process.
    cache.remember(first);
    cache.remember(later(first, { execution: { state: 'parked', attempt: 1 } }));
    expect(cache.size).toBe(0);
    expect(() => new RecordCache(-1)).toThrow(TypeError);
  });
});

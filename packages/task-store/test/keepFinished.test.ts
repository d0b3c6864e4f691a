import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InMemoryTaskStore, TaskOperations, type TaskRecord } from '../src/index.js';
import { keepFinished } from '../src/transitions.js';

const HOUR = 3_600_000;
const MINUTE = 60_000;
const CREATED = Date.UTC(2026, 6, 28);

const record = (status: TaskRecord['status'], ttlMs: number | null): TaskRecord =>
  ({ status, ttlMs, createdAt: new Date(CREATED).toISOString() }) as TaskRecord;

describe('keepFinished', () => {
  it('shortens the ttlMs of a terminal record to elapsed + keepFinishedMs, when sooner', () => {
    expect(keepFinished(record('completed', HOUR), MINUTE, CREATED + 5_000).ttlMs).toBe(5_000 + MINUTE);
    expect(keepFinished(record('cancelled', null), MINUTE, CREATED).ttlMs).toBe(MINUTE);
    expect(keepFinished(record('failed', HOUR), MINUTE, CREATED + HOUR - 1).ttlMs).toBe(HOUR);
  });

  it('leaves live records, and every record when keepFinishedMs is null', () => {
    const live = record('working', HOUR);
    expect(keepFinished(live, MINUTE, CREATED)).toBe(live);
    const done = record('completed', HOUR);
    expect(keepFinished(done, null, CREATED)).toBe(done);
  });
});

describe('TaskOperations keepFinishedMs', () => {
  beforeEach(() => vi.useFakeTimers({ now: CREATED }));
  afterEach(() => vi.useRealTimers());

  it('expires finished tasks keepFinishedMs after they end; live tasks keep their TTL', async () => {
    const store = new InMemoryTaskStore();
    const ops = new TaskOperations(store, { keepFinishedMs: MINUTE });
    const done = await ops.create('alice', { ttlMs: HOUR });
    const cancelled = await ops.create('alice', { ttlMs: HOUR });
    const live = await ops.create('alice', { ttlMs: HOUR });
    vi.advanceTimersByTime(1_000);
    expect(await ops.complete('alice', done.taskId, {})).toMatchObject({ record: { ttlMs: 1_000 + MINUTE } });
    expect(await ops.cancel('alice', cancelled.taskId)).toMatchObject({ record: { ttlMs: 1_000 + MINUTE } });
    await vi.advanceTimersByTimeAsync(MINUTE + 1);
    expect(await ops.get('alice', done.taskId)).toBeUndefined();
    expect(await ops.get('alice', cancelled.taskId)).toBeUndefined();
    expect(await ops.get('alice', live.taskId)).toMatchObject({ status: 'working', ttlMs: HOUR });
    await ops.close();
    await store.close();
  });
});

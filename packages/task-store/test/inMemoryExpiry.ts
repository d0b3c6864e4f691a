import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SweepStats, TaskEvent } from '../src/taskStore.js';
import { ELICIT, expectStoreError, type OpenStore } from '../src/testing/contractContext.js';

const MINUTE = 60_000;

/** Fills `store` with `live` long-lived tasks and `due` short-lived ones, then measures the sweep that expires them. */
async function sweepCost(open: OpenStore, live: number, due: number): Promise<SweepStats> {
  const sweeps: SweepStats[] = [];
  const store = await open({ onSweep: (stats) => sweeps.push(stats) });
  for (let i = 0; i < live; i++) await store.create(`owner-${i % 100}`, { ttlMs: 60 * MINUTE + i });
  for (let i = 0; i < due; i++) await store.create('short', { ttlMs: 1_000 });
  await vi.advanceTimersByTimeAsync(1_000);
  await store.close();
  const expiring = sweeps.filter((sweep) => sweep.expired > 0);
  expect(expiring).toHaveLength(1);
  const [sweep] = expiring as [SweepStats];
  expect(sweep).toMatchObject({ expired: due, live });
  return sweep;
}

/** TTL (S44, decision 12), limits, and the cost of expiry, driven by vitest fake timers. */
export function expiryContract(open: OpenStore): void {
  describe('expiry (S44)', () => {
    beforeEach(() => {
      vi.useFakeTimers();
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it('keeps a task at least ttlMs after creation and removes it by the deadline, emitting expired', async () => {
      const store = await open();
      const task = await store.create('alice', { ttlMs: 1_000 });
      const neighbour = await store.create('alice', { ttlMs: 1_001 });
      const events: TaskEvent[] = [];
      const visible: Array<Promise<unknown>> = [];
      await store.subscribe('alice', task.taskId, (event) => {
        events.push(event);
        visible.push(store.get('alice', task.taskId));
      });
      await vi.advanceTimersByTimeAsync(999);
      expect(await store.get('alice', task.taskId)).toEqual(task);
      await vi.advanceTimersByTimeAsync(1);
      expect(await store.get('alice', task.taskId)).toBeUndefined();
      expect(await store.get('alice', neighbour.taskId), 'a deadline 1 ms later is not swept early').toEqual(neighbour);
      await vi.advanceTimersByTimeAsync(1);
      expect(await store.get('alice', neighbour.taskId)).toBeUndefined();
      await vi.waitFor(() => expect(events).toEqual([{ type: 'expired', record: task }]));
      expect(await Promise.all(visible)).toEqual([undefined]);
      expect(await store.cancel('alice', task.taskId)).toEqual({ found: false });
    });

    it('keeps lastUpdatedAt from going backwards when the clock steps back', async () => {
      const store = await open();
      const task = await store.create('alice', { ttlMs: null });
      vi.setSystemTime(Date.now() + 5_000);
      const ahead = await store.setStatusMessage('alice', task.taskId, 'ahead');
      vi.setSystemTime(Date.now() - 60_000);
      const behind = await store.setStatusMessage('alice', task.taskId, 'behind');
      if (!ahead.ok || !behind.ok) throw new Error('update refused');
      expect(behind.record.lastUpdatedAt >= ahead.record.lastUpdatedAt).toBe(true);
    });

    it('never expires a task with ttlMs null', async () => {
      const store = await open();
      const task = await store.create('alice', { ttlMs: null });
      await vi.advanceTimersByTimeAsync(10 * 365 * 24 * 60 * MINUTE);
      expect(await store.get('alice', task.taskId)).toEqual(task);
    });

    it('expires every task of a mixed population exactly when its deadline passes, never before', async () => {
      const store = await open();
      const start = Date.now();
      const tasks = await Promise.all(
        Array.from({ length: 300 }, (_, i) =>
          store.create(i % 2 ? 'alice' : 'bob', { ttlMs: ((i * 7_919) % 5_000) + 1 }),
        ),
      );
      // Look at each task just before and exactly at its own deadline (time only moves forward, and an expired
      // task never comes back: checking every task at every checkpoint cost 180,000 lookups and timed out under load).
      const checkpoints = [...new Set(tasks.flatMap((t) => [(t.ttlMs ?? 0) - 1, t.ttlMs ?? 0]))].sort((a, b) => a - b);
      for (const elapsed of checkpoints) {
        await vi.advanceTimersByTimeAsync(start + elapsed - Date.now());
        for (const task of tasks) {
          const ttlMs = task.ttlMs ?? Number.POSITIVE_INFINITY;
          if (ttlMs !== elapsed && ttlMs !== elapsed + 1) continue;
          const found = await store.get(task.owner, task.taskId);
          expect(found === undefined, `${task.ttlMs} ms task at ${elapsed} ms`).toBe(ttlMs === elapsed);
        }
      }
      for (const task of tasks) expect(await store.get(task.owner, task.taskId)).toBeUndefined();
    });

    it('moves the deadline when ttlMs changes, counted from createdAt', async () => {
      const store = await open();
      const longer = await store.create('alice', { ttlMs: 1_000 });
      const shorter = await store.create('alice', { ttlMs: 5_000 });
      const unlimited = await store.create('alice', { ttlMs: null });
      await store.compareAndSwap('alice', longer.taskId, 1, { ttlMs: 3_000 });
      await store.compareAndSwap('alice', shorter.taskId, 1, { ttlMs: 2_000 });
      await store.compareAndSwap('alice', unlimited.taskId, 1, { ttlMs: 2_500 });
      await vi.advanceTimersByTimeAsync(1_999);
      expect((await store.get('alice', longer.taskId))?.ttlMs).toBe(3_000);
      expect(await store.get('alice', shorter.taskId)).toBeDefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(await store.get('alice', shorter.taskId)).toBeUndefined();
      await vi.advanceTimersByTimeAsync(500);
      expect(await store.get('alice', unlimited.taskId)).toBeUndefined();
      expect(await store.get('alice', longer.taskId)).toBeDefined();
      await vi.advanceTimersByTimeAsync(500);
      expect(await store.get('alice', longer.taskId)).toBeUndefined();
    });

    it('wakes waits on expiry: waitForInput rejects task_not_found, waitForEnd resolves undefined', async () => {
      const store = await open();
      const task = await store.create('alice', { ttlMs: 1_000 });
      const asked = await store.requestInput('alice', task.taskId, ELICIT);
      if (!asked.ok) throw new Error('requestInput failed');
      const input = store.waitForInput('alice', task.taskId, asked.key);
      const end = store.waitForEnd('alice', task.taskId);
      const rejected = expectStoreError(input, 'task_not_found');
      await vi.advanceTimersByTimeAsync(1_000);
      await rejected;
      expect(await end).toBeUndefined();
    });

    it('runs one timer at most, and none once idle or closed', async () => {
      const store = await open();
      await Promise.all(Array.from({ length: 1_000 }, (_, i) => store.create('alice', { ttlMs: 1_000 + i })));
      expect(vi.getTimerCount()).toBeLessThanOrEqual(1);
      await vi.advanceTimersByTimeAsync(2_000);
      expect(vi.getTimerCount()).toBe(0);
      await store.create('alice', { ttlMs: MINUTE });
      await store.close();
      expect(vi.getTimerCount()).toBe(0);
    });

    it('costs the same work per sweep with 100,000 live tasks as with 1,000 (10 expiring)', async () => {
      const small = await sweepCost(open, 1_000, 10);
      const large = await sweepCost(open, 100_000, 10);
      // Work counted is heap entries inspected: the due ones plus one peek, independent of the live count.
      expect(small.examined).toBeLessThanOrEqual(20);
      expect(large.examined).toBeLessThanOrEqual(small.examined + 2);
    });
  });

  describe('limits', () => {
    beforeEach(() => {
      vi.useFakeTimers();
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it('rejects a ttlMs above maxTtlMs, or null while a maximum is set, with ttl_limit', async () => {
      const store = await open({ maxTtlMs: MINUTE });
      await expectStoreError(store.create('alice', { ttlMs: MINUTE + 1 }), 'ttl_limit');
      await expectStoreError(store.create('alice', { ttlMs: null }), 'ttl_limit');
      const task = await store.create('alice', { ttlMs: MINUTE });
      await expectStoreError(store.compareAndSwap('alice', task.taskId, 1, { ttlMs: 2 * MINUTE }), 'ttl_limit');
      expect((await store.get('alice', task.taskId))?.version).toBe(1);
    });

    it('rejects creation past maxTasksPerOwner with task_limit, per owner, until tasks expire', async () => {
      const store = await open({ maxTasksPerOwner: 3 });
      for (let i = 0; i < 3; i++) await store.create('alice', { ttlMs: 1_000 });
      await expectStoreError(store.create('alice', { ttlMs: 1_000 }), 'task_limit');
      await store.create('bob', { ttlMs: 1_000 });
      await vi.advanceTimersByTimeAsync(1_000);
      await store.create('alice', { ttlMs: 1_000 });
    });
  });
}

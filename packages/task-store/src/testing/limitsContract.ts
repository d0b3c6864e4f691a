import { describe, expect, it, vi } from 'vitest';
import type { TaskEvent } from '../taskStore.js';
import { expectStoreError, type OpenStore, RESULT, RPC_ERROR } from './contractContext.js';

/** Per-owner limits: live tasks are capped, finished ones are bounded separately and never block new work. */
export function limitsContract(open: OpenStore): void {
  describe('per-owner limits', () => {
    it('counts only live tasks against maxTasksPerOwner: a finished task frees its place at once', async () => {
      const store = await open({ maxTasksPerOwner: 2 });
      const first = await store.create('alice', { ttlMs: null });
      const second = await store.create('alice', { ttlMs: null });
      await expectStoreError(store.create('alice', { ttlMs: null }), 'task_limit');
      await store.create('bob', { ttlMs: null });

      await store.complete('alice', first.taskId, RESULT);
      const third = await store.create('alice', { ttlMs: null });
      await store.fail('alice', second.taskId, RPC_ERROR);
      await store.cancel('alice', third.taskId);
      // Three finished tasks, all still readable, and room for two live ones again.
      for (const task of [first, second, third])
        expect((await store.get('alice', task.taskId))?.taskId).toBe(task.taskId);
      await store.create('alice', { ttlMs: null });
      await store.create('alice', { ttlMs: null });
      await expectStoreError(store.create('alice', { ttlMs: null }), 'task_limit');
    });

    it('keeps at most maxFinishedTasksPerOwner finished tasks: a create drops the oldest-finished, as expired', async () => {
      const store = await open({ maxFinishedTasksPerOwner: 2 });
      const events: TaskEvent[] = [];
      const unwatch = await store.store.watch((event) => events.push(event));
      const tasks = [];
      for (let i = 0; i < 3; i++) tasks.push(await store.create('alice', { ttlMs: null }));
      const running = await store.create('alice', { ttlMs: null });
      const bobs = await store.create('bob', { ttlMs: null });
      await store.complete('bob', bobs.taskId, RESULT);
      // Finish order differs from creation order: 1, 0, 2.
      for (const index of [1, 0, 2]) await store.complete('alice', tasks[index]?.taskId ?? '', RESULT);

      const fresh = await store.create('alice', { ttlMs: null });
      const dropped = tasks[1]?.taskId ?? '';
      await vi.waitFor(async () => {
        await store.store.expireDue(Date.now(), 100);
        expect(await store.get('alice', dropped)).toBeUndefined();
      });
      for (const kept of [tasks[0], tasks[2], running, fresh]) {
        expect((await store.get('alice', kept?.taskId ?? ''))?.taskId).toBe(kept?.taskId);
      }
      expect((await store.get('bob', bobs.taskId))?.status).toBe('completed');
      await vi.waitFor(() =>
        expect(events.some((event) => event.type === 'expired' && event.record.taskId === dropped)).toBe(true),
      );
      unwatch();
    });
  });
}

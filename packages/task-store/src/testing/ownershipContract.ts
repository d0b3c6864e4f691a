import { describe, expect, it, vi } from 'vitest';
import { ACCEPT, ELICIT, expectStoreError, type OpenStore, RESULT, RPC_ERROR } from './contractContext.js';

/** Owner isolation: another owner's task is indistinguishable from an unknown one. */
export function ownershipContract(open: OpenStore): void {
  describe('owner isolation (S12, S18)', () => {
    it('gives another owner exactly the unknown-id answer for every operation, and changes nothing', async () => {
      const store = await open();
      const task = await store.create('alice', { ttlMs: null });
      const asked = await store.requestInput('alice', task.taskId, ELICIT);
      if (!asked.ok) throw new Error('requestInput failed');
      const { key } = asked;
      for (const id of [task.taskId, 'no-such-task']) {
        expect(await store.get('mallory', id)).toBeUndefined();
        expect(await store.compareAndSwap('mallory', id, 2, { statusMessage: 'x' })).toEqual({
          ok: false,
          current: undefined,
        });
        expect(await store.setStatusMessage('mallory', id, 'x')).toEqual({ ok: false, current: undefined });
        expect(await store.requestInput('mallory', id, ELICIT)).toEqual({ ok: false, current: undefined });
        expect(await store.resolveInputs('mallory', id, { [key]: ACCEPT })).toEqual({ found: false });
        expect(await store.withdrawInput('mallory', id, key)).toEqual({ ok: false, current: undefined });
        expect(await store.complete('mallory', id, RESULT)).toEqual({ found: false });
        expect(await store.fail('mallory', id, RPC_ERROR)).toEqual({ found: false });
        expect(await store.cancel('mallory', id)).toEqual({ found: false });
        expect(await store.waitForEnd('mallory', id)).toBeUndefined();
        await expectStoreError(store.waitForInput('mallory', id, key), 'task_not_found');
      }
      expect(await store.get('alice', task.taskId)).toEqual(asked.record);
    });

    it('delivers no events to another owner subscribing to the task', async () => {
      const store = await open();
      const task = await store.create('alice', { ttlMs: null });
      let foreign = 0;
      let own = 0;
      const unsubscribe = await store.subscribe('mallory', task.taskId, () => foreign++);
      await store.subscribe('alice', task.taskId, () => own++);
      await store.setStatusMessage('alice', task.taskId, 'private');
      await store.cancel('alice', task.taskId);
      await vi.waitFor(() => expect(own).toBe(2));
      unsubscribe();
      expect(foreign).toBe(0);
    });
  });
}

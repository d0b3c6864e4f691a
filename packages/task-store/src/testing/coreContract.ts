import { describe, expect, it, vi } from 'vitest';
import type { TaskEvent } from '../taskStore.js';
import { cancel, renewLease, setStatusMessage, takeOverLease } from '../transitions.js';
import { expectStoreError, type OpenStore } from './contractContext.js';

const stamp = () => new Date().toISOString();

/** The store core itself: conditional writes, expiry in batches, lapsed leases, the change feed. Real time. */
export function coreContract(open: OpenStore): void {
  describe('store core', () => {
    storeCore1(open);
    storeCore2(open);
  });
}

/** The "store core" cases, part 1. */
function storeCore1(open: OpenStore): void {
  it('writes a swap only at the expected version, never over a terminal record', async () => {
    const { store } = await open();
    const task = await store.create('alice', { ttlMs: null });
    const next = setStatusMessage(task, 'one', stamp());
    if (next === undefined) throw new Error('refused');
    expect(await store.swap('alice', task.taskId, 1, next)).toEqual({ ok: true, record: next });
    expect(await store.swap('alice', task.taskId, 1, next)).toEqual({ ok: false, current: next });
    expect(await store.swap('mallory', task.taskId, 2, next)).toEqual({ ok: false, current: undefined });
    const ended = cancel(next, stamp()) ?? next;
    await store.swap('alice', task.taskId, 2, ended);
    const late = { ...ended, version: 4 };
    expect(await store.swap('alice', task.taskId, 3, late)).toEqual({ ok: false, current: ended });
  });

  it('refuses a next record that is not the following version of the same task', async () => {
    const { store } = await open();
    const task = await store.create('alice', { ttlMs: null });
    const other = await store.create('alice', { ttlMs: null });
    const next = setStatusMessage(task, 'x', stamp()) ?? task;
    await expectStoreError(store.swap('alice', other.taskId, 1, next), 'invalid_argument');
    await expectStoreError(store.swap('alice', task.taskId, 1, { ...next, version: 5 }), 'invalid_argument');
  });

  it('creates under a caller-chosen id, once', async () => {
    const { store } = await open();
    const task = await store.create('alice', { ttlMs: null, taskId: 'chosen-id-0123456789ab' });
    expect(task.taskId).toBe('chosen-id-0123456789ab');
    await expectStoreError(store.create('bob', { ttlMs: null, taskId: task.taskId }), 'invalid_argument');
  });

  it('expires due tasks through expireDue, in batches, emitting expired on the change feed', async () => {
    const { store } = await open();
    const events: TaskEvent[] = [];
    const unwatch = await store.watch((event) => events.push(event));
    const due = await Promise.all([1, 2, 3].map(() => store.create('alice', { ttlMs: 1 })));
    const kept = await store.create('alice', { ttlMs: 3_600_000 });
    await vi.waitFor(async () => {
      await store.expireDue(Date.now(), 2);
      for (const task of due) expect(await store.get('alice', task.taskId)).toBeUndefined();
    });
    expect(await store.get('alice', kept.taskId)).toEqual(kept);
    await vi.waitFor(() => expect(events.filter((e) => e.type === 'expired')).toHaveLength(3));
    expect(await store.expireDue(Date.now(), 10)).toEqual([]);
    unwatch();
  });
}

/** The "store core" cases, part 2. */
function storeCore2(open: OpenStore): void {
  it('reports a lapsed lease until a write resolves it, and not a renewed one', async () => {
    const { store } = await open();
    const now = Date.now();
    const lost = await store.create('alice', { ttlMs: null, lease: { worker: 'w1', until: now - 1 } });
    const alive = await store.create('alice', { ttlMs: null, lease: { worker: 'w2', until: now - 1 } });
    const renewed = renewLease(alive, 'w2', now + 60_000);
    if (renewed === undefined) throw new Error('refused');
    await store.swap('alice', alive.taskId, 1, renewed);
    expect((await store.lapsedLeases(Date.now(), 10)).map((r) => r.taskId)).toEqual([lost.taskId]);
    expect((await store.lapsedLeases(Date.now(), 10)).map((r) => r.taskId)).toEqual([lost.taskId]);
    const taken = takeOverLease(lost, 'w3', Date.now() + 60_000, Date.now());
    if (taken === undefined) throw new Error('refused');
    await store.swap('alice', lost.taskId, 1, taken);
    expect(await store.lapsedLeases(Date.now(), 10)).toEqual([]);
  });

  it('feeds every update of every task to a watcher, per task in version order', async () => {
    const { store } = await open();
    const seen: string[] = [];
    const unwatch = await store.watch((event) => seen.push(`${event.record.owner}:${event.record.version}`));
    const a = await store.create('alice', { ttlMs: null });
    const b = await store.create('bob', { ttlMs: null });
    const a2 = setStatusMessage(a, 'x', stamp()) ?? a;
    await store.swap('alice', a.taskId, 1, a2);
    await store.swap('bob', b.taskId, 1, setStatusMessage(b, 'y', stamp()) ?? b);
    await store.swap('alice', a.taskId, 2, setStatusMessage(a2, 'z', stamp()) ?? a2);
    await vi.waitFor(() => expect(seen).toHaveLength(3));
    expect(seen.filter((s) => s.startsWith('alice'))).toEqual(['alice:2', 'alice:3']);
    unwatch();
  });
}

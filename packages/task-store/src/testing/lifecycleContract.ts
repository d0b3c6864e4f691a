import { describe, expect, it, vi } from 'vitest';
import type { TaskEvent } from '../taskStore.js';
import { ACCEPT, ELICIT, expectStoreError, expectWellFormed, type OpenStore, RESULT } from './contractContext.js';
import { close1, terminalTransitions1, waitForEnd1 } from './terminalContract.js';

/** Creation, reads, compare-and-swap, terminal transitions, events and close. */
export function lifecycleContract(open: OpenStore): void {
  describe('create and get', () => {
    createAndGet1(open);
    createAndGet2(open);
  });

  describe('compareAndSwap', () => {
    compareAndSwap1(open);
  });

  describe('terminal transitions (decision 6)', () => {
    terminalTransitions1(open);
  });

  describe('events', () => {
    events1(open);
    events2(open);
  });

  describe('waitForEnd', () => {
    waitForEnd1(open);
  });

  describe('close', () => {
    close1(open);
  });
}

/** The "create and get" cases, part 1. */
function createAndGet1(open: OpenStore): void {
  it('creates a working task at version 1 that get finds immediately (S9)', async () => {
    const store = await open();
    const meta = { method: 'tools/call', tool: 'slow' };
    const task = await store.create('alice', {
      ttlMs: 60_000,
      pollIntervalMs: 500,
      statusMessage: 'queued',
      requestMeta: meta,
    });
    expect(task).toMatchObject({ owner: 'alice', version: 1, status: 'working', ttlMs: 60_000, pollIntervalMs: 500 });
    expect(task.statusMessage).toBe('queued');
    expect(task.requestMeta).toEqual(meta);
    expect(task.createdAt).toBe(task.lastUpdatedAt);
    expect(new Date(task.createdAt).toISOString()).toBe(task.createdAt);
    expectWellFormed(task);
    expect(await store.get('alice', task.taskId)).toEqual(task);
  });

  it('issues unique, header-safe ids of at least 128 bits (S11)', async () => {
    const store = await open();
    const ids = new Set<string>();
    for (let i = 0; i < 2_000; i++) ids.add((await store.create('alice', { ttlMs: null })).taskId);
    expect(ids.size).toBe(2_000);
    // 22 base64url characters carry at least 128 bits; the id travels in the Mcp-Name header.
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{22,}$/);
  });

  it('returns undefined for an unknown id', async () => {
    const store = await open();
    expect(await store.get('alice', 'no-such-task')).toBeUndefined();
  });

  it('rejects a malformed ttlMs or pollIntervalMs with invalid_argument', async () => {
    const store = await open();
    await expectStoreError(store.create('alice', { ttlMs: -1 }), 'invalid_argument');
    await expectStoreError(store.create('alice', { ttlMs: 1.5 }), 'invalid_argument');
    await expectStoreError(store.create('alice', { ttlMs: null, pollIntervalMs: -5 }), 'invalid_argument');
  });
}

/** The "create and get" cases, part 2. */
function createAndGet2(open: OpenStore): void {
  it('never lets a caller change stored state through a returned record', async () => {
    const store = await open();
    const task = await store.create('alice', { ttlMs: null, requestMeta: { tool: 'x' } });
    const done = await store.complete('alice', task.taskId, { content: [{ type: 'text', text: 'a' }] });
    if (!done.found) throw new Error('task vanished');
    const attempts: Array<() => void> = [
      () => Object.assign(done.record, { status: 'working' }),
      () => Object.assign(done.record.result ?? {}, { injected: true }),
      () => Object.assign(done.record.requestMeta ?? {}, { tool: 'y' }),
    ];
    for (const attempt of attempts) {
      try {
        attempt();
      } catch {
        // Frozen records throw in strict mode; copies would silently diverge. Either way the store is intact.
      }
    }
    const again = await store.get('alice', task.taskId);
    expect(again?.status).toBe('completed');
    expect(again?.result).toEqual({ content: [{ type: 'text', text: 'a' }] });
    expect(again?.requestMeta).toEqual({ tool: 'x' });
  });
}

/** The "events" cases, part 1. */
function events1(open: OpenStore): void {
  it('delivers every change in version order, after it is visible to get', async () => {
    const store = await open();
    const task = await store.create('alice', { ttlMs: null });
    const events: TaskEvent[] = [];
    const seen: Array<Promise<number | undefined>> = [];
    const unsubscribe = await store.subscribe('alice', task.taskId, (event) => {
      events.push(event);
      seen.push(store.get('alice', task.taskId).then((record) => record?.version));
    });
    await store.setStatusMessage('alice', task.taskId, 'one');
    const asked = await store.requestInput('alice', task.taskId, ELICIT);
    if (asked.ok) await store.resolveInputs('alice', task.taskId, { [asked.key]: ACCEPT });
    await store.complete('alice', task.taskId, RESULT);
    // A remote store may deliver after the writer's promise resolves; wait (bounded) for all four.
    await vi.waitFor(() => expect(events).toHaveLength(4));
    expect(events.map((e) => e.type === 'updated' && e.record.version)).toEqual([2, 3, 4, 5]);
    const versions = await Promise.all(seen);
    for (const [i, version] of versions.entries()) expect(version).toBeGreaterThanOrEqual(i + 2);
    unsubscribe();
  });

  it('stops delivering after unsubscribe, which is idempotent', async () => {
    const store = await open();
    const task = await store.create('alice', { ttlMs: null });
    let calls = 0;
    const unsubscribe = await store.subscribe('alice', task.taskId, () => calls++);
    const sentinel: number[] = [];
    await store.subscribe('alice', task.taskId, (event) => sentinel.push(event.record.version));
    await store.setStatusMessage('alice', task.taskId, 'a');
    await vi.waitFor(() => expect(calls).toBe(1));
    unsubscribe();
    unsubscribe();
    await store.setStatusMessage('alice', task.taskId, 'b');
    // Once a still-subscribed listener has the later event, the removed one would have had it too.
    await vi.waitFor(() => expect(sentinel).toEqual([2, 3]));
    expect(calls).toBe(1);
  });
}

/** The "events" cases, part 2. */
function events2(open: OpenStore): void {
  it('keeps version order for every listener when a listener writes during delivery', async () => {
    const store = await open();
    const task = await store.create('alice', { ttlMs: null });
    const first: number[] = [];
    const second: number[] = [];
    let nested: Promise<unknown> | undefined;
    await store.subscribe('alice', task.taskId, (event) => {
      first.push(event.record.version);
      if (event.record.version === 2) nested = store.setStatusMessage('alice', task.taskId, 'from listener');
    });
    await store.subscribe('alice', task.taskId, (event) => second.push(event.record.version));
    await store.setStatusMessage('alice', task.taskId, 'outside');
    await vi.waitFor(() => expect(nested).toBeDefined());
    await nested;
    await vi.waitFor(() => expect(second).toHaveLength(2));
    expect(first).toEqual([2, 3]);
    expect(second).toEqual([2, 3]);
  });
}

/** The "compareAndSwap" cases, part 1. */
function compareAndSwap1(open: OpenStore): void {
  it('writes at the expected version: version + 1, lastUpdatedAt not earlier', async () => {
    const store = await open();
    const task = await store.create('alice', { ttlMs: null });
    const swap = await store.compareAndSwap('alice', task.taskId, 1, {
      statusMessage: 'half way',
      pollIntervalMs: 2_000,
    });
    expect(swap.ok).toBe(true);
    if (!swap.ok) return;
    expect(swap.record).toMatchObject({ version: 2, statusMessage: 'half way', pollIntervalMs: 2_000 });
    expect(swap.record.lastUpdatedAt >= task.lastUpdatedAt).toBe(true);
    expect(await store.get('alice', task.taskId)).toEqual(swap.record);
  });

  it('returns a stale expected version as ok: false with the current record, not an exception', async () => {
    const store = await open();
    const task = await store.create('alice', { ttlMs: null });
    await store.setStatusMessage('alice', task.taskId, 'moved on');
    const swap = await store.compareAndSwap('alice', task.taskId, 1, { statusMessage: 'stale' });
    expect(swap).toMatchObject({ ok: false, current: { version: 2, statusMessage: 'moved on' } });
  });

  it('passes the current record to a patch function and clears a field set to undefined', async () => {
    const store = await open();
    const task = await store.create('alice', { ttlMs: null, statusMessage: 'x' });
    const swap = await store.compareAndSwap('alice', task.taskId, 1, (current) => ({
      pollIntervalMs: current.version * 100,
      statusMessage: undefined,
    }));
    expect(swap.ok && swap.record.pollIntervalMs).toBe(100);
    expect(swap.ok && swap.record.statusMessage).toBeUndefined();
  });

  it('refuses to change a terminal record and reports an unknown task with current undefined', async () => {
    const store = await open();
    const task = await store.create('alice', { ttlMs: null });
    await store.cancel('alice', task.taskId);
    const swap = await store.compareAndSwap('alice', task.taskId, 2, { statusMessage: 'late' });
    expect(swap).toMatchObject({ ok: false, current: { status: 'cancelled', version: 2 } });
    expect(await store.setStatusMessage('alice', task.taskId, 'late')).toMatchObject({ ok: false });
    expect(await store.compareAndSwap('alice', 'unknown', 1, {})).toEqual({ ok: false, current: undefined });
  });

  it('rejects an invalid patch value with invalid_argument', async () => {
    const store = await open();
    const task = await store.create('alice', { ttlMs: null });
    await expectStoreError(store.compareAndSwap('alice', task.taskId, 1, { pollIntervalMs: 0.5 }), 'invalid_argument');
    expect((await store.get('alice', task.taskId))?.version).toBe(1);
  });
}

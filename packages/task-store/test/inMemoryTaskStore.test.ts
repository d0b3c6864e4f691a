import { afterEach, describe, expect, it, vi } from 'vitest';
import { InMemoryTaskStore, type InMemoryTaskStoreOptions, type InputRequest, TaskOperations } from '../src/index.js';

/** The in-memory store with the task operations on top; `stats()` reports both. */
class TestStore extends TaskOperations {
  readonly memory: InMemoryTaskStore;
  constructor(options: InMemoryTaskStoreOptions) {
    const memory = new InMemoryTaskStore(options);
    super(memory, {
      ...(options.now === undefined ? {} : { now: options.now }),
      ...(options.onListenerError === undefined ? {} : { onListenerError: options.onListenerError }),
    });
    this.memory = memory;
  }
  override stats() {
    return { ...this.memory.stats(), ...super.stats() };
  }
  override async close(): Promise<void> {
    await super.close();
    await this.memory.close();
  }
}

/** A manual clock and timer queue, so expiry runs without fake globals. */
function manualTimers(start = Date.UTC(2026, 6, 28)) {
  let now = start;
  let nextId = 1;
  const timers = new Map<number, { at: number; callback: () => void }>();
  let scheduled = 0;
  return {
    now: () => now,
    setTimer: (callback: () => void, delayMs: number) => {
      scheduled++;
      timers.set(nextId, { at: now + delayMs, callback });
      return nextId++;
    },
    clearTimer: (handle: unknown) => {
      timers.delete(handle as number);
    },
    advance(ms: number) {
      now += ms;
      for (;;) {
        const due = [...timers].find(([, timer]) => timer.at <= now);
        if (due === undefined) return;
        timers.delete(due[0]);
        due[1].callback();
      }
    },
    get live() {
      return timers.size;
    },
    get scheduled() {
      return scheduled;
    },
  };
}

const stores: TestStore[] = [];
function makeStore(options: InMemoryTaskStoreOptions = {}): TestStore {
  const store = new TestStore(options);
  stores.push(store);
  return store;
}
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
});

function expectDeepFrozen(value: unknown, path = 'record'): void {
  if (typeof value !== 'object' || value === null) return;
  expect(Object.isFrozen(value), `${path} is frozen`).toBe(true);
  for (const [key, child] of Object.entries(value)) expectDeepFrozen(child, `${path}.${key}`);
}

const ELICIT: InputRequest = {
  method: 'elicitation/create',
  params: { message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } },
};

describe('InMemoryTaskStore', () => {
  it('deep-freezes every record and shares it instead of copying', async () => {
    const store = makeStore();
    const task = await store.create('alice', { ttlMs: null, requestMeta: { client: { name: 'x', tags: ['a'] } } });
    expectDeepFrozen(task);
    expect(await store.get('alice', task.taskId)).toBe(task);
    const asked = await store.requestInput('alice', task.taskId, ELICIT);
    if (!asked.ok) throw new Error('refused');
    expectDeepFrozen(asked.record);
    expect(Object.isFrozen(ELICIT.params)).toBe(true);
    expect(await store.get('alice', task.taskId)).toBe(asked.record);
    const failed = await store.fail('alice', task.taskId, { code: -32000, message: 'x', data: { nested: [1] } }, 'why');
    if (!failed.found) throw new Error('vanished');
    expectDeepFrozen(failed.record);
    expect(await store.get('alice', task.taskId)).toBe(failed.record);
  });

  it('stamps createdAt and lastUpdatedAt from the injected clock', async () => {
    const timers = manualTimers(Date.UTC(2030, 0, 1));
    const store = makeStore(timers);
    const task = await store.create('alice', { ttlMs: null });
    expect(task.createdAt).toBe('2030-01-01T00:00:00.000Z');
    timers.advance(1_234);
    const swap = await store.setStatusMessage('alice', task.taskId, 'later');
    expect(swap.ok && swap.record.lastUpdatedAt).toBe('2030-01-01T00:00:01.234Z');
  });

  it('draws ids from the injected random source, 22 base64url characters each', async () => {
    let calls = 0;
    const store = makeStore({
      randomFill: (buffer) => {
        calls++;
        // First batch: id k starts with the two characters of k in base 64 (so 512 ids differ), then zeros.
        if (calls === 1) {
          buffer.fill(0);
          for (let k = 0; k < 512; k++) {
            buffer[22 * k] = k & 63;
            buffer[22 * k + 1] = k >> 6;
          }
        } else buffer.fill(63);
      },
    });
    const first = await store.create('alice', { ttlMs: null });
    expect(first.taskId).toBe('A'.repeat(22));
    for (let i = 1; i < 512; i++) await store.create('alice', { ttlMs: null });
    expect(calls).toBe(1);
    expect((await store.create('alice', { ttlMs: null })).taskId).toBe('_'.repeat(22));
    expect(calls).toBe(2);
  });

  it('keeps at most one timer however many tasks have deadlines', async () => {
    const timers = manualTimers();
    const store = makeStore(timers);
    for (let i = 0; i < 1_000; i++) {
      await store.create('alice', { ttlMs: 10_000 + ((i * 7_919) % 5_000) });
      expect(timers.live).toBeLessThanOrEqual(1);
    }
    // Only a new earliest deadline reschedules.
    expect(timers.scheduled).toBeLessThan(20);
    timers.advance(15_000);
    expect(store.stats()).toMatchObject({ tasks: 0, owners: 0, deadlineEntries: 0, timerActive: false });
    expect(timers.live).toBe(0);
  });

  it('unrefs its default timer so an idle process can exit', async () => {
    const spy = vi.spyOn(globalThis, 'setTimeout');
    const store = makeStore();
    await store.create('alice', { ttlMs: 60_000 });
    const handle = spy.mock.results.at(-1)?.value as { hasRef?: () => boolean } | undefined;
    expect(handle?.hasRef?.()).toBe(false);
    await store.close();
    expect(store.stats().timerActive).toBe(false);
  });

  it('isolates a throwing listener: the writer and other listeners are unaffected', async () => {
    const errors: unknown[] = [];
    const store = makeStore({ onListenerError: (error) => errors.push(error) });
    const task = await store.create('alice', { ttlMs: null });
    const seen: number[] = [];
    await store.subscribe('alice', task.taskId, () => {
      throw new Error('listener bug');
    });
    await store.subscribe('alice', task.taskId, (event) => seen.push(event.record.version));
    const swap = await store.setStatusMessage('alice', task.taskId, 'x');
    expect(swap.ok).toBe(true);
    expect(seen).toEqual([2]);
    expect(errors).toEqual([new Error('listener bug')]);
  });

  it('treats one function subscribed twice as two subscriptions', async () => {
    const store = makeStore();
    const task = await store.create('alice', { ttlMs: null });
    let calls = 0;
    const listener = () => calls++;
    const first = await store.subscribe('alice', task.taskId, listener);
    await store.subscribe('alice', task.taskId, listener);
    await store.setStatusMessage('alice', task.taskId, 'a');
    first();
    await store.setStatusMessage('alice', task.taskId, 'b');
    expect(calls).toBe(3);
  });

  it('does not call a listener that an earlier listener removed during the same delivery', async () => {
    const store = makeStore();
    const task = await store.create('alice', { ttlMs: null });
    let second = 0;
    let unsubscribeSecond: () => void = () => {};
    await store.subscribe('alice', task.taskId, () => unsubscribeSecond());
    unsubscribeSecond = await store.subscribe('alice', task.taskId, () => second++);
    await store.setStatusMessage('alice', task.taskId, 'x');
    expect(second).toBe(0);
  });

  it('calls a listener added during a delivery from the next event on, also for a task with one listener', async () => {
    const store = makeStore();
    const task = await store.create('alice', { ttlMs: null });
    const late: string[] = [];
    let added = false;
    await store.subscribe('alice', task.taskId, () => {
      if (added) return;
      added = true;
      store.listen('alice', task.taskId, (event) => late.push(event.record.statusMessage ?? ''));
    });
    await store.setStatusMessage('alice', task.taskId, 'first');
    await store.setStatusMessage('alice', task.taskId, 'second');
    expect(late).toEqual(['second']);
  });

  it('listenAll sees every task of every owner, before its own listeners, until unsubscribed', async () => {
    const store = makeStore();
    await store.ready();
    const seen: string[] = [];
    const stop = store.listenAll((event) => seen.push(`all:${event.record.owner}:${event.record.statusMessage}`));
    const alice = await store.create('alice', { ttlMs: null });
    const bob = await store.create('bob', { ttlMs: null });
    store.listen('alice', alice.taskId, (event) => seen.push(`own:${event.record.statusMessage}`));
    await store.setStatusMessage('alice', alice.taskId, 'a');
    await store.setStatusMessage('bob', bob.taskId, 'b');
    stop();
    stop();
    await store.setStatusMessage('alice', alice.taskId, 'c');
    expect(seen).toEqual(['all:alice:a', 'own:a', 'all:bob:b', 'own:c']);
  });

  it("listenMany serves several tasks with one listener, only its owner's, until unsubscribed", async () => {
    const store = makeStore();
    await store.ready();
    const a = await store.create('alice', { ttlMs: null });
    const b = await store.create('alice', { ttlMs: null });
    const bobs = await store.create('bob', { ttlMs: null });
    const seen: string[] = [];
    const stop = store.listenMany('alice', [a.taskId, b.taskId, bobs.taskId, 'not-yet'], (event) =>
      seen.push(`${event.record.taskId === a.taskId ? 'a' : 'b'}:${event.record.statusMessage}`),
    );
    await store.setStatusMessage('alice', a.taskId, '1');
    await store.setStatusMessage('alice', b.taskId, '2');
    await store.setStatusMessage('bob', bobs.taskId, 'never seen');
    stop();
    stop();
    await store.setStatusMessage('alice', a.taskId, '3');
    expect(seen).toEqual(['a:1', 'b:2']);
    expect(store.stats().listenedTasks).toBe(0);
  });

  it('listenAll skips a listener removed during the same delivery and isolates its errors', async () => {
    const errors: unknown[] = [];
    const memory = new InMemoryTaskStore({});
    const store = new TaskOperations(memory, { onListenerError: (error) => errors.push(error) });
    await store.ready();
    let second = 0;
    let stopSecond: () => void = () => {};
    store.listenAll(() => {
      stopSecond();
      throw new Error('listener bug');
    });
    stopSecond = store.listenAll(() => second++);
    const task = await store.create('alice', { ttlMs: null });
    await store.setStatusMessage('alice', task.taskId, 'x');
    expect(second).toBe(0);
    expect(errors).toEqual([new Error('listener bug')]);
    await store.close();
  });

  it('deep-freezes a hand-built record written right after a transition froze another', async () => {
    const store = makeStore();
    const task = await store.create('alice', { ttlMs: null });
    await store.setStatusMessage('alice', task.taskId, 'transition');
    const current = await store.get('alice', task.taskId);
    if (current === undefined) throw new Error('vanished');
    const next = { ...current, version: current.version + 1, result: { content: [{ type: 'text', text: 'x' }] } };
    const swapped = await store.memory.swap('alice', task.taskId, current.version, next);
    expect(swapped.ok).toBe(true);
    expectDeepFrozen(await store.get('alice', task.taskId));
  });

  it('delivers each event to the listeners of that moment: one removed during delivery is skipped, one added waits for the next', async () => {
    const store = makeStore(manualTimers());
    const task = await store.create('alice', { ttlMs: 1_000 });
    const seen: string[] = [];
    let removeB: () => void = () => undefined;
    let added = false;
    const removeA = await store.subscribe('alice', task.taskId, (event) => {
      seen.push(`a${event.type === 'updated' ? event.record.version : 'x'}`);
      removeB();
      if (!added) {
        added = true;
        void store.subscribe('alice', task.taskId, (later) => {
          seen.push(`c${later.type === 'updated' ? later.record.version : 'x'}`);
        });
      }
    });
    removeB = await store.subscribe('alice', task.taskId, () => seen.push('b'));
    await store.setStatusMessage('alice', task.taskId, 'one');
    await vi.waitFor(() => expect(store.stats()).toMatchObject({ listenedTasks: 1 }));
    await store.setStatusMessage('alice', task.taskId, 'two');
    expect(seen).toEqual(['a2', 'a3', 'c3']);
    removeA();
    removeA();
    await store.setStatusMessage('alice', task.taskId, 'three');
    expect(seen).toEqual(['a2', 'a3', 'c3', 'c4']);
    await store.close();
  });

  it('releases listeners, waits and answers: nothing is retained once they settle', async () => {
    const timers = manualTimers();
    const store = makeStore(timers);
    const task = await store.create('alice', { ttlMs: 1_000 });
    const unsubscribe = await store.subscribe('alice', task.taskId, () => {});
    unsubscribe();
    expect(store.stats()).toMatchObject({ listenedTasks: 0 });

    const a = await store.requestInput('alice', task.taskId, ELICIT);
    const b = await store.requestInput('alice', task.taskId, ELICIT);
    if (!a.ok || !b.ok) throw new Error('refused');
    const answered = store.waitForInput('alice', task.taskId, a.key);
    const controller = new AbortController();
    const aborted = store.waitForInput('alice', task.taskId, b.key, controller.signal);
    await vi.waitFor(() => expect(store.stats()).toMatchObject({ listenedTasks: 1, pendingWaits: 2 }));
    await store.resolveInputs('alice', task.taskId, { [a.key]: { action: 'accept', content: { name: 'x' } } });
    await answered;
    controller.abort(new Error('stop'));
    await expect(aborted).rejects.toThrow('stop');
    expect(store.stats()).toMatchObject({ listenedTasks: 0, pendingWaits: 0 });

    // Answers live in the record until the task ends, then they are dropped with it.
    await store.resolveInputs('alice', task.taskId, { [b.key]: { action: 'decline' } });
    expect(Object.keys((await store.get('alice', task.taskId))?.answers ?? {})).toEqual([a.key, b.key]);
    const done = await store.complete('alice', task.taskId, { content: [] });
    expect(done.found && done.record.answers).toEqual({});

    const ending = store.waitForEnd('alice', (await store.create('bob', { ttlMs: 500 })).taskId);
    timers.advance(1_000);
    expect(await ending).toBeUndefined();
    expect(store.stats()).toEqual({
      tasks: 0,
      owners: 0,
      watchers: 1,
      listenedTasks: 0,
      pendingWaits: 0,
      deadlineEntries: 0,
      leaseEntries: 0,
      runnableEntries: 0,
      stepTasks: 0,
      timerActive: false,
    });
  });

  it('keeps no lease entry for a task that ended or expired, even with no lease sweep running', async () => {
    const timers = manualTimers();
    const store = makeStore(timers);
    const count = 1_000;
    for (let i = 0; i < count; i++) {
      const task = await store.create('alice', { ttlMs: 15_000, lease: { worker: 'w', until: timers.now() + 30_000 } });
      if (i % 2 === 0) await store.complete('alice', task.taskId, { content: [] });
    }
    expect(store.stats()).toMatchObject({ tasks: count, leaseEntries: count });
    // Every task expires 15 s in, while its lease would have run 30 s: the store empties, and so does the heap.
    timers.advance(16_000);
    expect(store.stats()).toMatchObject({ tasks: 0, leaseEntries: 0 });
    // While tasks remain, stale entries stay bounded by the tasks stored.
    for (let i = 0; i < count; i++) {
      const task = await store.create('alice', {
        ttlMs: 15_000 + i,
        lease: { worker: 'w', until: timers.now() + 30_000 },
      });
      await store.complete('alice', task.taskId, { content: [] });
    }
    timers.advance(15_000 + count / 2);
    const { tasks, leaseEntries } = store.stats();
    expect(tasks).toBeLessThanOrEqual(count / 2);
    expect(leaseEntries).toBeLessThanOrEqual(2 * tasks + 64);
  });

  it('shares one timestamp string among records written in the same millisecond', async () => {
    const timers = manualTimers();
    const store = makeStore(timers);
    const one = await store.create('alice', { ttlMs: null });
    const two = await store.create('alice', { ttlMs: null });
    expect(two.createdAt).toBe(one.createdAt);
  });
});

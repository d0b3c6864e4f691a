import { describe, expect, it } from 'vitest';
import { InMemoryTaskStore, isDurableTaskStore, TaskOperations, type TaskRecord } from '../src/index.js';

const ELICIT = {
  method: 'elicitation/create' as const,
  params: { message: 'ok?', requestedSchema: { type: 'object' as const, properties: {} } },
};

describe('TaskOperations onWrite', () => {
  it('tells each write once, with the record it was computed from and the record written', async () => {
    const writes: Array<[string | undefined, string]> = [];
    const ops = new TaskOperations(new InMemoryTaskStore(), {
      onWrite: (before, after) => writes.push([before?.status, after.status]),
    });
    const task = await ops.create('alice', { ttlMs: null });
    const asked = await ops.requestInput('alice', task.taskId, ELICIT);
    if (!asked.ok) throw new Error('not asked');
    await ops.resolveInputs('alice', task.taskId, { [asked.key]: { action: 'accept', content: {} } });
    await ops.complete('alice', task.taskId, { content: [] });
    // Refused and no-op transitions write nothing, so they are not told.
    await ops.cancel('alice', task.taskId);
    expect(writes).toEqual([
      [undefined, 'working'],
      ['working', 'input_required'],
      ['input_required', 'working'],
      ['working', 'completed'],
    ]);
    await ops.close();
  });

  it('tells only the write that won a race on a store without update, and reports what the observer throws', async () => {
    const store = new InMemoryTaskStore();
    // The store as a plain swap store: every transition is read, computed and swapped (retried on a lost race).
    const swapOnly = { ...bind(store), update: undefined };
    const befores: TaskRecord[] = [];
    const errors: unknown[] = [];
    const ops = new TaskOperations(swapOnly, {
      onWrite: (before) => {
        if (before !== undefined) befores.push(before);
        throw new Error('observer failed');
      },
      onListenerError: (error) => errors.push(error),
    });
    const task = await ops.create('alice', { ttlMs: null });
    await Promise.all([
      ops.setStatusMessage('alice', task.taskId, 'one'),
      ops.setStatusMessage('alice', task.taskId, 'two'),
    ]);
    expect(befores.map((record) => record.version)).toEqual([1, 2]);
    expect(errors).toHaveLength(3);
    await ops.close();
  });
});

describe('TaskOperations onStoreCall', () => {
  it('times every store call made through ops.store, failures too, and keeps the store durable', async () => {
    const calls: Array<[string, boolean]> = [];
    const store = new InMemoryTaskStore();
    const ops = new TaskOperations(store, {
      onStoreCall: (operation, durationMs, failed) => {
        expect(durationMs).toBeGreaterThanOrEqual(0);
        calls.push([operation, failed]);
      },
    });
    expect(ops.store).not.toBe(store);
    expect(isDurableTaskStore(ops.store)).toBe(isDurableTaskStore(store));
    const task = await ops.create('alice', { ttlMs: null });
    await ops.get('alice', task.taskId);
    await ops.complete('alice', task.taskId, { content: [] });
    await expect(ops.create('alice', { ttlMs: -5 })).rejects.toThrow();
    expect(calls).toEqual([
      ['create', false],
      ['get', false],
      ['update', false],
      ['create', true],
    ]);
    await ops.close();
  });
});

/** The store's methods, bound, as a plain object (what a store of another kind looks like to `TaskOperations`). */
function bind(store: InMemoryTaskStore) {
  return {
    create: store.create.bind(store),
    get: store.get.bind(store),
    list: store.list.bind(store),
    swap: store.swap.bind(store),
    expireDue: store.expireDue.bind(store),
    lapsedLeases: store.lapsedLeases.bind(store),
    watch: store.watch.bind(store),
    close: store.close.bind(store),
  };
}

import { expect, it } from 'vitest';
import {
  ACCEPT,
  ELICIT,
  expectStoreError,
  expectWellFormed,
  type OpenStore,
  RESULT,
  RPC_ERROR,
} from './contractContext.js';

/** The "terminal transitions" cases, part 1. */
export function terminalTransitions1(open: OpenStore): void {
  it('completes with the result and clears outstanding input requests (S15)', async () => {
    const store = await open();
    const task = await store.create('alice', { ttlMs: null });
    await store.requestInput('alice', task.taskId, ELICIT);
    const done = await store.complete('alice', task.taskId, RESULT);
    expect(done).toMatchObject({
      found: true,
      won: true,
      record: { status: 'completed', version: 3, result: RESULT },
    });
    if (done.found) expectWellFormed(done.record);
  });

  it('fails with the JSON-RPC error and a statusMessage (S16)', async () => {
    const store = await open();
    const task = await store.create('alice', { ttlMs: null });
    const failed = await store.fail('alice', task.taskId, RPC_ERROR, 'Tool raised -32603');
    expect(failed).toMatchObject({
      won: true,
      record: { status: 'failed', error: RPC_ERROR, statusMessage: 'Tool raised -32603' },
    });
  });

  it('cancels with the reason as statusMessage', async () => {
    const store = await open();
    const task = await store.create('alice', { ttlMs: null });
    expect(await store.cancel('alice', task.taskId, 'user asked')).toMatchObject({
      won: true,
      record: { status: 'cancelled', statusMessage: 'user asked' },
    });
  });

  it('lets the first terminal writer win; later calls learn they lost and change nothing', async () => {
    const store = await open();
    const task = await store.create('alice', { ttlMs: null });
    const first = await store.complete('alice', task.taskId, RESULT);
    const later = [
      await store.cancel('alice', task.taskId, 'too late'),
      await store.fail('alice', task.taskId, RPC_ERROR),
      await store.complete('alice', task.taskId, { content: [] }),
    ];
    if (!first.found) throw new Error('task vanished');
    for (const outcome of later) expect(outcome).toEqual({ found: true, won: false, record: first.record });
    expect(await store.resolveInputs('alice', task.taskId, { 'input-1': ACCEPT })).toMatchObject({ accepted: [] });
    expect(await store.get('alice', task.taskId)).toEqual(first.record);
  });

  it('reports found: false for an unknown task', async () => {
    const store = await open();
    expect(await store.cancel('alice', 'unknown')).toEqual({ found: false });
    expect(await store.complete('alice', 'unknown', RESULT)).toEqual({ found: false });
    expect(await store.fail('alice', 'unknown', RPC_ERROR)).toEqual({ found: false });
  });
}

/** The "waitForEnd" cases, part 1. */
export function waitForEnd1(open: OpenStore): void {
  it('resolves with the terminal record, at once when already terminal, undefined when unknown', async () => {
    const store = await open();
    const task = await store.create('alice', { ttlMs: null });
    const ended = store.waitForEnd('alice', task.taskId);
    await store.cancel('alice', task.taskId, 'stop');
    expect(await ended).toMatchObject({ status: 'cancelled', statusMessage: 'stop' });
    expect(await store.waitForEnd('alice', task.taskId)).toMatchObject({ status: 'cancelled' });
    expect(await store.waitForEnd('alice', 'unknown')).toBeUndefined();
  });

  it('rejects with the signal reason when the signal aborts', async () => {
    const store = await open();
    const task = await store.create('alice', { ttlMs: null });
    const controller = new AbortController();
    const ended = store.waitForEnd('alice', task.taskId, controller.signal);
    controller.abort(new Error('runner finished'));
    await expect(ended).rejects.toThrow('runner finished');
  });
}

/** The "close" cases, part 1. */
export function close1(open: OpenStore): void {
  it('rejects pending waits and later calls with closed, and is idempotent', async () => {
    const store = await open();
    const task = await store.create('alice', { ttlMs: 60_000 });
    const asked = await store.requestInput('alice', task.taskId, ELICIT);
    if (!asked.ok) throw new Error('requestInput failed');
    // Expectations attached before closing: a remote store's close takes long enough to flag a bare rejection.
    const input = expectStoreError(store.waitForInput('alice', task.taskId, asked.key), 'closed');
    const ended = expectStoreError(store.waitForEnd('alice', task.taskId), 'closed');
    await store.close();
    await store.close();
    await input;
    await ended;
    await expectStoreError(store.get('alice', task.taskId), 'closed');
    await expectStoreError(store.create('alice', { ttlMs: null }), 'closed');
  });
}

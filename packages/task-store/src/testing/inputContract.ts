import { describe, expect, it } from 'vitest';
import type { InputRequest } from '../taskStore.js';
import {
  ACCEPT,
  type ContractStore,
  ELICIT,
  expectStoreError,
  expectWellFormed,
  type OpenStore,
  RESULT,
} from './contractContext.js';

const ROOTS: InputRequest = { method: 'roots/list' };

async function ask(store: ContractStore, taskId: string, request: InputRequest = ELICIT): Promise<string> {
  const asked = await store.requestInput('alice', taskId, request);
  if (!asked.ok) throw new Error('requestInput was refused');
  return asked.key;
}

/** Input requests: key issuance, delivery, partial answers, waits. */
export function inputContract(open: OpenStore): void {
  describe('requestInput and resolveInputs', () => {
    requestInputAndResolveInputs1(open);
    requestInputAndResolveInputs2(open);
  });

  describe('waitForInput', () => {
    waitForInput1(open);
    waitForInput2(open);
  });
}

/** The "requestInput and resolveInputs" cases, part 1. */
function requestInputAndResolveInputs1(open: OpenStore): void {
  it('adds the request under a fresh key and moves to input_required', async () => {
    const store = await open();
    const task = await store.create('alice', { ttlMs: null });
    const asked = await store.requestInput('alice', task.taskId, ELICIT);
    expect(asked).toMatchObject({ ok: true, record: { status: 'input_required', version: 2 } });
    if (!asked.ok) return;
    expect(asked.record.inputRequests[asked.key]).toEqual(ELICIT);
    expectWellFormed(asked.record);
    expect((await store.get('alice', task.taskId))?.inputRequests).toEqual({ [asked.key]: ELICIT });
  });

  it('never reuses a key over the task lifetime, even after it was answered (S20)', async () => {
    const store = await open();
    const task = await store.create('alice', { ttlMs: null });
    const keys = new Set<string>();
    for (let round = 0; round < 20; round++) {
      const a = await ask(store, task.taskId);
      const b = await ask(store, task.taskId, ROOTS);
      expect(keys.has(a) || keys.has(b) || a === b).toBe(false);
      keys.add(a).add(b);
      if (round % 2 === 0) await store.resolveInputs('alice', task.taskId, { [a]: ACCEPT, [b]: { roots: [] } });
      else await store.withdrawInput('alice', task.taskId, a).then(() => store.withdrawInput('alice', task.taskId, b));
    }
    expect(keys.size).toBe(40);
  });

  it('keeps the rest outstanding after a partial answer, then returns to working (S27)', async () => {
    const store = await open();
    const task = await store.create('alice', { ttlMs: null });
    const a = await ask(store, task.taskId);
    const b = await ask(store, task.taskId, ROOTS);
    const partial = await store.resolveInputs('alice', task.taskId, { [a]: ACCEPT });
    expect(partial).toMatchObject({ found: true, accepted: [a], record: { status: 'input_required' } });
    expect(partial.found && Object.keys(partial.record.inputRequests)).toEqual([b]);
    const rest = await store.resolveInputs('alice', task.taskId, { [b]: { roots: [] } });
    expect(rest).toMatchObject({ accepted: [b], record: { status: 'working', inputRequests: {} } });
  });
}

/** The "requestInput and resolveInputs" cases, part 2. */
function requestInputAndResolveInputs2(open: OpenStore): void {
  it('ignores keys never issued, already answered or withdrawn, without a new version (S26)', async () => {
    const store = await open();
    const task = await store.create('alice', { ttlMs: null });
    const answered = await ask(store, task.taskId);
    await store.resolveInputs('alice', task.taskId, { [answered]: ACCEPT });
    const withdrawn = await ask(store, task.taskId);
    expect(await store.withdrawInput('alice', task.taskId, withdrawn)).toMatchObject({ ok: true });
    const open1 = await ask(store, task.taskId);
    const before = await store.get('alice', task.taskId);
    const ignored = await store.resolveInputs('alice', task.taskId, {
      'never-issued': ACCEPT,
      [answered]: ACCEPT,
      [withdrawn]: ACCEPT,
    });
    expect(ignored).toEqual({ found: true, accepted: [], record: before });
    const mixed = await store.resolveInputs('alice', task.taskId, { [answered]: ACCEPT, [open1]: ACCEPT });
    expect(mixed).toMatchObject({
      accepted: [open1],
      record: { status: 'working', version: (before?.version ?? 0) + 1 },
    });
  });

  it('refuses new input on a terminal task and reports unknown tasks', async () => {
    const store = await open();
    const task = await store.create('alice', { ttlMs: null });
    await store.complete('alice', task.taskId, { content: [] });
    expect(await store.requestInput('alice', task.taskId, ELICIT)).toMatchObject({
      ok: false,
      current: { status: 'completed' },
    });
    expect(await store.requestInput('alice', 'unknown', ELICIT)).toEqual({ ok: false, current: undefined });
    expect(await store.resolveInputs('alice', 'unknown', {})).toEqual({ found: false });
    expect(await store.withdrawInput('alice', task.taskId, 'input-1')).toMatchObject({ ok: false });
  });
}

/** The "waitForInput" cases, part 1. */
function waitForInput1(open: OpenStore): void {
  it('resolves with an answer that arrives later, and with one that arrived earlier', async () => {
    const store = await open();
    const task = await store.create('alice', { ttlMs: null });
    const later = await ask(store, task.taskId);
    const pending = store.waitForInput('alice', task.taskId, later);
    await store.resolveInputs('alice', task.taskId, { [later]: ACCEPT });
    expect(await pending).toEqual(ACCEPT);
    const earlier = await ask(store, task.taskId);
    await store.resolveInputs('alice', task.taskId, { [earlier]: { action: 'decline' } });
    expect(await store.waitForInput('alice', task.taskId, earlier)).toEqual({ action: 'decline' });
  });

  it('keeps each answer in the record, readable by any reader until the task ends', async () => {
    const store = await open();
    const task = await store.create('alice', { ttlMs: null });
    const key = await ask(store, task.taskId);
    await store.resolveInputs('alice', task.taskId, { [key]: ACCEPT });
    expect(await store.waitForInput('alice', task.taskId, key)).toEqual(ACCEPT);
    expect(await store.waitForInput('alice', task.taskId, key)).toEqual(ACCEPT);
    expect((await store.get('alice', task.taskId))?.answers).toEqual({ [key]: ACCEPT });
    await expectStoreError(store.waitForInput('alice', task.taskId, 'never-issued'), 'unknown_input_key');
    const done = await store.complete('alice', task.taskId, RESULT);
    expect(done.found && done.record.answers).toEqual({});
  });

  it('rejects with task_ended when the task is cancelled, and at once on a terminal task', async () => {
    const store = await open();
    const task = await store.create('alice', { ttlMs: null });
    const key = await ask(store, task.taskId);
    // The expectation is attached before the write: the wait may reject while the write is still in flight.
    const pending = expectStoreError(store.waitForInput('alice', task.taskId, key), 'task_ended');
    await store.cancel('alice', task.taskId, 'user');
    await pending;
    await expectStoreError(store.waitForInput('alice', task.taskId, key), 'task_ended');
    await expectStoreError(store.waitForInput('alice', 'unknown', key), 'task_not_found');
  });

  it('rejects with unknown_input_key when its key is withdrawn', async () => {
    const store = await open();
    const task = await store.create('alice', { ttlMs: null });
    const key = await ask(store, task.taskId);
    // The expectation is attached before the write: the wait may reject while the write is still in flight.
    const pending = expectStoreError(store.waitForInput('alice', task.taskId, key), 'unknown_input_key');
    await store.withdrawInput('alice', task.taskId, key);
    await pending;
  });
}

/** The "waitForInput" cases, part 2. */
function waitForInput2(open: OpenStore): void {
  it('rejects with the signal reason on abort, and at once for an aborted signal; the key stays outstanding', async () => {
    const store = await open();
    const task = await store.create('alice', { ttlMs: null });
    const key = await ask(store, task.taskId);
    const controller = new AbortController();
    const pending = store.waitForInput('alice', task.taskId, key, controller.signal);
    controller.abort(new Error('tool gave up'));
    await expect(pending).rejects.toThrow('tool gave up');
    await expect(store.waitForInput('alice', task.taskId, key, controller.signal)).rejects.toThrow('tool gave up');
    expect((await store.get('alice', task.taskId))?.inputRequests[key]).toEqual(ELICIT);
    // An answer after the abort is kept for the next wait.
    await store.resolveInputs('alice', task.taskId, { [key]: ACCEPT });
    expect(await store.waitForInput('alice', task.taskId, key)).toEqual(ACCEPT);
  });
}

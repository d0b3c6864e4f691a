import { describe, expect, it } from 'vitest';
import { type DurableTaskStore, isDurableTaskStore } from '../durableTaskStore.js';
import { handBackTask, parkTask } from '../leaseTransitions.js';
import type { TaskStoreLimits } from '../taskStore.js';
import { ACCEPT, type ContractStore, ELICIT, expectStoreError, type OpenStore, RESULT } from './contractContext.js';

const LEASE_MS = 60_000;

/** Opens a store for the test, checked to be durable. */
const durableOpener =
  (open: OpenStore) =>
  async (limits: TaskStoreLimits = {}): Promise<[ContractStore, DurableTaskStore]> => {
    const ops = await open(limits);
    expect(isDurableTaskStore(ops.store), 'the store implements DurableTaskStore').toBe(true);
    return [ops, ops.store as DurableTaskStore];
  };
/** Claims with the suite's lease length. */
const claim = (store: DurableTaskStore, worker: string, limit = 10, now = Date.now()) =>
  store.claim({ worker, limit, leaseMs: LEASE_MS, now });

/** Durable execution: the claimable queue, hand-back, parking and waking, step results and their limits. */
export function durableContract(open: OpenStore): void {
  claimingContract(durableOpener(open));
  handBackContract(durableOpener(open));
  parkingContract(durableOpener(open));
  stepsContract(durableOpener(open));
  stepLimitsContract(durableOpener(open));
}

type OpenDurable = ReturnType<typeof durableOpener>;

function claimingContract(openDurable: OpenDurable): void {
  describe('durable execution: claiming', () => {
    it('queues a durable task without a lease; one claim takes it (attempt 1), no other claim gets it', async () => {
      const [ops, store] = await openDurable();
      const plain = await ops.create('alice', { ttlMs: null });
      const task = await ops.create('alice', { ttlMs: null, durable: true });
      expect(task.execution).toEqual({ state: 'queued', attempt: 0 });
      expect(plain.execution).toBeUndefined();
      const [claimed, ...rest] = await claim(store, 'w1');
      expect(rest).toEqual([]);
      expect(claimed?.taskId).toBe(task.taskId);
      expect(claimed?.execution).toEqual({ state: 'running', attempt: 1 });
      expect(claimed?.lease?.worker).toBe('w1');
      expect(claimed?.version).toBe(task.version + 1);
      expect(claimed?.lastUpdatedAt).toBe(task.lastUpdatedAt);
      expect(await claim(store, 'w2')).toEqual([]);
      expect((await ops.get('alice', task.taskId))?.lease?.worker).toBe('w1');
    });

    it('claims at most `limit` tasks, oldest runnable first, and concurrent claims never share a task', async () => {
      const [ops, store] = await openDurable();
      const ids: string[] = [];
      for (let i = 0; i < 9; i++) ids.push((await ops.create(`owner-${i % 3}`, { ttlMs: null, durable: true })).taskId);
      const first = await claim(store, 'w1', 2);
      expect(first).toHaveLength(2);
      const [a, b] = await Promise.all([claim(store, 'w2', 4), claim(store, 'w3', 4)]);
      const taken = [...first, ...(a ?? []), ...(b ?? [])].map((record) => record.taskId);
      expect(new Set(taken).size).toBe(taken.length);
      expect(taken.sort()).toEqual(ids.slice().sort());
    });

    it('a task created with a lease starts running; when the lease runs out another worker claims it', async () => {
      const [ops, store] = await openDurable();
      const now = Date.now();
      const task = await ops.create('alice', {
        ttlMs: null,
        durable: true,
        lease: { worker: 'w1', until: now + 1_000 },
      });
      expect(task.execution).toEqual({ state: 'running', attempt: 1 });
      expect(await claim(store, 'w2', 10, now)).toEqual([]);
      const [taken] = await claim(store, 'w2', 10, now + 1_000);
      expect(taken?.execution).toEqual({ state: 'running', attempt: 2 });
      expect(taken?.lease).toEqual({ worker: 'w2', until: now + 1_000 + LEASE_MS });
      // A durable task is recovered by claiming, never reported as a lapsed lease to fail.
      expect(await store.lapsedLeases(now + 10 * LEASE_MS, 10)).toEqual([]);
    });
  });
}

function handBackContract(openDurable: OpenDurable): void {
  describe('durable execution: hand-back', () => {
    it('hand-back releases the lease at once (claimable now), or from notBefore for a retry', async () => {
      const [ops, store] = await openDurable();
      const task = await ops.create('alice', { ttlMs: null, durable: true });
      await claim(store, 'w1');
      expect((await ops.apply('alice', task.taskId, (current) => handBackTask(current, 'w2'))).ok).toBe(false);
      const handed = await ops.apply('alice', task.taskId, (current) => handBackTask(current, 'w1'));
      expect(handed.ok && handed.record.execution).toEqual({ state: 'queued', attempt: 1 });
      expect(handed.ok && handed.record.lease).toBeUndefined();
      const [again] = await claim(store, 'w2');
      expect(again?.execution).toEqual({ state: 'running', attempt: 2 });
      const later = Date.now() + 30_000;
      await ops.apply('alice', task.taskId, (current) => handBackTask(current, 'w2', later));
      expect(await claim(store, 'w3')).toEqual([]);
      expect((await claim(store, 'w3', 10, later))[0]?.execution).toEqual({ state: 'running', attempt: 3 });
    });
  });
}

function parkingContract(openDurable: OpenDurable): void {
  describe('durable execution: parked input', () => {
    it('parks a task waiting for input (no lease, not claimable); the last answer wakes it for any worker', async () => {
      const [ops, store] = await openDurable();
      const task = await ops.create('alice', { ttlMs: null, durable: true });
      await claim(store, 'w1');
      const first = await ops.requestInput('alice', task.taskId, ELICIT);
      const second = await ops.requestInput('alice', task.taskId, ELICIT);
      if (!first.ok || !second.ok) throw new Error('requestInput refused');
      const parked = await ops.apply('alice', task.taskId, (current) => parkTask(current, 'w1'));
      expect(parked.ok && parked.record.execution).toEqual({ state: 'parked', attempt: 1 });
      expect(parked.ok && parked.record.lease).toBeUndefined();
      expect(await claim(store, 'w2', 10, Date.now() + 10 * LEASE_MS)).toEqual([]);

      await ops.resolveInputs('alice', task.taskId, { [first.key]: ACCEPT });
      expect(await claim(store, 'w2')).toEqual([]); // one request still outstanding
      const woken = await ops.resolveInputs('alice', task.taskId, { [second.key]: ACCEPT });
      expect(woken.found && woken.record.execution).toEqual({ state: 'queued', attempt: 1 });
      const [resumed] = await claim(store, 'w2');
      expect(resumed?.status).toBe('working');
      expect(Object.keys(resumed?.answers ?? {}).sort()).toEqual([first.key, second.key].sort());
    });

    it('parking after the answer already came queues the task instead (the wake is not lost)', async () => {
      const [ops, store] = await openDurable();
      const task = await ops.create('alice', { ttlMs: null, durable: true });
      await claim(store, 'w1');
      const asked = await ops.requestInput('alice', task.taskId, ELICIT);
      if (!asked.ok) throw new Error('requestInput refused');
      await ops.resolveInputs('alice', task.taskId, { [asked.key]: ACCEPT });
      const parked = await ops.apply('alice', task.taskId, (current) => parkTask(current, 'w1'));
      expect(parked.ok && parked.record.execution?.state).toBe('queued');
      expect(await claim(store, 'w2')).toHaveLength(1);
    });
  });
}

/** A step is recorded once per name, by the lease holder's current run only, and listed in the task's record. */
async function recordsOncePerName(openDurable: OpenDurable): Promise<void> {
  const [ops, store] = await openDurable();
  const task = await ops.create('alice', { ttlMs: null, durable: true });
  await claim(store, 'w1');
  expect(await store.recordStep('alice', task.taskId, 'w2', { name: 'a', attempt: 1, result: 1 })).toEqual({
    ok: false,
  });
  // The holder's older run (another attempt) writes nothing: only the current run records.
  expect(await store.recordStep('alice', task.taskId, 'w1', { name: 'a', attempt: 0, result: 1 })).toEqual({
    ok: false,
  });
  const a = await store.recordStep('alice', task.taskId, 'w1', { name: 'a', attempt: 1, result: { n: [1, 'x'] } });
  expect(a.ok && a.fresh).toBe(true);
  await store.recordStep('alice', task.taskId, 'w1', { name: 'b', attempt: 1, result: null });
  const again = await store.recordStep('alice', task.taskId, 'w1', { name: 'a', attempt: 1, result: 'other' });
  expect(again.ok && !again.fresh && again.step.result).toEqual({ n: [1, 'x'] });
  const steps = await store.steps('alice', task.taskId);
  expect(steps.map((step) => [step.name, step.attempt, step.result])).toEqual([
    ['a', 1, { n: [1, 'x'] }],
    ['b', 1, null],
  ]);
  expect(Object.isFrozen(steps[0]?.result)).toBe(true);
  // The record lists the steps (once each, the stored one not again), for clients to show; claims keep the list.
  const listed = await store.get('alice', task.taskId);
  expect(listed?.execution?.steps).toEqual([
    { name: 'a', attempt: 1 },
    { name: 'b', attempt: 1 },
  ]);
  expect(listed?.lastUpdatedAt).toBe(task.lastUpdatedAt);
  expect(Number.isNaN(Date.parse(steps[0]?.completedAt ?? ''))).toBe(false);
  expect(await store.steps('bob', task.taskId)).toEqual([]);
}

function stepsContract(openDurable: OpenDurable): void {
  describe('durable execution: steps', () => {
    it('records a step once per name (first write wins) for the lease holder only, readable in order', () =>
      recordsOncePerName(openDurable));
    it('a worker that lost its lease cannot record; the new holder sees the old steps and adds its own', async () => {
      const [ops, store] = await openDurable();
      const now = Date.now();
      const task = await ops.create('alice', { ttlMs: null, durable: true, lease: { worker: 'w1', until: now } });
      await store.recordStep('alice', task.taskId, 'w1', { name: 'a', attempt: 1, result: 'one' });
      await claim(store, 'w2', 10, now);
      expect((await store.recordStep('alice', task.taskId, 'w1', { name: 'b', attempt: 1, result: 0 })).ok).toBe(false);
      await store.recordStep('alice', task.taskId, 'w2', { name: 'b', attempt: 2, result: 'two' });
      const steps = await store.steps('alice', task.taskId);
      expect(steps.map((step) => `${step.name}@${step.attempt}`)).toEqual(['a@1', 'b@2']);
      // The list survived the claim, and shows the re-run.
      expect((await store.get('alice', task.taskId))?.execution).toMatchObject({
        attempt: 2,
        steps: [
          { name: 'a', attempt: 1 },
          { name: 'b', attempt: 2 },
        ],
      });
      await ops.complete('alice', task.taskId, RESULT);
      expect((await store.recordStep('alice', task.taskId, 'w2', { name: 'c', attempt: 2, result: 0 })).ok).toBe(false);
      expect(await store.steps('alice', task.taskId)).toHaveLength(2);
    });

    it('drops the steps with the task when it expires', async () => {
      const [ops, store] = await openDurable();
      const task = await ops.create('alice', { ttlMs: 50, durable: true });
      await claim(store, 'w1');
      await store.recordStep('alice', task.taskId, 'w1', { name: 'a', attempt: 1, result: 1 });
      await store.expireDue(Date.now() + 1_000, 10);
      expect(await store.steps('alice', task.taskId)).toEqual([]);
      expect(await ops.get('alice', task.taskId)).toBeUndefined();
    });
  });
}

function stepLimitsContract(openDurable: OpenDurable): void {
  describe('durable execution: step limits', () => {
    it('refuses a step above maxStepBytes or the task total above maxStepBytesPerTask, and malformed steps', async () => {
      const [ops, store] = await openDurable({ maxStepBytes: 100, maxStepBytesPerTask: 150 });
      const task = await ops.create('alice', { ttlMs: null, durable: true });
      await claim(store, 'w1');
      const record = (name: string, result: unknown) =>
        store.recordStep('alice', task.taskId, 'w1', { name, attempt: 1, result });
      await expectStoreError(record('big', 'x'.repeat(99)), 'step_limit');
      await record('first', 'x'.repeat(90));
      await expectStoreError(record('second', 'x'.repeat(90)), 'step_limit');
      await record('small', 'x'.repeat(40));
      await expectStoreError(record('', 1), 'invalid_argument');
      await expectStoreError(record('n'.repeat(201), 1), 'invalid_argument');
      await expectStoreError(record('undefined', undefined), 'invalid_argument');
      expect((await store.steps('alice', task.taskId)).map((step) => step.name)).toEqual(['first', 'small']);
    });
  });
}

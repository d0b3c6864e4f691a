import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isTerminalStatus, type TaskEvent, type TaskRecord } from '../src/taskStore.js';
import type { ContractStore } from '../src/testing/contractContext.js';
import { ACCEPT, ELICIT, expectWellFormed, type OpenStore, RESULT, RPC_ERROR } from '../src/testing/contractContext.js';

const OWNERS = ['alice', 'bob'] as const;

/** One step of a random history; `task` indexes the tasks created so far (modulo their count). */
type Op =
  | { readonly kind: 'create'; readonly owner: 0 | 1; readonly ttlMs: number | null }
  | {
      readonly kind: 'get' | 'foreignGet' | 'status' | 'ask' | 'complete' | 'fail' | 'cancel' | 'race';
      readonly task: number;
    }
  | { readonly kind: 'swap'; readonly task: number; readonly stale: boolean; readonly ttlMs: number | undefined }
  | { readonly kind: 'answer'; readonly task: number; readonly picks: readonly number[] }
  | { readonly kind: 'withdraw'; readonly task: number; readonly pick: number }
  | { readonly kind: 'advance'; readonly ms: number };

const ttl = fc.option(fc.integer({ min: 1, max: 3_000 }), { nil: null, freq: 4 });
const task = fc.nat(20);
const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('create' as const),
      owner: fc.constantFrom(0 as const, 1 as const),
      ttlMs: ttl,
    }),
  },
  fc.record({ kind: fc.constantFrom('get' as const, 'foreignGet' as const, 'status' as const), task }),
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('ask' as const), task }) },
  fc.record({ kind: fc.constantFrom('complete' as const, 'fail' as const, 'cancel' as const, 'race' as const), task }),
  fc.record({
    kind: fc.constant('swap' as const),
    task,
    stale: fc.boolean(),
    ttlMs: fc.option(fc.integer({ min: 1, max: 4_000 }), { nil: undefined }),
  }),
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('answer' as const), task, picks: fc.array(fc.nat(12), { maxLength: 4 }) }),
  },
  fc.record({ kind: fc.constant('withdraw' as const), task, pick: fc.nat(12) }),
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 1, max: 1_500 }) }),
  },
);

/** What the test knows about one task: what it saw, which keys were issued, the events it received. */
interface Tracked {
  readonly taskId: string;
  readonly owner: string;
  readonly createdMs: number;
  last: TaskRecord;
  terminal: TaskRecord | undefined;
  readonly keys: string[];
  readonly events: TaskEvent[];
}

/** Checks one observed record against everything seen before for its task. */
function observe(tracked: Tracked, record: TaskRecord): void {
  expectWellFormed(record);
  expect(record.taskId).toBe(tracked.taskId);
  // A call that raced a write and changed nothing may answer with the snapshot it read: older, never wrong.
  if (record.version < tracked.last.version) return;
  if (tracked.terminal !== undefined) {
    expect(record.version, 'a terminal record never changes').toBe(tracked.terminal.version);
    expect(record.status).toBe(tracked.terminal.status);
  }
  if (record.version > tracked.last.version) {
    expect(record.lastUpdatedAt >= tracked.last.lastUpdatedAt, 'lastUpdatedAt never goes backwards').toBe(true);
    tracked.last = record;
  }
  if (isTerminalStatus(record.status)) tracked.terminal ??= record;
}

/** Checks the event stream of one task: consecutive versions, monotonic time, nothing after the end. */
function checkEvents(tracked: Tracked): void {
  let version = 1;
  let time = '';
  let over = false;
  for (const event of tracked.events) {
    if (over) expect(event.type, 'after a terminal event only expiry may follow').toBe('expired');
    if (event.type === 'expired') return;
    expect(event.record.version, 'versions increase by exactly one').toBe(version + 1);
    expect(event.record.lastUpdatedAt >= time).toBe(true);
    version = event.record.version;
    time = event.record.lastUpdatedAt;
    over = isTerminalStatus(event.record.status);
  }
}

async function apply(store: ContractStore, tasks: Tracked[], op: Op): Promise<void> {
  if (op.kind === 'advance') {
    await vi.advanceTimersByTimeAsync(op.ms);
    return;
  }
  if (op.kind === 'create') {
    const owner = OWNERS[op.owner];
    const record = await store.create(owner, { ttlMs: op.ttlMs });
    const tracked: Tracked = {
      taskId: record.taskId,
      owner,
      createdMs: Date.now(),
      last: record,
      terminal: undefined,
      keys: [],
      events: [],
    };
    await store.subscribe(owner, record.taskId, (event) => tracked.events.push(event));
    tasks.push(tracked);
    return;
  }
  const t = tasks[op.task % Math.max(tasks.length, 1)];
  if (t === undefined) return;
  const { owner, taskId } = t;
  const see = (record: TaskRecord | undefined) => record !== undefined && observe(t, record);
  switch (op.kind) {
    case 'get':
      return void see(await store.get(owner, taskId));
    case 'foreignGet':
      expect(await store.get(owner === 'alice' ? 'bob' : 'alice', taskId)).toBeUndefined();
      return;
    case 'status': {
      const swap = await store.setStatusMessage(owner, taskId, `at ${Date.now()}`);
      return void see(swap.ok ? swap.record : swap.current);
    }
    case 'swap': {
      const expected = t.last.version - (op.stale ? 1 : 0);
      const swap = await store.compareAndSwap(owner, taskId, expected, {
        ttlMs: op.ttlMs,
        pollIntervalMs: op.task * 10,
      });
      if (swap.ok) expect(swap.record.version).toBe(expected + 1);
      else if (op.stale && swap.current !== undefined) expect(swap.current.version).toBeGreaterThan(expected);
      return void see(swap.ok ? swap.record : swap.current);
    }
    case 'ask': {
      const asked = await store.requestInput(owner, taskId, ELICIT);
      if (asked.ok) {
        expect(t.keys, 'keys are never reused (S20)').not.toContain(asked.key);
        t.keys.push(asked.key);
      }
      return void see(asked.ok ? asked.record : asked.current);
    }
    case 'answer': {
      const picked = op.picks.map((i) => t.keys[i % Math.max(t.keys.length, 1)] ?? 'never-issued');
      const before = await store.get(owner, taskId);
      const resolved = await store.resolveInputs(owner, taskId, Object.fromEntries(picked.map((key) => [key, ACCEPT])));
      if (!resolved.found || before === undefined) return;
      const outstanding = isTerminalStatus(before.status) ? [] : Object.keys(before.inputRequests);
      expect([...resolved.accepted].sort(), 'only outstanding keys are accepted (S26)').toEqual(
        [...new Set(picked)].filter((key) => outstanding.includes(key)).sort(),
      );
      return void see(resolved.record);
    }
    case 'withdraw': {
      const swap = await store.withdrawInput(owner, taskId, t.keys[op.pick % Math.max(t.keys.length, 1)] ?? 'none');
      return void see(swap.ok ? swap.record : swap.current);
    }
    case 'complete':
    case 'fail':
    case 'cancel': {
      const wasTerminal = t.terminal !== undefined;
      const outcome =
        op.kind === 'complete'
          ? await store.complete(owner, taskId, RESULT)
          : op.kind === 'fail'
            ? await store.fail(owner, taskId, RPC_ERROR, 'failed')
            : await store.cancel(owner, taskId);
      if (outcome.found && wasTerminal) expect(outcome.won).toBe(false);
      return void (outcome.found && see(outcome.record));
    }
    case 'race': {
      const wasTerminal = t.terminal !== undefined;
      const answers = Object.fromEntries(t.keys.map((key) => [key, ACCEPT]));
      const [cancelled, completed, resolved] = await Promise.all([
        store.cancel(owner, taskId),
        store.complete(owner, taskId, RESULT),
        store.resolveInputs(owner, taskId, answers),
      ]);
      if (cancelled.found && completed.found) {
        expect(Number(cancelled.won) + Number(completed.won)).toBe(wasTerminal ? 0 : 1);
        see(cancelled.record);
        see(completed.record);
      }
      if (resolved.found) see(resolved.record);
    }
  }
}

/** After every step: nothing expired early; after time moved, everything due is gone. */
async function checkExpiry(store: ContractStore, tasks: readonly Tracked[], timeMoved: boolean): Promise<void> {
  const now = Date.now();
  for (const t of tasks) {
    const deadline = t.last.ttlMs === null ? Number.POSITIVE_INFINITY : t.createdMs + t.last.ttlMs;
    const found = await store.get(t.owner, t.taskId);
    if (now < deadline) expect(found, `task expired early (${now} < ${deadline})`).toBeDefined();
    else if (timeMoved) expect(found, 'task outlived its deadline').toBeUndefined();
    if (found !== undefined) observe(t, found);
    checkEvents(t);
  }
}

/** Property-based checks over random interleavings of every operation, including expiry. */
export function propertyContract(open: OpenStore): void {
  describe('random interleavings (property-based)', () => {
    beforeEach(() => {
      vi.useFakeTimers();
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it('keeps every invariant: terminal finality, +1 versions, monotonic time, unique keys, input_required iff requests', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(opArbitrary, { minLength: 1, maxLength: 60 }), async (ops) => {
          const store = await open();
          const tasks: Tracked[] = [];
          try {
            for (const op of ops) {
              await apply(store, tasks, op);
              await checkExpiry(store, tasks, op.kind === 'advance');
            }
          } finally {
            await store.close();
          }
        }),
        // A fixed seed keeps the suite deterministic; fast-check prints the path of any counterexample.
        { numRuns: 300, seed: 0x7a5c },
      );
    });
  });
}

import { ChangeFeed } from './changeFeed.js';
import { DeadlineHeap } from './deadlineHeap.js';
import { deepFreeze } from './deepFreeze.js';
import {
  type ClaimOptions,
  DEFAULT_MAX_STEP_BYTES,
  DEFAULT_MAX_STEP_BYTES_PER_TASK,
  type DurableTaskStore,
  type RecordStepInput,
  type RecordStepResult,
  type StepRecord,
} from './durableTaskStore.js';
import { defaultTimers, ExpiryScheduler } from './expiryScheduler.js';
import { checkTtl } from './fieldChecks.js';
import { queueRunnable, takeLapsed, takeRunnable } from './heapTakes.js';
import type { InMemoryTaskStoreOptions, InMemoryTaskStoreStats } from './inMemoryTaskStoreOptions.js';
import { createIsoFormatter } from './isoClock.js';
import { claimTask, holdsRun, noteStep } from './leaseTransitions.js';
import { checkListLimit, compareListPosition, decodeListCursor, encodeListCursor } from './listCursor.js';
import { OwnerTally } from './ownerTally.js';
import { takeLastFrozenRecord } from './recordFreezer.js';
import { measureStep, StepLog } from './stepLog.js';
import { createTaskIdGenerator } from './taskId.js';
import {
  type CreateTaskOptions,
  isTerminalStatus,
  type ListTasksOptions,
  type SwapResult,
  type TaskListener,
  type TaskOwner,
  type TaskPage,
  type TaskRecord,
  type Unsubscribe,
} from './taskStore.js';
import { TaskStoreError, taskLimitReached } from './taskStoreError.js';
import { newTask } from './transitions.js';

const NOT_HELD: RecordStepResult = Object.freeze({ ok: false });

/** Stale lease entries tolerated beyond twice the tasks stored before the lease heap is rebuilt. */
const LEASE_SLACK = 64;

/**
 * The in-memory `TaskStore`: a `Map` of deep-frozen records replaced (never mutated) on every change, one expiry
 * timer over a min-heap of deadlines (it expires tasks on its own; `expireDue` is there for callers that sweep),
 * a min-heap of lease deadlines for `lapsedLeases`, a min-heap of runnable times for `claim`, and synchronous delivery
 * of the change feed right after each write. Returned records are shared, not copied. For one process (or several
 * servers in one process); state, steps included, is lost on restart.
 */
export class InMemoryTaskStore implements DurableTaskStore {
  readonly #records = new Map<string, TaskRecord>();
  readonly #tally = new OwnerTally();
  readonly #expiry: ExpiryScheduler;
  readonly #leases = new DeadlineHeap();
  readonly #runnable = new DeadlineHeap();
  readonly #steps = new StepLog();
  readonly #maxStepBytes: number;
  readonly #maxStepBytesPerTask: number;
  readonly #feed: ChangeFeed;
  readonly #now: () => number;
  readonly #newId: () => string;
  readonly #iso = createIsoFormatter();
  readonly #maxTtlMs: number | null;
  readonly #maxTasksPerOwner: number;
  readonly #maxFinishedTasksPerOwner: number;
  /** Collects the records one `expireDue` call removes. */
  #expiredNow: TaskRecord[] | undefined;
  #closed = false;

  /** Creates an empty store. Tasks with a TTL are removed by the store's own expiry timer, which `close()` stops. */
  constructor(options: InMemoryTaskStoreOptions = {}) {
    this.#now = options.now ?? defaultTimers.now;
    const timers = {
      now: this.#now,
      setTimer: options.setTimer ?? defaultTimers.setTimer,
      clearTimer: options.clearTimer ?? defaultTimers.clearTimer,
    };
    const onSweep = options.onSweep;
    this.#expiry = new ExpiryScheduler(
      timers,
      (taskId) => {
        const record = this.#records.get(taskId);
        return record === undefined || record.ttlMs === null ? undefined : Date.parse(record.createdAt) + record.ttlMs;
      },
      (taskId) => this.#expire(taskId),
      (outcome) => onSweep?.({ ...outcome, live: this.#records.size }),
    );
    this.#newId = createTaskIdGenerator(options.randomFill);
    this.#feed = new ChangeFeed(options.onListenerError ?? ((error) => console.error('TaskStore listener:', error)));
    this.#maxTtlMs = options.maxTtlMs ?? null;
    this.#maxTasksPerOwner = options.maxTasksPerOwner ?? Number.POSITIVE_INFINITY;
    this.#maxFinishedTasksPerOwner = options.maxFinishedTasksPerOwner ?? Number.POSITIVE_INFINITY;
    this.#maxStepBytes = options.maxStepBytes ?? DEFAULT_MAX_STEP_BYTES;
    this.#maxStepBytesPerTask = options.maxStepBytesPerTask ?? DEFAULT_MAX_STEP_BYTES_PER_TASK;
  }

  /** What the store retains right now, for leak checks and monitoring. */
  stats(): InMemoryTaskStoreStats {
    return {
      tasks: this.#records.size,
      owners: this.#tally.size,
      watchers: this.#feed.size,
      deadlineEntries: this.#expiry.size,
      leaseEntries: this.#leases.size,
      runnableEntries: this.#runnable.size,
      stepTasks: this.#steps.size,
      timerActive: this.#expiry.active,
    };
  }

  async create(owner: TaskOwner, options: CreateTaskOptions): Promise<TaskRecord> {
    this.#assertOpen();
    const now = this.#now();
    const taskId = options.taskId ?? this.#newId();
    if (this.#records.has(taskId)) throw new TaskStoreError('invalid_argument', `Task id ${taskId} is in use`);
    const record = newTask(taskId, owner, options, this.#iso(now), this.#maxTtlMs);
    if (this.#tally.live(owner) >= this.#maxTasksPerOwner) throw taskLimitReached(this.#maxTasksPerOwner);
    // Finished tasks beyond the cap leave before their TTL, oldest-finished first, announced like an expiry.
    for (const finished of this.#tally.finishedBeyond(owner, this.#maxFinishedTasksPerOwner)) this.#expire(finished);
    this.#records.set(taskId, record);
    this.#tally.created(owner);
    if (record.ttlMs !== null) this.#expiry.add(now + record.ttlMs, taskId);
    if (record.lease !== undefined) this.#leases.push(record.lease.until, taskId);
    queueRunnable(this.#runnable, undefined, record);
    return record;
  }

  async get(owner: TaskOwner, taskId: string): Promise<TaskRecord | undefined> {
    this.#assertOpen();
    return this.#find(owner, taskId);
  }

  /**
   * Scans every stored task (the cost grows with all tasks stored, not with the page): listing is a rare,
   * human-paced call, and an index per owner would tax every create and expiry instead.
   */
  async list(owner: TaskOwner, options: ListTasksOptions): Promise<TaskPage> {
    this.#assertOpen();
    checkListLimit(options.limit);
    const after = options.cursor === undefined ? undefined : decodeListCursor(options.cursor);
    const now = this.#now();
    const mine: TaskRecord[] = [];
    for (const record of this.#records.values()) {
      if (record.owner !== owner) continue;
      if (record.ttlMs !== null && Date.parse(record.createdAt) + record.ttlMs <= now) continue;
      if (after === undefined || compareListPosition(record, after) > 0) mine.push(record);
    }
    mine.sort(compareListPosition);
    if (mine.length <= options.limit) return { tasks: mine };
    const tasks = mine.slice(0, options.limit);
    return { tasks, nextCursor: encodeListCursor(tasks[tasks.length - 1] as TaskRecord) };
  }

  async swap(owner: TaskOwner, taskId: string, expectedVersion: number, next: TaskRecord): Promise<SwapResult> {
    this.#assertOpen();
    const current = this.#find(owner, taskId);
    if (current === undefined || current.version !== expectedVersion || isTerminalStatus(current.status)) {
      return { ok: false, current };
    }
    return { ok: true, record: this.#write(current, next) };
  }

  async update(
    owner: TaskOwner,
    taskId: string,
    step: (current: TaskRecord) => TaskRecord | undefined,
  ): Promise<SwapResult> {
    this.#assertOpen();
    const current = this.#find(owner, taskId);
    if (current === undefined) return { ok: false, current };
    const next = step(current);
    if (next === undefined || next === current || isTerminalStatus(current.status)) return { ok: false, current };
    return { ok: true, record: this.#write(current, next) };
  }

  /** Replaces `current` by `next` (checked to be its successor), keeps the deadline heaps current, then emits. */
  #write(current: TaskRecord, next: TaskRecord): TaskRecord {
    const { taskId } = current;
    if (next.taskId !== taskId || next.owner !== current.owner || next.version !== current.version + 1) {
      throw new TaskStoreError('invalid_argument', `swap of ${taskId} needs the next version of the same task`);
    }
    if (next.ttlMs !== current.ttlMs) checkTtl(next.ttlMs, this.#maxTtlMs);
    const record = takeLastFrozenRecord(next) ? next : deepFreeze(next);
    this.#records.set(taskId, record);
    if (isTerminalStatus(record.status)) this.#tally.finished(record.owner, taskId);
    if (record.ttlMs !== null && (current.ttlMs === null || record.ttlMs < current.ttlMs)) {
      // A new or earlier deadline needs its own heap entry; a later one is re-queued when the old entry pops.
      this.#expiry.add(Date.parse(record.createdAt) + record.ttlMs, taskId);
    }
    const lease = record.lease;
    if (lease !== undefined && (current.lease === undefined || lease.until < current.lease.until)) {
      this.#leases.push(lease.until, taskId);
    }
    queueRunnable(this.#runnable, current, record);
    if (this.#feed.size !== 0) this.#feed.emit({ type: 'updated', record });
    return record;
  }

  async recordStep(owner: TaskOwner, taskId: string, worker: string, step: RecordStepInput): Promise<RecordStepResult> {
    this.#assertOpen();
    const measured = measureStep(step, this.#maxStepBytes);
    const record = this.#find(owner, taskId);
    if (record === undefined || !holdsRun(record, worker, step.attempt)) return NOT_HELD;
    const stamp = this.#iso(this.#now());
    const recorded = this.#steps.record(taskId, step, measured, this.#maxStepBytesPerTask, stamp);
    const noted = recorded.fresh ? noteStep(record, step.name, step.attempt) : undefined;
    if (noted !== undefined) this.#write(record, noted);
    return { ok: true, ...recorded };
  }

  async steps(owner: TaskOwner, taskId: string): Promise<readonly StepRecord[]> {
    this.#assertOpen();
    return this.#find(owner, taskId) === undefined ? [] : this.#steps.steps(taskId);
  }

  async claim(options: ClaimOptions): Promise<readonly TaskRecord[]> {
    this.#assertOpen();
    const { worker, limit, leaseMs, now } = options;
    const take = (record: TaskRecord) => claimTask(record, worker, now + leaseMs, now);
    return takeRunnable(this.#runnable, this.#records, now, limit, (record, next) => this.#write(record, next), take);
  }

  async expireDue(now: number, limit: number): Promise<readonly TaskRecord[]> {
    this.#assertOpen();
    const removed: TaskRecord[] = [];
    this.#expiredNow = removed;
    try {
      this.#expiry.sweep(now, limit);
    } finally {
      this.#expiredNow = undefined;
    }
    return removed;
  }

  async lapsedLeases(now: number, limit: number): Promise<readonly TaskRecord[]> {
    this.#assertOpen();
    return takeLapsed(this.#leases, this.#records, now, limit);
  }

  async watch(listener: TaskListener): Promise<Unsubscribe> {
    this.#assertOpen();
    return this.#feed.add(listener);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#expiry.stop();
    this.#leases.clear();
    this.#runnable.clear();
    this.#steps.clear();
    this.#feed.clear();
    this.#records.clear();
    this.#tally.clear();
  }

  #find(owner: TaskOwner, taskId: string): TaskRecord | undefined {
    const record = this.#records.get(taskId);
    return record !== undefined && record.owner === owner ? record : undefined;
  }

  #expire(taskId: string): void {
    const record = this.#records.get(taskId);
    if (record === undefined) return;
    this.#records.delete(record.taskId);
    this.#steps.remove(record.taskId);
    this.#tally.removed(record.owner, record.taskId, isTerminalStatus(record.status));
    this.#compactLeases();
    this.#expiredNow?.push(record);
    this.#feed.emit({ type: 'expired', record });
  }

  /**
   * Lease entries are dropped lazily, when a sweep pops them, and a task that ends or expires long before its lease
   * would have lapsed leaves its entry behind (or all of them, with no sweep at all). Once stale entries outnumber
   * the stored tasks, the heap is rebuilt from the tasks that still hold a lease: it stays within twice the tasks
   * stored (plus a little), empties with the store, and each rebuild is paid for by the removals before it.
   */
  #compactLeases(): void {
    const leases = this.#leases;
    if (leases.size === 0 || leases.size <= 2 * this.#records.size + LEASE_SLACK) {
      if (this.#records.size === 0) leases.clear();
      return;
    }
    leases.clear();
    for (const record of this.#records.values()) {
      if (record.lease !== undefined && !isTerminalStatus(record.status))
        leases.push(record.lease.until, record.taskId);
    }
  }

  #assertOpen(): void {
    if (this.#closed) throw new TaskStoreError('closed', 'The task store is closed');
  }
}

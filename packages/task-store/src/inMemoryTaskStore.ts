import { deepFreeze } from './deepFreeze.js';
import { defaultTimers, ExpiryScheduler } from './expiryScheduler.js';
import { checkInterval, checkTtl, laterIso } from './fieldChecks.js';
import { createIsoFormatter } from './isoClock.js';
import { TaskEventHub } from './taskEventHub.js';
import { createTaskIdGenerator, type RandomFill } from './taskId.js';
import {
  type CreateTaskOptions,
  type InputRequest,
  type InputResponse,
  type InputResponses,
  isTerminalStatus,
  type JsonObject,
  type RequestInputResult,
  type ResolveInputsResult,
  type SwapResult,
  type TaskError,
  type TaskListener,
  type TaskOwner,
  type TaskRecord,
  type TaskRecordPatch,
  type TaskStatus,
  type TaskStore,
  type TaskStoreLimits,
  type TerminalResult,
  type Unsubscribe,
} from './taskStore.js';
import { TaskStoreError } from './taskStoreError.js';
import { waitForTaskEnd, waitForTaskInput } from './taskWaits.js';

/** Options for `InMemoryTaskStore`; every one has a default suitable for production. */
export interface InMemoryTaskStoreOptions extends TaskStoreLimits {
  /** Epoch milliseconds (an integer). @default Date.now */
  readonly now?: () => number;
  /** Schedules the single expiry timer. @default setTimeout, unref'd where the platform supports it */
  readonly setTimer?: (callback: () => void, delayMs: number) => unknown;
  /** Cancels a handle returned by `setTimer`. @default clearTimeout */
  readonly clearTimer?: (handle: unknown) => void;
  /** Source of random bytes for task ids. @default globalThis.crypto.getRandomValues */
  readonly randomFill?: RandomFill;
  /** Receives exceptions thrown by listeners. @default console.error */
  readonly onListenerError?: (error: unknown) => void;
}

/** A snapshot of what an `InMemoryTaskStore` holds (see `stats()`). */
export interface InMemoryTaskStoreStats {
  /** Stored tasks, all owners, including terminal ones not yet expired. */
  readonly tasks: number;
  /** Owners with at least one stored task. */
  readonly owners: number;
  /** Tasks with at least one listener or pending wait. */
  readonly listenedTasks: number;
  readonly pendingWaits: number;
  /** Accepted answers not yet taken by `waitForInput`. */
  readonly undeliveredAnswers: number;
  /** Heap entries, including stale ones awaiting their turn. */
  readonly deadlineEntries: number;
  /** Whether the single expiry timer is scheduled. */
  readonly timerActive: boolean;
}

/** The fields a write may set; absent keys keep the previous value, present `undefined` clears it. */
type Changes = {
  -readonly [K in
    | 'status'
    | 'statusMessage'
    | 'pollIntervalMs'
    | 'ttlMs'
    | 'inputRequests'
    | 'result'
    | 'error']?: TaskRecord[K];
};

const NO_INPUT_REQUESTS: TaskRecord['inputRequests'] = Object.freeze({});

/**
 * The in-memory `TaskStore`: a `Map` of deep-frozen records replaced (never mutated) on every change, one expiry
 * timer over a min-heap of deadlines, and synchronous event delivery right after each write. Returned records are
 * shared, not copied. Suitable for a single process; state is lost on restart.
 */
export class InMemoryTaskStore implements TaskStore {
  readonly #records = new Map<string, TaskRecord>();
  readonly #ownerCounts = new Map<TaskOwner, number>();
  /** Accepted answers not yet taken by `waitForInput`; released when taken or when the task ends. */
  readonly #answers = new Map<string, Map<string, InputResponse>>();
  readonly #pendingWaits = new Set<(error: Error) => void>();
  readonly #expiry: ExpiryScheduler;
  readonly #hub: TaskEventHub;
  readonly #now: () => number;
  readonly #newId: () => string;
  readonly #iso = createIsoFormatter();
  readonly #maxTtlMs: number | null;
  readonly #maxTasksPerOwner: number;
  #closed = false;

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
    this.#hub = new TaskEventHub(options.onListenerError ?? ((error) => console.error('TaskStore listener:', error)));
    this.#maxTtlMs = options.maxTtlMs ?? null;
    this.#maxTasksPerOwner = options.maxTasksPerOwner ?? Number.POSITIVE_INFINITY;
  }

  /** What the store retains right now, for leak checks and monitoring. */
  stats(): InMemoryTaskStoreStats {
    let answers = 0;
    for (const stash of this.#answers.values()) answers += stash.size;
    return {
      tasks: this.#records.size,
      owners: this.#ownerCounts.size,
      listenedTasks: this.#hub.taskCount,
      pendingWaits: this.#pendingWaits.size,
      undeliveredAnswers: answers,
      deadlineEntries: this.#expiry.size,
      timerActive: this.#expiry.active,
    };
  }

  async create(owner: TaskOwner, options: CreateTaskOptions): Promise<TaskRecord> {
    this.#assertOpen();
    const ttlMs = checkTtl(options.ttlMs, this.#maxTtlMs);
    const pollIntervalMs = checkInterval(options.pollIntervalMs);
    const count = this.#ownerCounts.get(owner) ?? 0;
    if (count >= this.#maxTasksPerOwner) {
      throw new TaskStoreError('task_limit', `Task limit reached: at most ${this.#maxTasksPerOwner} tasks per owner`);
    }
    const now = this.#now();
    const createdAt = this.#iso(now);
    const record: TaskRecord = Object.freeze({
      taskId: this.#newId(),
      owner,
      version: 1,
      status: 'working' as TaskStatus,
      statusMessage: options.statusMessage,
      createdAt,
      lastUpdatedAt: createdAt,
      ttlMs,
      pollIntervalMs,
      inputRequests: NO_INPUT_REQUESTS,
      result: undefined,
      error: undefined,
      requestMeta: deepFreeze(options.requestMeta),
    });
    this.#records.set(record.taskId, record);
    this.#ownerCounts.set(owner, count + 1);
    if (ttlMs !== null) this.#expiry.add(now + ttlMs, record.taskId);
    return record;
  }

  async get(owner: TaskOwner, taskId: string): Promise<TaskRecord | undefined> {
    this.#assertOpen();
    return this.#find(owner, taskId);
  }

  async compareAndSwap(
    owner: TaskOwner,
    taskId: string,
    expectedVersion: number,
    patch: TaskRecordPatch | ((current: TaskRecord) => TaskRecordPatch),
  ): Promise<SwapResult> {
    this.#assertOpen();
    const current = this.#find(owner, taskId);
    if (current === undefined || current.version !== expectedVersion || isTerminalStatus(current.status)) {
      return { ok: false, current };
    }
    const fields = typeof patch === 'function' ? patch(current) : patch;
    const changes: Changes = {};
    if ('statusMessage' in fields) changes.statusMessage = fields.statusMessage;
    if ('pollIntervalMs' in fields) changes.pollIntervalMs = checkInterval(fields.pollIntervalMs);
    if ('ttlMs' in fields && fields.ttlMs !== undefined) changes.ttlMs = checkTtl(fields.ttlMs, this.#maxTtlMs);
    const record = this.#write(current, changes);
    if (record.ttlMs !== null && (current.ttlMs === null || record.ttlMs < current.ttlMs)) {
      // A new or earlier deadline needs its own heap entry; a later one is re-queued when the old entry pops.
      this.#expiry.add(Date.parse(record.createdAt) + record.ttlMs, taskId);
    }
    return { ok: true, record };
  }

  async setStatusMessage(owner: TaskOwner, taskId: string, statusMessage: string): Promise<SwapResult> {
    this.#assertOpen();
    const current = this.#find(owner, taskId);
    if (current === undefined || isTerminalStatus(current.status)) return { ok: false, current };
    return { ok: true, record: this.#write(current, { statusMessage }) };
  }

  async requestInput(owner: TaskOwner, taskId: string, request: InputRequest): Promise<RequestInputResult> {
    this.#assertOpen();
    const current = this.#find(owner, taskId);
    if (current === undefined || isTerminalStatus(current.status)) return { ok: false, current };
    // The key is derived from the new version, which no other write of this task can ever have (S20).
    const key = `input-${current.version + 1}`;
    const inputRequests = Object.freeze({ ...current.inputRequests, [key]: deepFreeze(request) });
    const record = this.#write(current, { status: 'input_required', inputRequests });
    return { ok: true, key, record };
  }

  async resolveInputs(owner: TaskOwner, taskId: string, responses: InputResponses): Promise<ResolveInputsResult> {
    this.#assertOpen();
    const current = this.#find(owner, taskId);
    if (current === undefined) return { found: false };
    const accepted: string[] = [];
    if (!isTerminalStatus(current.status)) {
      for (const key of Object.keys(responses)) {
        const response = responses[key];
        // Only outstanding keys count (S26); anything else is ignored, never an error.
        if (Object.hasOwn(current.inputRequests, key) && typeof response === 'object' && response !== null) {
          accepted.push(key);
        }
      }
    }
    if (accepted.length === 0) return { found: true, accepted, record: current };
    let stash = this.#answers.get(taskId);
    if (stash === undefined) {
      stash = new Map();
      this.#answers.set(taskId, stash);
    }
    const remaining: Record<string, InputRequest> = { ...current.inputRequests };
    for (const key of accepted) {
      stash.set(key, deepFreeze(responses[key] as InputResponse));
      delete remaining[key];
    }
    return { found: true, accepted, record: this.#writeInputs(current, remaining) };
  }

  async withdrawInput(owner: TaskOwner, taskId: string, key: string): Promise<SwapResult> {
    this.#assertOpen();
    const current = this.#find(owner, taskId);
    if (current === undefined || !Object.hasOwn(current.inputRequests, key)) return { ok: false, current };
    const remaining: Record<string, InputRequest> = { ...current.inputRequests };
    delete remaining[key];
    return { ok: true, record: this.#writeInputs(current, remaining) };
  }

  async complete(
    owner: TaskOwner,
    taskId: string,
    result: JsonObject,
    statusMessage?: string,
  ): Promise<TerminalResult> {
    return this.#finish(owner, taskId, { status: 'completed', statusMessage, result: deepFreeze(result) });
  }

  async fail(owner: TaskOwner, taskId: string, error: TaskError, statusMessage?: string): Promise<TerminalResult> {
    return this.#finish(owner, taskId, { status: 'failed', statusMessage, error: deepFreeze(error) });
  }

  async cancel(owner: TaskOwner, taskId: string, reason?: string): Promise<TerminalResult> {
    return this.#finish(owner, taskId, { status: 'cancelled', statusMessage: reason });
  }

  async subscribe(owner: TaskOwner, taskId: string, listener: TaskListener): Promise<Unsubscribe> {
    this.#assertOpen();
    // Another owner's task looks unknown: the subscription is accepted and never fires.
    if (this.#find(owner, taskId) === undefined) return () => {};
    return this.#hub.add(taskId, listener);
  }

  async waitForInput(owner: TaskOwner, taskId: string, key: string, signal?: AbortSignal): Promise<InputResponse> {
    this.#assertOpen();
    return waitForTaskInput(this.#waitHost, owner, taskId, key, signal);
  }

  async waitForEnd(owner: TaskOwner, taskId: string, signal?: AbortSignal): Promise<TaskRecord | undefined> {
    this.#assertOpen();
    return waitForTaskEnd(this.#waitHost, owner, taskId, signal);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#expiry.stop();
    const error = new TaskStoreError('closed', 'The task store is closed');
    for (const reject of [...this.#pendingWaits]) reject(error);
    this.#pendingWaits.clear();
    this.#hub.clear();
    this.#records.clear();
    this.#answers.clear();
    this.#ownerCounts.clear();
  }

  /** What the wait helpers need: synchronous reads, answer hand-off and listener registration. */
  readonly #waitHost = {
    find: (owner: TaskOwner, taskId: string) => this.#find(owner, taskId),
    takeAnswer: (taskId: string, key: string) => this.#takeAnswer(taskId, key),
    listen: (taskId: string, listener: TaskListener) => this.#hub.add(taskId, listener),
    pending: this.#pendingWaits,
  };

  #find(owner: TaskOwner, taskId: string): TaskRecord | undefined {
    const record = this.#records.get(taskId);
    return record !== undefined && record.owner === owner ? record : undefined;
  }

  #takeAnswer(taskId: string, key: string): InputResponse | undefined {
    const stash = this.#answers.get(taskId);
    const answer = stash?.get(key);
    if (answer !== undefined && stash !== undefined) {
      stash.delete(key);
      if (stash.size === 0) this.#answers.delete(taskId);
    }
    return answer;
  }

  #finish(owner: TaskOwner, taskId: string, changes: Changes): TerminalResult {
    this.#assertOpen();
    const current = this.#find(owner, taskId);
    if (current === undefined) return { found: false };
    // First terminal writer wins; a terminal record never changes again (decision 6).
    if (isTerminalStatus(current.status)) return { found: true, won: false, record: current };
    this.#answers.delete(taskId);
    const record = this.#write(current, { ...changes, inputRequests: NO_INPUT_REQUESTS });
    return { found: true, won: true, record };
  }

  #writeInputs(current: TaskRecord, remaining: Record<string, InputRequest>): TaskRecord {
    const empty = Object.keys(remaining).length === 0;
    return this.#write(current, {
      status: empty ? 'working' : 'input_required',
      inputRequests: empty ? NO_INPUT_REQUESTS : Object.freeze(remaining),
    });
  }

  /** Replaces `current` with a new frozen record (one object literal: the fast shape), then emits. */
  #write(current: TaskRecord, changes: Changes): TaskRecord {
    const stamp = this.#iso(this.#now());
    const record: TaskRecord = Object.freeze({
      taskId: current.taskId,
      owner: current.owner,
      version: current.version + 1,
      status: changes.status ?? current.status,
      statusMessage: 'statusMessage' in changes ? changes.statusMessage : current.statusMessage,
      createdAt: current.createdAt,
      lastUpdatedAt: laterIso(stamp, current.lastUpdatedAt),
      ttlMs: changes.ttlMs !== undefined ? changes.ttlMs : current.ttlMs,
      pollIntervalMs: 'pollIntervalMs' in changes ? changes.pollIntervalMs : current.pollIntervalMs,
      inputRequests: changes.inputRequests ?? current.inputRequests,
      result: changes.result ?? current.result,
      error: changes.error ?? current.error,
      requestMeta: current.requestMeta,
    });
    this.#records.set(record.taskId, record);
    this.#hub.emit(record.taskId, { type: 'updated', record, previous: current });
    return record;
  }

  #expire(taskId: string): void {
    const record = this.#records.get(taskId);
    if (record === undefined) return;
    this.#records.delete(record.taskId);
    this.#answers.delete(record.taskId);
    const count = (this.#ownerCounts.get(record.owner) ?? 1) - 1;
    if (count === 0) this.#ownerCounts.delete(record.owner);
    else this.#ownerCounts.set(record.owner, count);
    this.#hub.emit(record.taskId, { type: 'expired', record });
    this.#hub.drop(record.taskId);
  }

  #assertOpen(): void {
    if (this.#closed) throw new TaskStoreError('closed', 'The task store is closed');
  }
}

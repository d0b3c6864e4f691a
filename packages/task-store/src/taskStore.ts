/**
 * The TaskStore contract: the single source of truth for task state, shared by the server runtime and any
 * distributed store (a database, Redis). Every method is asynchronous so a remote store can implement it; the
 * in-memory store answers synchronously underneath.
 *
 * Records are immutable: every change produces a new frozen record whose `version` is the previous one plus one and
 * whose `lastUpdatedAt` never goes backwards. Concurrent writers race by compare-and-swap; a lost race is a normal
 * return value, never an exception. A terminal record (`completed`, `failed`, `cancelled`) never changes again.
 *
 * Ownership: every call names the owner. A task owned by someone else looks exactly like an unknown or expired one.
 */

import type { InputRequest, InputResponse, InputResponses, TaskStatus } from '@mcp-tasks/protocol';
import type { JsonObject, TaskLease, TaskOwner, TaskRecord, TerminalStatus } from './taskRecord.js';

export type { JsonObject, TaskError, TaskLease, TaskOwner, TaskRecord, TerminalStatus } from './taskRecord.js';
export type { RequestInputResult, ResolveInputsResult, SwapResult, TerminalResult } from './writeOutcomes.js';

import type { SwapResult } from './writeOutcomes.js';

// The wire payload types come from the protocol package; re-exported so store users need one import.
export type { InputRequest, InputResponse, InputResponses, TaskStatus };

/** What `create` needs. */
export interface CreateTaskOptions {
  /**
   * The id to create the task under, chosen by the caller (so a task can be named before it exists); drawn from
   * the store's generator when absent. An id already in use rejects with `invalid_argument`.
   */
  readonly taskId?: string;
  /**
   * Lifetime from creation in ms (a non-negative integer), or `null` for no expiry. Exceeding the store's
   * `maxTtlMs` (and `null` when a maximum is set) rejects with `TaskStoreError` code `ttl_limit`.
   */
  readonly ttlMs: number | null;
  /** Suggested polling interval in ms (a non-negative integer). */
  readonly pollIntervalMs?: number;
  /** The initial status message. */
  readonly statusMessage?: string;
  /** Metadata from the creating request; deep-frozen in place and stored by reference. */
  readonly requestMeta?: JsonObject;
  /** The lease of the worker that will run the task's tool, written atomically with the task. */
  readonly lease?: TaskLease;
  /**
   * Makes the task's work durable (`TaskRecord.execution`): with a `lease` it starts `running` on that worker
   * (attempt 1), without one it starts `queued` for any worker's `claim`. @default false
   */
  readonly durable?: boolean;
}

/**
 * The fields `TaskOperations.compareAndSwap` may change. Status, input requests, result and error change only
 * through the named transitions, which keep the invariants (key uniqueness, terminal finality, payload presence).
 * A key present with the value `undefined` clears an optional field.
 */
export interface TaskRecordPatch {
  /** A new status message. */
  readonly statusMessage?: string | undefined;
  /** A new suggested polling interval in ms. */
  readonly pollIntervalMs?: number | undefined;
  /** Subject to `maxTtlMs` like `create`; the deadline moves with it (still counted from `createdAt`). */
  readonly ttlMs?: number | null;
}

/**
 * A change to one task. A change feed delivers, per task, in version order and after the change is visible to
 * `get`; a networked store may deliver late, so readers compare versions and re-read when unsure.
 */
export type TaskEvent =
  | {
      /** A new version of the task was written. */
      readonly type: 'updated';
      /** The record as written. */
      readonly record: TaskRecord;
    }
  /** The task's TTL elapsed and it was removed (`get` now says not found); a running tool should be aborted. */
  | {
      /** The task expired. */
      readonly type: 'expired';
      /** The last record of the task before its removal. */
      readonly record: TaskRecord;
    };

/** Listener of a change feed. Exceptions it throws are isolated from the writer and other listeners. */
export type TaskListener = (event: TaskEvent) => void;

/** Stops a subscription. Idempotent; afterwards nobody holds a reference to the listener. */
export type Unsubscribe = () => void;

/** What `list` reads: one page of an owner's tasks. */
export interface ListTasksOptions {
  /** The `nextCursor` of the previous page; absent for the first page. */
  readonly cursor?: string | undefined;
  /** Most tasks on the page (a positive integer). */
  readonly limit: number;
}

/** One page of `list`. */
export interface TaskPage {
  /** The owner's tasks in creation order (oldest first; ties broken by task id). */
  readonly tasks: readonly TaskRecord[];
  /** Present exactly when more tasks follow; pass it to get the next page. Opaque. */
  readonly nextCursor?: string;
}

/** Work done by one expiry sweep; stores report it so tests can assert cost without timing. */
export interface SweepStats {
  /** Deadline entries inspected (popped or peeked) during the sweep. */
  readonly examined: number;
  /** Tasks removed by the sweep. */
  readonly expired: number;
  /** Tasks stored after the sweep. */
  readonly live: number;
}

/** Limits and instrumentation every store accepts (the contract suite passes these to its factory). */
export interface TaskStoreLimits {
  /** Largest `ttlMs` accepted; `null` (the default) means no maximum and allows `ttlMs: null`. */
  readonly maxTtlMs?: number | null;
  /**
   * Most live (not yet completed, failed or cancelled) tasks one owner may have at once; one more `create` rejects
   * with `task_limit`. Finished tasks do not count: {@link maxFinishedTasksPerOwner} bounds them. @default Infinity
   */
  readonly maxTasksPerOwner?: number;
  /**
   * Most finished tasks one owner keeps. Checked on `create`: when the owner holds more, the ones that finished
   * first are removed before their TTL ends, announced on the change feed as expired, so an owner that finishes
   * tasks quickly is never refused for that, and what it can make the store hold stays bounded. @default Infinity
   */
  readonly maxFinishedTasksPerOwner?: number;
  /** Largest step result (bytes of its JSON text, UTF-8) `recordStep` accepts. @default 1 MiB */
  readonly maxStepBytes?: number;
  /** Largest sum of one task's step results (bytes of their JSON text). @default 8 MiB */
  readonly maxStepBytesPerTask?: number;
  /** Called after every expiry sweep. */
  readonly onSweep?: (stats: SweepStats) => void;
}

/**
 * The task store core: the few operations a backend implements, each one round trip on a database. The state
 * machine, waits and per-task subscriptions are built on it by `TaskOperations` with the pure functions of
 * `transitions`, so every store behaves alike.
 */
export interface TaskStore {
  /**
   * Creates a `working` task owned by `owner`; resolves only once `get` would find it (durably created).
   * Rejects with `TaskStoreError` (`task_limit`, `ttl_limit`, `invalid_argument`, `closed`).
   */
  create(owner: TaskOwner, options: CreateTaskOptions): Promise<TaskRecord>;
  /** The current record, or undefined for an unknown, expired or another owner's task (indistinguishable). */
  get(owner: TaskOwner, taskId: string): Promise<TaskRecord | undefined>;
  /**
   * One page of `owner`'s tasks (every status, terminal ones included, but not those past their TTL) in creation
   * order, oldest first, ties broken by task id. Paging is by position (the last task's creation time and id), not
   * by offset: tasks created or removed between pages neither shift nor repeat the ones after the cursor. Another
   * owner's tasks never appear. Rejects with `TaskStoreError` `invalid_cursor` for a cursor this store did not hand
   * out and `invalid_argument` for a `limit` that is not a positive integer.
   */
  list(owner: TaskOwner, options: ListTasksOptions): Promise<TaskPage>;
  /**
   * Replaces the record by `next` if it is still at `expectedVersion` and not terminal: the one conditional write
   * every transition goes through. `next` must be the same task and owner at `expectedVersion + 1` (a function of
   * `transitions` builds it), otherwise this rejects with `invalid_argument`; a changed `ttlMs` is checked against
   * `maxTtlMs` (`ttl_limit`). A lost race is `{ ok: false, current }`, never an exception.
   */
  swap(owner: TaskOwner, taskId: string, expectedVersion: number, next: TaskRecord): Promise<SwapResult>;
  /**
   * Optional: the read-transition-write of `swap` in one call, for a store that can run it atomically on its side
   * (the in-memory store does it synchronously, a database in one transaction) or in fewer round trips (the
   * PostgreSQL store writes from the record it last wrote, re-reading when that was stale). Applies `step` to the
   * current record and writes its result under the same rules as `swap`; `step` returning undefined or the current
   * record itself writes nothing. `step` may be called more than once (on a lost race, or on a record that proved
   * stale): the answer is that of its last call. `TaskOperations` uses it when present, else `get` then `swap`.
   */
  update?(owner: TaskOwner, taskId: string, step: (current: TaskRecord) => TaskRecord | undefined): Promise<SwapResult>;
  /**
   * Removes up to `limit` tasks whose deadline (`createdAt + ttlMs`) is at or before `now` (epoch ms), emits
   * `expired` for each and resolves with them. The cost grows with the tasks removed, not the tasks stored. A store
   * may also expire tasks on its own schedule; calling this is always safe.
   */
  expireDue(now: number, limit: number): Promise<readonly TaskRecord[]>;
  /**
   * Up to `limit` non-terminal tasks that are not durable (no `execution`: a durable task with a lapsed lease is
   * claimable instead) whose lease ran out at or before `now` (their worker stopped renewing it).
   * A task is returned again by later calls until a write resolves it (fails it, or gives it a new lease).
   */
  lapsedLeases(now: number, limit: number): Promise<readonly TaskRecord[]>;
  /**
   * The change feed of this process: every `updated` and `expired` event of every task, whoever wrote it;
   * resolves once events will be delivered. Meant to be called once per process: `TaskOperations` fans it out.
   */
  watch(listener: TaskListener): Promise<Unsubscribe>;
  /**
   * Stops timers and drops listeners; later calls reject with `closed`. Idempotent. The process may exit with the
   * store idle (timers are unref'd where the platform allows).
   */
  close(): Promise<void>;
}

/** True for `completed`, `failed` and `cancelled`. */
export function isTerminalStatus(status: TaskStatus): status is TerminalStatus {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/**
 * The TaskStore contract: the single source of truth for task state, shared by the server runtime and any future
 * distributed store (Redis, a database). Every method is asynchronous so a remote store can implement it; the
 * in-memory store answers synchronously underneath.
 *
 * Records are immutable: every change produces a new frozen record whose `version` is the previous one plus one and
 * whose `lastUpdatedAt` never goes backwards. Concurrent writers race by compare-and-swap; a lost race is a normal
 * return value, never an exception. A terminal record (`completed`, `failed`, `cancelled`) never changes again.
 *
 * Ownership: every call names the owner. A task owned by someone else looks exactly like an unknown or expired one.
 */

import type {
  InputRequest,
  InputResponse,
  InputResponses,
  Error as JsonRpcError,
  TaskStatus,
} from '@mcp-tasks/protocol';

// The wire payload types come from the protocol package; re-exported so store users need one import.
export type { InputRequest, InputResponse, InputResponses, TaskStatus };

/** An opaque JSON object (a `CallToolResult`, request metadata, …). Stored deep-frozen, never copied. */
export type JsonObject = { readonly [key: string]: unknown };

/** The JSON-RPC error object (wire `Error`) stored on a `failed` task. */
export type TaskError = JsonRpcError;

/** Who owns a task: the authenticated principal, or a fixed value for unauthenticated transports. */
export type TaskOwner = string;

/** The terminal statuses; a record in one of them never changes again. */
export type TerminalStatus = 'completed' | 'failed' | 'cancelled';

/**
 * One immutable, versioned snapshot of a task, deep-frozen and shared (never copy it to protect it). The wire
 * `DetailedTask` is derived from it by the server. Optional fields may be present with the value `undefined`.
 */
export interface TaskRecord {
  /** At least 128 random bits, base64url: safe in an `Mcp-Name` header. */
  readonly taskId: string;
  readonly owner: TaskOwner;
  /** Starts at 1 on creation; every change adds exactly 1. */
  readonly version: number;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  /** ISO 8601. */
  readonly createdAt: string;
  /** ISO 8601; never goes backwards, and changes (or stays equal within one millisecond) with every version. */
  readonly lastUpdatedAt: string;
  /** Lifetime from creation in ms; `null` = never expires. */
  readonly ttlMs: number | null;
  readonly pollIntervalMs?: number;
  /** Outstanding input requests by key. Non-empty exactly when status is `input_required`. */
  readonly inputRequests: { readonly [key: string]: InputRequest };
  /** Present exactly when status is `completed`. */
  readonly result?: JsonObject;
  /** Present exactly when status is `failed`. */
  readonly error?: TaskError;
  /** Free-form metadata from the creating request (method, tool name, client capabilities…), deep-frozen. */
  readonly requestMeta?: JsonObject;
}

/** What `create` needs. */
export interface CreateTaskOptions {
  /**
   * Lifetime from creation in ms (a non-negative integer), or `null` for no expiry. Exceeding the store's
   * `maxTtlMs` (and `null` when a maximum is set) rejects with `TaskStoreError` code `ttl_limit`.
   */
  readonly ttlMs: number | null;
  /** Suggested polling interval in ms (a non-negative integer). */
  readonly pollIntervalMs?: number;
  readonly statusMessage?: string;
  /** Metadata from the creating request; deep-frozen in place and stored by reference. */
  readonly requestMeta?: JsonObject;
}

/**
 * The fields `compareAndSwap` may change. Status, input requests, result and error change only through the
 * helpers, which keep the invariants (key uniqueness, terminal finality, payload presence). A key present with the
 * value `undefined` clears an optional field.
 */
export interface TaskRecordPatch {
  readonly statusMessage?: string | undefined;
  readonly pollIntervalMs?: number | undefined;
  /** Subject to `maxTtlMs` like `create`; the deadline moves with it (still counted from `createdAt`). */
  readonly ttlMs?: number | null;
}

/** Outcome of a compare-and-swap style write. */
export type SwapResult =
  | { readonly ok: true; readonly record: TaskRecord }
  /**
   * Not written: a stale expected version, or the task is terminal (`current` is the record that stands), or it
   * does not exist for this owner (`current` undefined).
   */
  | { readonly ok: false; readonly current: TaskRecord | undefined };

/** Outcome of `requestInput`: the fresh key on success. */
export type RequestInputResult =
  | { readonly ok: true; readonly key: string; readonly record: TaskRecord }
  /** The task is terminal (`current` is the record that stands) or not found (`current` undefined). */
  | { readonly ok: false; readonly current: TaskRecord | undefined };

/** Outcome of `resolveInputs`: which keys were accepted (possibly none; then the record is unchanged). */
export type ResolveInputsResult =
  | { readonly found: true; readonly accepted: readonly string[]; readonly record: TaskRecord }
  | { readonly found: false };

/** Outcome of a terminal transition (`complete`, `fail`, `cancel`): `won` tells whether this call decided it. */
export type TerminalResult =
  | { readonly found: true; readonly won: boolean; readonly record: TaskRecord }
  | { readonly found: false };

/** A change to one task, delivered after the new record is visible to `get`, in version order per task. */
export type TaskEvent =
  | { readonly type: 'updated'; readonly record: TaskRecord; readonly previous: TaskRecord }
  /** The task's TTL elapsed and it was removed (`get` now says not found); a running tool should be aborted. */
  | { readonly type: 'expired'; readonly record: TaskRecord };

/** Listener for `subscribe`. Exceptions it throws are isolated from the writer and other listeners. */
export type TaskListener = (event: TaskEvent) => void;

/** Stops a subscription. Idempotent; afterwards the store holds no reference to the listener. */
export type Unsubscribe = () => void;

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
  /** Most tasks one owner may have stored at once (terminal ones count until they expire). @default Infinity */
  readonly maxTasksPerOwner?: number;
  /** Called after every expiry sweep. */
  readonly onSweep?: (stats: SweepStats) => void;
}

/** The task store seam. See the module comment for the record, ownership and consistency rules. */
export interface TaskStore {
  /**
   * Creates a `working` task owned by `owner`; resolves only once `get` would find it (durably created, S9).
   * Rejects with `TaskStoreError` (`task_limit`, `ttl_limit`, `invalid_argument`, `closed`).
   */
  create(owner: TaskOwner, options: CreateTaskOptions): Promise<TaskRecord>;
  /** The current record, or undefined for an unknown, expired or another owner's task (indistinguishable, S12). */
  get(owner: TaskOwner, taskId: string): Promise<TaskRecord | undefined>;
  /**
   * Writes `patch` if the record's version is still `expectedVersion` and it is not terminal. `patch` may be a
   * function of the current record. The store sets `version` and `lastUpdatedAt` and freezes.
   */
  compareAndSwap(
    owner: TaskOwner,
    taskId: string,
    expectedVersion: number,
    patch: TaskRecordPatch | ((current: TaskRecord) => TaskRecordPatch),
  ): Promise<SwapResult>;
  /** Sets `statusMessage` on a non-terminal task, whatever its version (last writer wins). */
  setStatusMessage(owner: TaskOwner, taskId: string, statusMessage: string): Promise<SwapResult>;
  /**
   * Issues a fresh key (unique for the task's lifetime, never reused, S20), adds `request` under it and moves the
   * task to `input_required`. The request is deep-frozen in place.
   */
  requestInput(owner: TaskOwner, taskId: string, request: InputRequest): Promise<RequestInputResult>;
  /**
   * Delivers answers for currently outstanding keys only; keys never issued, already answered or withdrawn are
   * ignored (S26). A partial set leaves the rest outstanding (S27); with none left the task returns to `working`.
   * Accepted answers are deep-frozen in place and handed to `waitForInput`. A terminal task accepts nothing.
   */
  resolveInputs(owner: TaskOwner, taskId: string, responses: InputResponses): Promise<ResolveInputsResult>;
  /**
   * Withdraws an outstanding key (the asking code gave up, e.g. its signal aborted); later answers to it are
   * ignored. With none left the task returns to `working`. `ok: false` when the key is not outstanding.
   */
  withdrawInput(owner: TaskOwner, taskId: string, key: string): Promise<SwapResult>;
  /**
   * Ends the task `completed` with `result` (deep-frozen in place, stored by reference) and clears outstanding
   * input requests. First terminal writer wins; later calls get `won: false` and the record that stands.
   */
  complete(owner: TaskOwner, taskId: string, result: JsonObject, statusMessage?: string): Promise<TerminalResult>;
  /** Ends the task `failed` with the JSON-RPC `error` (deep-frozen in place). First terminal writer wins. */
  fail(owner: TaskOwner, taskId: string, error: TaskError, statusMessage?: string): Promise<TerminalResult>;
  /** Ends the task `cancelled`; `reason` becomes the `statusMessage`. First terminal writer wins. */
  cancel(owner: TaskOwner, taskId: string, reason?: string): Promise<TerminalResult>;
  /**
   * Subscribes to changes of one of `owner`'s tasks; resolves once events will be delivered. Events arrive in
   * version order after the change is visible to `get`; read the current record after subscribing and skip events
   * whose version is not newer. After `expired` no more events come for the task.
   */
  subscribe(owner: TaskOwner, taskId: string, listener: TaskListener): Promise<Unsubscribe>;
  /**
   * Resolves with the answer to input key `key`, whether it arrived before or after this call (each answer is
   * handed out once). Rejects with `TaskStoreError` `task_ended` when the task is terminal, `task_not_found` when it
   * is unknown or expired, `unknown_input_key` when the key is not outstanding, `closed` on close, or with
   * `signal.reason` when `signal` aborts. Aborting does not withdraw the key (see `withdrawInput`).
   */
  waitForInput(owner: TaskOwner, taskId: string, key: string, signal?: AbortSignal): Promise<InputResponse>;
  /**
   * Resolves when the task ends: with the terminal record (check `status === 'cancelled'`), or undefined when it
   * expired or is not found. Rejects with `signal.reason` when `signal` aborts, or `closed` on close.
   */
  waitForEnd(owner: TaskOwner, taskId: string, signal?: AbortSignal): Promise<TaskRecord | undefined>;
  /**
   * Stops timers, drops listeners and rejects pending waits with `closed`; later calls reject with `closed`.
   * Idempotent. The process may exit with the store idle (timers are unref'd where the platform allows).
   */
  close(): Promise<void>;
}

/** True for `completed`, `failed` and `cancelled`. */
export function isTerminalStatus(status: TaskStatus): status is TerminalStatus {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/**
 * The TaskStore contract: the single source of truth for task state, shared by the server runtime and any future
 * distributed store (Redis, a database). Every method is asynchronous so a remote store can implement it; the
 * in-memory store answers synchronously underneath.
 *
 * Records are immutable: every change produces a new frozen record whose `version` is the previous one plus one.
 * Concurrent writers race by compare-and-swap; a lost race is a normal return value, never an exception.
 */

// NOTE for implementers: the payload types below are the wire shapes from `@mcp-tasks/protocol`
// (`InputRequest`, `InputResponse`, `Error`/JSON-RPC error object, `TaskStatus`). They are re-declared here only
// until the protocol package exports them; replace them with imports from `@mcp-tasks/protocol` then.

/** Task lifecycle status (wire name `TaskStatus`). */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** An opaque JSON object (a `CallToolResult`, an `ElicitResult`, …). Stored frozen, never copied. */
export type JsonObject = { readonly [key: string]: unknown };

/** A server→client request embedded in `inputRequests` (`elicitation/create`, `sampling/createMessage`, `roots/list`). */
export interface InputRequest {
  readonly method: string;
  readonly params?: JsonObject;
}

/** The JSON-RPC error object stored on a `failed` task. */
export interface TaskError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** Who owns a task: the authenticated principal, or a fixed value for unauthenticated transports. */
export type TaskOwner = string;

/**
 * One immutable, versioned snapshot of a task. The wire `DetailedTask` is derived from it by the server
 * (`inputRequests` only when `input_required`, `result` only when `completed`, `error` only when `failed`).
 */
export interface TaskRecord {
  readonly taskId: string;
  readonly owner: TaskOwner;
  /** Starts at 1 on creation; every change adds exactly 1. */
  readonly version: number;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  /** ISO 8601. */
  readonly createdAt: string;
  /** ISO 8601; never goes backwards. */
  readonly lastUpdatedAt: string;
  /** Lifetime from creation in ms; `null` = never expires. */
  readonly ttlMs: number | null;
  readonly pollIntervalMs?: number;
  /** Outstanding input requests by key. Non-empty exactly when status is `input_required`. */
  readonly inputRequests: Readonly<Record<string, InputRequest>>;
  /** Present exactly when status is `completed`. */
  readonly result?: JsonObject;
  /** Present exactly when status is `failed`. */
  readonly error?: TaskError;
  /** Free-form metadata from the creating request (method, tool name, client capabilities…), frozen. */
  readonly requestMeta?: JsonObject;
}

export interface CreateTaskOptions {
  /** Requested lifetime; clamped to the store's maximum. `null` = no expiry (only if the store allows it). */
  readonly ttlMs: number | null;
  readonly pollIntervalMs?: number;
  readonly statusMessage?: string;
  readonly requestMeta?: JsonObject;
}

/** Outcome of a compare-and-swap style write. */
export type SwapResult =
  | { readonly ok: true; readonly record: TaskRecord }
  /** Lost the race (stale version, or the task is terminal) or the task does not exist (`current` undefined). */
  | { readonly ok: false; readonly current: TaskRecord | undefined };

/** Outcome of a terminal transition (`complete`, `fail`, `cancel`): `won` tells whether this call decided it. */
export type TerminalResult =
  | { readonly found: true; readonly won: boolean; readonly record: TaskRecord }
  | { readonly found: false };

/** A change to one task, delivered after the new record is visible to `get`. */
export type TaskEvent =
  | { readonly type: 'updated'; readonly record: TaskRecord; readonly previous: TaskRecord }
  /** The task's TTL elapsed and it was removed; a running tool should be aborted. */
  | { readonly type: 'expired'; readonly record: TaskRecord };

export type Unsubscribe = () => void;

export interface TaskStore {
  /** Creates a `working` task owned by `owner`; resolves only once `get` would find it. */
  create(owner: TaskOwner, options: CreateTaskOptions): Promise<TaskRecord>;
  /** The task, or undefined for unknown, expired or another owner's task (indistinguishable). */
  get(owner: TaskOwner, taskId: string): Promise<TaskRecord | undefined>;
  /**
   * Replaces the record if its version is still `expectedVersion` and it is not terminal. `update` receives the
   * current record and returns the changed fields; the store sets `version` and `lastUpdatedAt` and freezes.
   */
  compareAndSwap(
    owner: TaskOwner,
    taskId: string,
    expectedVersion: number,
    update: (current: TaskRecord) => TaskRecordPatch,
  ): Promise<SwapResult>;
  setStatusMessage(owner: TaskOwner, taskId: string, statusMessage: string): Promise<SwapResult>;
  /** Issues a fresh key (never reused for this task), records the request, moves to `input_required`. */
  requestInput(
    owner: TaskOwner,
    taskId: string,
    request: InputRequest,
  ): Promise<{ readonly key: string; readonly record: TaskRecord } | undefined>;
  /**
   * Delivers answers for outstanding keys only (others ignored); returns to `working` when none remain.
   * Resolves with the accepted keys (possibly empty), or undefined when the task is not found.
   */
  resolveInputs(
    owner: TaskOwner,
    taskId: string,
    responses: Readonly<Record<string, JsonObject>>,
  ): Promise<{ readonly accepted: readonly string[]; readonly record: TaskRecord } | undefined>;
  /** First terminal writer wins; later calls return `won: false` and the unchanged terminal record. */
  complete(owner: TaskOwner, taskId: string, result: JsonObject): Promise<TerminalResult>;
  fail(owner: TaskOwner, taskId: string, error: TaskError, statusMessage?: string): Promise<TerminalResult>;
  cancel(owner: TaskOwner, taskId: string, reason?: string): Promise<TerminalResult>;
  /** Subscribe to changes of one task. Listener errors are isolated. Unsubscribe is idempotent and leak-free. */
  subscribe(taskId: string, listener: (event: TaskEvent) => void): Unsubscribe;
  /** Resolves with the answer to input key `key` (or rejects/aborts when the task ends or `signal` aborts). */
  waitForInput(owner: TaskOwner, taskId: string, key: string, signal?: AbortSignal): Promise<JsonObject>;
  /** Stops timers and releases listeners; idempotent. The process may exit with the store idle. */
  close(): Promise<void>;
}

/** The fields a compare-and-swap may change; the store owns `taskId`, `owner`, `version`, timestamps. */
export type TaskRecordPatch = Partial<
  Pick<TaskRecord, 'status' | 'statusMessage' | 'pollIntervalMs' | 'ttlMs' | 'inputRequests' | 'result' | 'error'>
>;

/** Why a task-store call was refused. A lost compare-and-swap is never an error; see `SwapResult`. */
export type TaskStoreErrorCode =
  /** The owner already has `maxTasksPerOwner` live (unfinished) tasks. */
  | 'task_limit'
  /** `ttlMs` is above `maxTtlMs`, or `null` while a maximum is set. */
  | 'ttl_limit'
  /** A malformed argument (negative ttl, non-integer interval, …). */
  | 'invalid_argument'
  /** The task reached a terminal status while a wait was pending. */
  | 'task_ended'
  /** The task is unknown, expired or owned by someone else. */
  | 'task_not_found'
  /** The awaited input key is not outstanding and has no undelivered answer. */
  | 'unknown_input_key'
  /** A `list` cursor that the store did not hand out (malformed or tampered with). */
  | 'invalid_cursor'
  /** A step result above `maxStepBytes`, or a task's step results above `maxStepBytesPerTask`. */
  | 'step_limit'
  /** The store was closed. */
  | 'closed';

/**
 * The error a task store rejects with. Callers match on `code`; the server runtime maps `task_not_found` and
 * `invalid_cursor` to `-32602` and limits to a clear JSON-RPC error of its choosing.
 */
export class TaskStoreError extends Error {
  /** Always `'TaskStoreError'`. */
  override readonly name = 'TaskStoreError';
  /** What went wrong; match on it rather than on the message. */
  readonly code: TaskStoreErrorCode;

  /** Creates the error; `options.cause` is kept as the standard `cause`. */
  constructor(code: TaskStoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** True when `error` is a `TaskStoreError`, optionally with the given code. */
export function isTaskStoreError(error: unknown, code?: TaskStoreErrorCode): error is TaskStoreError {
  return error instanceof TaskStoreError && (code === undefined || error.code === code);
}

/** The `task_limit` refusal of a create, worded the same by every store. */
export function taskLimitReached(maxTasksPerOwner: number): TaskStoreError {
  return new TaskStoreError(
    'task_limit',
    `Task limit reached: at most ${maxTasksPerOwner} live (unfinished) tasks per owner`,
  );
}

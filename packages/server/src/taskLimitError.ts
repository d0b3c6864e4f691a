import { ErrorCode, ProtocolError } from '@mcp-tasks/protocol';

/**
 * The JSON-RPC error code for "this principal has too many live tasks" (in the implementation-defined server error
 * range): a client fault to back off from, not an internal error. Over HTTP map it to `429 Too Many Requests` with
 * `Retry-After` taken from `data.retryAfterSeconds`.
 */
export const TASK_LIMIT_ERROR_CODE = ErrorCode.TooManyTasks;

/** Seconds a client should wait before creating another task once over its limit. */
const RETRY_AFTER_SECONDS = 1;

/** The error answered when an owner is at its task limit; `data.retryAfterSeconds` suggests a delay. */
export function taskLimitError(): ProtocolError {
  return new ProtocolError(TASK_LIMIT_ERROR_CODE, 'Too many live tasks for this principal; cancel or await some', {
    retryAfterSeconds: RETRY_AFTER_SECONDS,
  });
}

/** True when `error` is the task-limit error (for a transport mapping it to HTTP 429). */
export function isTaskLimitError(error: { readonly code: number }): boolean {
  return error.code === TASK_LIMIT_ERROR_CODE;
}

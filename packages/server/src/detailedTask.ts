import type { TaskRecord } from '@mcp-tasks/task-store';
import type { JsonObject } from './jsonRpc.js';

/**
 * Writes the flat `Task` fields of a record (no payloads) onto `target`, a fresh object the caller owns;
 * `statusMessage`/`pollIntervalMs` only when set (S8). Assigning onto one object, not spreading several, because
 * `tasks/get` runs this on every poll.
 */
function writeTask(target: Record<string, unknown>, record: TaskRecord): Record<string, unknown> {
  target.taskId = record.taskId;
  target.status = record.status;
  if (record.statusMessage !== undefined) target.statusMessage = record.statusMessage;
  target.createdAt = record.createdAt;
  target.lastUpdatedAt = record.lastUpdatedAt;
  target.ttlMs = record.ttlMs;
  if (record.pollIntervalMs !== undefined) target.pollIntervalMs = record.pollIntervalMs;
  return target;
}

/**
 * Writes the `DetailedTask` variant for the record's status (S13–S16) onto `target`: `inputRequests` only while
 * `input_required` (all outstanding ones, S14), `result` only when `completed`, `error` only when `failed`. Never
 * `requestState`.
 */
function writeDetailedTask(target: Record<string, unknown>, record: TaskRecord): JsonObject {
  writeTask(target, record);
  switch (record.status) {
    case 'input_required':
      target.inputRequests = record.inputRequests;
      break;
    case 'completed':
      target.result = record.result ?? { resultType: 'complete', content: [] };
      break;
    case 'failed':
      target.error = record.error ?? { code: -32603, message: 'Task failed' };
      break;
  }
  return target;
}

/**
 * The `DetailedTask` for a record. Used for both `tasks/get` ({@link toGetTaskResult}) and `notifications/tasks`,
 * so the two can never disagree (S35).
 */
export function toDetailedTask(record: TaskRecord): JsonObject {
  return writeDetailedTask({}, record);
}

/** The `GetTaskResult`: `resultType: "complete"` and the {@link toDetailedTask} fields, plus `_meta` when given. */
export function toGetTaskResult(record: TaskRecord, meta?: JsonObject): JsonObject {
  const result = writeDetailedTask({ resultType: 'complete' }, record) as Record<string, unknown>;
  if (meta !== undefined) result._meta = meta;
  return result;
}

/** The `CreateTaskResult` for a freshly created record: flat, `resultType: "task"` (S6), no payloads. */
export function toCreateTaskResult(record: TaskRecord): JsonObject {
  return writeTask({ resultType: 'task' }, record);
}

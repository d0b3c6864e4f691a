import type { TaskRecord } from '@mcp-tasks/task-store';
import type { JsonObject } from './jsonRpc.js';

/** The flat `Task` fields of a record (no payloads); `statusMessage`/`pollIntervalMs` only when set (S8). */
export function toTask(record: TaskRecord): JsonObject {
  return {
    taskId: record.taskId,
    status: record.status,
    ...(record.statusMessage === undefined ? {} : { statusMessage: record.statusMessage }),
    createdAt: record.createdAt,
    lastUpdatedAt: record.lastUpdatedAt,
    ttlMs: record.ttlMs,
    ...(record.pollIntervalMs === undefined ? {} : { pollIntervalMs: record.pollIntervalMs }),
  };
}

/**
 * The `DetailedTask` variant for the record's status (S13–S16): `inputRequests` only while `input_required`
 * (all outstanding ones, S14), `result` only when `completed`, `error` only when `failed`. Never `requestState`.
 * Used for both `tasks/get` and `notifications/tasks`, so the two can never disagree (S35).
 */
export function toDetailedTask(record: TaskRecord): JsonObject {
  const task = toTask(record);
  switch (record.status) {
    case 'input_required':
      return { ...task, inputRequests: record.inputRequests };
    case 'completed':
      return { ...task, result: record.result ?? { resultType: 'complete', content: [] } };
    case 'failed':
      return { ...task, error: record.error ?? { code: -32603, message: 'Task failed' } };
    default:
      return task;
  }
}

/** The `CreateTaskResult` for a freshly created record: flat, `resultType: "task"` (S6), no payloads. */
export function toCreateTaskResult(record: TaskRecord): JsonObject {
  return { resultType: 'task', ...toTask(record) };
}

import {
  type LegacyTask,
  type LegacyTaskSupport,
  RELATED_TASK_META_KEY,
  type TaskState,
  type TaskStatus,
  type TransportNotification,
} from '@mcp-tasks/protocol';
import { isJsonObject, type JsonObject } from '../jsonRpc.js';
import type { RegisteredTool } from '../toolRegistry.js';

/**
 * The `requestMeta.wire` value of a task created by a task-augmented 2025-11-25 `tools/call`. The 2025-11-25 task
 * methods see only such tasks; the 2026-07-28 `tasks/get` and `tasks/cancel` see them too.
 */
export const LEGACY_TASK_WIRE = '2025-11-25';

const FAILED_BY_TOOL = 'The tool reported an error';

/** True for a task created by a task-augmented 2025-11-25 request. */
export function isLegacyTask(record: { readonly requestMeta?: JsonObject | undefined }): boolean {
  return record.requestMeta?.wire === LEGACY_TASK_WIRE;
}

/**
 * A task's status as the 2025-11-25 wire reports it: a tool result with `isError: true` ends the task `failed`
 * there (the 2026-07-28 wire reports the same stored outcome as `completed`).
 */
export function legacyTaskStatus(task: TaskState): TaskStatus {
  return task.status === 'completed' && task.result?.isError === true ? 'failed' : task.status;
}

/**
 * The flat 2025-11-25 `Task` of a stored task (or of a 2026 `CreateTaskResult`): `ttl` and `pollInterval` in
 * milliseconds, never a result or error. A task failed by an `isError` result says so in `statusMessage` unless
 * it has its own.
 */
export function toLegacyTask(task: TaskState): LegacyTask {
  const status = legacyTaskStatus(task);
  const statusMessage = task.statusMessage ?? (status !== task.status ? FAILED_BY_TOOL : undefined);
  return {
    taskId: task.taskId,
    status,
    ...(statusMessage === undefined ? {} : { statusMessage }),
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttl: task.ttlMs,
    ...(task.pollIntervalMs === undefined ? {} : { pollInterval: task.pollIntervalMs }),
  };
}

/** `_meta` that ties a 2025-11-25 message to a task. */
export function relatedTaskMeta(taskId: string): JsonObject {
  return { [RELATED_TASK_META_KEY]: { taskId } };
}

/** Adds the related-task entry to the `_meta` of `params`, keeping what `_meta` already holds. */
export function withRelatedTask(params: JsonObject | undefined, taskId: string): JsonObject {
  const meta = isJsonObject(params?._meta) ? params._meta : {};
  return { ...params, _meta: { ...meta, ...relatedTaskMeta(taskId) } };
}

/**
 * A stored `CallToolResult` as 2025-11-25 `tasks/result` answers it: exactly what the tool returned (without the
 * 2026 `resultType`), with the related-task entry in `_meta`.
 */
export function legacyTaskPayload(result: JsonObject, taskId: string): JsonObject {
  const { resultType: _omitted, ...original } = result;
  return withRelatedTask(original, taskId);
}

/** `notifications/tasks/status` for a task: the whole flat `Task`, without related-task `_meta`. */
export function legacyTaskStatusNotification(task: LegacyTask): TransportNotification {
  return { jsonrpc: '2.0', method: 'notifications/tasks/status', params: task };
}

/**
 * A tool as a 2025-11-25 `tools/list` shows it: the registered wire object plus `execution.taskSupport`. Use it
 * only in sessions whose server capabilities include the tasks capability (2025-11-25); older sessions list the
 * plain wire object.
 */
export function legacyToolWire(tool: RegisteredTool): JsonObject {
  const taskSupport: LegacyTaskSupport = tool.taskSupport;
  return { ...tool.wire, execution: { taskSupport } };
}

import type { RequestId } from './jsonrpc.js';
import { META } from './meta.js';
import type { CreateTaskResult, DetailedTask, GetTaskResult, Task, TaskStatusNotification } from './tasks.js';

/**
 * The flat Task fields of a task, dropping any status payload (`result`, `error`, `inputRequests`) and unknown keys.
 * Optional fields are copied only when defined.
 */
export function toTask(task: Task | DetailedTask): Task {
  const out: Task = {
    taskId: task.taskId,
    status: task.status,
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: task.ttlMs,
  };
  if (task.statusMessage !== undefined) out.statusMessage = task.statusMessage;
  if (task.pollIntervalMs !== undefined) out.pollIntervalMs = task.pollIntervalMs;
  return out;
}

/**
 * The `CreateTaskResult` for a task: its flat seed state with `resultType: "task"`. Never carries a status
 * payload, even when the seed status is terminal; the client fetches that with `tasks/get`.
 */
export function createTaskResult(task: Task | DetailedTask): CreateTaskResult {
  return { resultType: 'task', ...toTask(task) };
}

/** The payload fields the task's status requires, and nothing else. */
function payloadOf(task: DetailedTask): DetailedTask {
  const base = toTask(task);
  switch (task.status) {
    case 'input_required':
      return { ...base, status: task.status, inputRequests: task.inputRequests };
    case 'completed':
      return { ...base, status: task.status, result: task.result };
    case 'failed':
      return { ...base, status: task.status, error: task.error };
    default:
      return { ...base, status: task.status };
  }
}

/** The `tasks/get` result for a task: the DetailedTask with `resultType: "complete"`. */
export function getTaskResult(task: DetailedTask): GetTaskResult {
  return { resultType: 'complete', ...payloadOf(task) };
}

/**
 * The `notifications/tasks` message for a task: the same DetailedTask `tasks/get` would return (without
 * `resultType`), tagged with the listen stream's subscription id when given.
 */
export function taskStatusNotification(task: DetailedTask, subscriptionId?: RequestId): TaskStatusNotification {
  const params: TaskStatusNotification['params'] = payloadOf(task);
  if (subscriptionId !== undefined) params._meta = { [META.subscriptionId]: subscriptionId };
  return { jsonrpc: '2.0', method: 'notifications/tasks', params };
}

import { ErrorCode } from './errors.js';
import type { Error as JsonRpcErrorObject, RequestId } from './jsonrpc.js';
import { META } from './meta.js';
import type { InputRequest } from './mrtr.js';
import type {
  CreateTaskResult,
  DetailedTask,
  GetTaskResult,
  Task,
  TaskStatus,
  TaskStatusNotification,
} from './tasks.js';

/**
 * What the task builders read: a task's state as a store keeps it. Any object with these fields works (a task-store
 * record, a parsed `DetailedTask`); other fields are ignored. The payload fields are read only for the status that
 * carries them, so a store may keep them set (or `undefined`) in any status.
 */
export interface TaskState {
  /** The task's id. */
  readonly taskId: string;
  /** The task's status. */
  readonly status: TaskStatus;
  /** A human-readable note on the status. */
  readonly statusMessage?: string | undefined;
  /** ISO 8601. */
  readonly createdAt: string;
  /** ISO 8601. */
  readonly lastUpdatedAt: string;
  /** Lifetime from creation in ms; `null` means unlimited. */
  readonly ttlMs: number | null;
  /** Suggested polling interval in ms. */
  readonly pollIntervalMs?: number | undefined;
  /** Every outstanding input request by key; read when `status` is `input_required`. */
  readonly inputRequests?: { readonly [key: string]: InputRequest } | undefined;
  /** What the original request returned; read when `status` is `completed`. */
  readonly result?: { readonly [key: string]: unknown } | undefined;
  /** The JSON-RPC error that ended the task; read when `status` is `failed`. */
  readonly error?: JsonRpcErrorObject | undefined;
}

/** A completed task whose state lost its result still answers with a well-formed (empty) `CallToolResult`. */
const EMPTY_RESULT = Object.freeze({ resultType: 'complete', content: Object.freeze([]) });
const UNKNOWN_FAILURE: JsonRpcErrorObject = Object.freeze({ code: ErrorCode.InternalError, message: 'Task failed' });

/**
 * Writes the flat `Task` fields onto `target`, a fresh object the caller owns; `statusMessage` and
 * `pollIntervalMs` only when set. Assigning onto one object instead of spreading several keeps `tasks/get`, which
 * runs this on every poll, to one allocation.
 */
function writeTask(target: Record<string, unknown>, task: TaskState): void {
  target.taskId = task.taskId;
  target.status = task.status;
  if (task.statusMessage !== undefined) target.statusMessage = task.statusMessage;
  target.createdAt = task.createdAt;
  target.lastUpdatedAt = task.lastUpdatedAt;
  target.ttlMs = task.ttlMs;
  if (task.pollIntervalMs !== undefined) target.pollIntervalMs = task.pollIntervalMs;
}

/** Writes the `Task` fields and the one payload the status requires, and nothing else. */
function writeDetailedTask(target: Record<string, unknown>, task: TaskState): void {
  writeTask(target, task);
  switch (task.status) {
    case 'input_required':
      target.inputRequests = task.inputRequests ?? {};
      break;
    case 'completed':
      target.result = task.result ?? EMPTY_RESULT;
      break;
    case 'failed':
      target.error = task.error ?? UNKNOWN_FAILURE;
      break;
  }
}

/** The flat `Task` fields of a task, without any status payload or unknown keys; optional fields only when set. */
export function toTask(task: TaskState): Task {
  const out: Record<string, unknown> = {};
  writeTask(out, task);
  return out as Task;
}

/**
 * The `DetailedTask` for a task: the `Task` fields plus exactly the payload its status requires (`inputRequests`
 * while `input_required`, `result` once `completed`, `error` once `failed`). `tasks/get` and `notifications/tasks`
 * both carry it, so build both from here and they cannot disagree. A completed task without a result gets an empty
 * `CallToolResult`; a failed one without an error gets `-32603 Task failed`.
 */
export function detailedTask(task: TaskState): DetailedTask {
  const out: Record<string, unknown> = {};
  writeDetailedTask(out, task);
  return out as DetailedTask;
}

/**
 * The `CreateTaskResult` for a freshly created task: its flat state with `resultType: "task"`. Never carries a
 * status payload, even when the status is already terminal; the client fetches that with `tasks/get`.
 */
export function createTaskResult(task: TaskState): CreateTaskResult {
  const out: Record<string, unknown> = { resultType: 'task' };
  writeTask(out, task);
  return out as CreateTaskResult;
}

/** The `tasks/get` result: the {@link detailedTask} with `resultType: "complete"`, plus `_meta` when given. */
export function getTaskResult(task: TaskState, meta?: GetTaskResult['_meta']): GetTaskResult {
  const out: Record<string, unknown> = { resultType: 'complete' };
  writeDetailedTask(out, task);
  if (meta !== undefined) out._meta = meta;
  return out as GetTaskResult;
}

/**
 * The `notifications/tasks` message for a task: the {@link detailedTask} (no `resultType`), tagged with the listen
 * stream's subscription id when given.
 */
export function taskStatusNotification(task: TaskState, subscriptionId?: RequestId): TaskStatusNotification {
  const params: Record<string, unknown> = {};
  writeDetailedTask(params, task);
  if (subscriptionId !== undefined) params._meta = { [META.subscriptionId]: subscriptionId };
  return { jsonrpc: '2.0', method: 'notifications/tasks', params: params as TaskStatusNotification['params'] };
}

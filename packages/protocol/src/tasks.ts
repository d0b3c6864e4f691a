import { z } from 'zod';
import { ErrorSchema, JSONRPCNotificationSchema, JSONRPCRequestSchema } from './jsonrpc.js';
import { NotificationMetaObjectSchema, RequestParamsSchema, ResultMetaObjectSchema, ResultSchema } from './meta.js';
import { InputRequestsSchema, InputResponsesSchema } from './mrtr.js';

/** The Tasks extension identifier, the key under `capabilities.extensions` on both sides. */
export const TASKS_EXTENSION_ID = 'io.modelcontextprotocol/tasks' as const;

/**
 * The extension's settings object. None are defined, so it must be empty (the extension schema forbids any key);
 * declare it as `{ extensions: { [TASKS_EXTENSION_ID]: {} } }`.
 */
export const TasksExtensionCapabilitySchema = z.strictObject({});
/** The (empty) Tasks extension settings. */
export type TasksExtensionCapability = z.infer<typeof TasksExtensionCapabilitySchema>;

/** A task's status. `completed`, `failed` and `cancelled` are terminal. */
export const TaskStatusSchema = z.enum(['working', 'input_required', 'completed', 'failed', 'cancelled']);
/** A task's status. */
export type TaskStatus = z.infer<typeof TaskStatusSchema>;

/** Fields every task shape shares. */
const taskFields = {
  /** The task's id, unique on the server, chosen by the server. */
  taskId: z.string(),
  /** A human-readable note on the current status. */
  statusMessage: z.string().optional(),
  /** ISO 8601. */
  createdAt: z.string(),
  /** ISO 8601. */
  lastUpdatedAt: z.string(),
  /** Lifetime from creation in integer ms; null means unlimited. Not a cache hint. */
  ttlMs: z.int().nullable(),
  /** Suggested polling interval in integer ms. */
  pollIntervalMs: z.int().optional(),
};

/** A task's operational metadata, without status-specific payload (the `CreateTaskResult` seed). */
export const TaskSchema = z.looseObject({
  ...taskFields,
  /** The task's status. */
  status: TaskStatusSchema,
});
/** A task. */
export type Task = z.infer<typeof TaskSchema>;

/** A task being worked on. */
export const WorkingTaskSchema = z.looseObject({
  ...taskFields,
  /** Always `working`. */
  status: z.literal('working'),
});
/** A task being worked on. */
export type WorkingTask = z.infer<typeof WorkingTaskSchema>;

/** A task waiting on the client: `inputRequests` holds every outstanding request (answer with `tasks/update`). */
export const InputRequiredTaskSchema = z.looseObject({
  ...taskFields,
  /** Always `input_required`. */
  status: z.literal('input_required'),
  /** Every outstanding input request, by key; answer them with `tasks/update` under the same keys. */
  inputRequests: InputRequestsSchema,
});
/** A task waiting on the client. */
export type InputRequiredTask = z.infer<typeof InputRequiredTaskSchema>;

/** A finished task; `result` is what the original request would have returned (e.g. a CallToolResult). */
export const CompletedTaskSchema = z.looseObject({
  ...taskFields,
  /** Always `completed`. */
  status: z.literal('completed'),
  /** What the original request would have returned (e.g. a `CallToolResult`). */
  result: z.record(z.string(), z.unknown()),
});
/** A finished task. */
export type CompletedTask = z.infer<typeof CompletedTaskSchema>;

/** A task ended by a JSON-RPC error, carried in `error`. */
export const FailedTaskSchema = z.looseObject({
  ...taskFields,
  /** Always `failed`. */
  status: z.literal('failed'),
  /** The JSON-RPC error the original request ended with. */
  error: ErrorSchema,
});
/** A failed task. */
export type FailedTask = z.infer<typeof FailedTaskSchema>;

/** A cancelled task. */
export const CancelledTaskSchema = z.looseObject({
  ...taskFields,
  /** Always `cancelled`. */
  status: z.literal('cancelled'),
});
/** A cancelled task. */
export type CancelledTask = z.infer<typeof CancelledTaskSchema>;

/** A task with the payload its status requires, discriminated by `status` (tasks/get, notifications/tasks). */
export const DetailedTaskSchema = z.discriminatedUnion('status', [
  WorkingTaskSchema,
  InputRequiredTaskSchema,
  CompletedTaskSchema,
  FailedTaskSchema,
  CancelledTaskSchema,
]);
/** A task with its status payload. */
export type DetailedTask = z.infer<typeof DetailedTaskSchema>;

/** `resultType: "task"`: the server turned the request into a task. Carries the flat Task seed only. */
export const CreateTaskResultSchema = ResultSchema.extend({
  ...taskFields,
  /** The task's status. */
  status: TaskStatusSchema,
}).extend({
  /** Always `task`. */
  resultType: z.literal('task'),
});
/** A task-creation result. */
export type CreateTaskResult = z.infer<typeof CreateTaskResultSchema>;

/** Params of `tasks/get` and `tasks/cancel`: the per-request `_meta` plus the task id. */
const TaskIdParamsSchema = RequestParamsSchema.extend({
  /** The task's id. */
  taskId: z.string(),
});

/** `tasks/get`: poll a task. */
export const GetTaskRequestSchema = JSONRPCRequestSchema.extend({
  /** Always `tasks/get`. */
  method: z.literal('tasks/get'),
  /** The task id, plus the per-request `_meta`. */
  params: TaskIdParamsSchema,
});
/** `tasks/get`. */
export type GetTaskRequest = z.infer<typeof GetTaskRequestSchema>;

const completeResult = {
  /** Always `complete`. */
  resultType: z.literal('complete'),
  /** Reserved metadata; may name the server. */
  _meta: ResultMetaObjectSchema.optional(),
};

/** The `tasks/get` result: the DetailedTask plus `resultType: "complete"`. */
export const GetTaskResultSchema = z.discriminatedUnion('status', [
  WorkingTaskSchema.extend(completeResult),
  InputRequiredTaskSchema.extend(completeResult),
  CompletedTaskSchema.extend(completeResult),
  FailedTaskSchema.extend(completeResult),
  CancelledTaskSchema.extend(completeResult),
]);
/** The `tasks/get` result. */
export type GetTaskResult = z.infer<typeof GetTaskResultSchema>;

/** `tasks/update`: answer outstanding input requests of an input_required task. */
export const UpdateTaskRequestSchema = JSONRPCRequestSchema.extend({
  /** Always `tasks/update`. */
  method: z.literal('tasks/update'),
  /** The task id and the answers, plus the per-request `_meta`. */
  params: TaskIdParamsSchema.extend({
    /** Answers to the task's outstanding input requests, by key. */
    inputResponses: InputResponsesSchema,
  }),
});
/** `tasks/update`. */
export type UpdateTaskRequest = z.infer<typeof UpdateTaskRequestSchema>;

/** The empty acknowledgement of `tasks/update`. */
export const UpdateTaskResultSchema = ResultSchema.extend({
  /** Always `complete`. */
  resultType: z.literal('complete'),
});
/** The `tasks/update` acknowledgement. */
export type UpdateTaskResult = z.infer<typeof UpdateTaskResultSchema>;

/** `tasks/cancel`: ask (cooperatively) for a task to stop. */
export const CancelTaskRequestSchema = JSONRPCRequestSchema.extend({
  /** Always `tasks/cancel`. */
  method: z.literal('tasks/cancel'),
  /** The task id, plus the per-request `_meta`. */
  params: TaskIdParamsSchema,
});
/** `tasks/cancel`. */
export type CancelTaskRequest = z.infer<typeof CancelTaskRequestSchema>;

/** The empty acknowledgement of `tasks/cancel`. */
export const CancelTaskResultSchema = ResultSchema.extend({
  /** Always `complete`. */
  resultType: z.literal('complete'),
});
/** The `tasks/cancel` acknowledgement. */
export type CancelTaskResult = z.infer<typeof CancelTaskResultSchema>;

const notificationMeta = {
  /** Reserved metadata; names the subscription on a listen stream. */
  _meta: NotificationMetaObjectSchema.optional(),
};

/** Params of `notifications/tasks`: the full DetailedTask (no `resultType`), plus the subscription `_meta`. */
export const TaskStatusNotificationParamsSchema = z.discriminatedUnion('status', [
  WorkingTaskSchema.extend(notificationMeta),
  InputRequiredTaskSchema.extend(notificationMeta),
  CompletedTaskSchema.extend(notificationMeta),
  FailedTaskSchema.extend(notificationMeta),
  CancelledTaskSchema.extend(notificationMeta),
]);
/** Params of `notifications/tasks`. */
export type TaskStatusNotificationParams = z.infer<typeof TaskStatusNotificationParamsSchema>;

/** `notifications/tasks`: a task's state, pushed on a `subscriptions/listen` stream that asked for its id. */
export const TaskStatusNotificationSchema = JSONRPCNotificationSchema.extend({
  /** Always `notifications/tasks`. */
  method: z.literal('notifications/tasks'),
  /** The task's full state. */
  params: TaskStatusNotificationParamsSchema,
});
/** `notifications/tasks`. */
export type TaskStatusNotification = z.infer<typeof TaskStatusNotificationSchema>;

/** The extension's addition to a listen filter: the task ids to receive `notifications/tasks` for. */
export const TaskSubscriptionNotificationsSchema = z.looseObject({
  /** The task ids to receive `notifications/tasks` for. */
  taskIds: z.array(z.string()).optional(),
});
/** The task-id listen filter. */
export type TaskSubscriptionNotifications = z.infer<typeof TaskSubscriptionNotificationsSchema>;

/** The extension's addition to a listen acknowledgement: the task ids the server agreed to notify about. */
export const TaskSubscriptionAcknowledgedNotificationsSchema = TaskSubscriptionNotificationsSchema;
/** The acknowledged task ids. */
export type TaskSubscriptionAcknowledgedNotifications = TaskSubscriptionNotifications;

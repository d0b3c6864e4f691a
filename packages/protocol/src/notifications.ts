import { z } from 'zod';
import { JSONRPCNotificationSchema, RequestIdSchema } from './jsonrpc.js';
import {
  LoggingLevelSchema,
  NotificationMetaObjectSchema,
  NotificationParamsSchema,
  ProgressTokenSchema,
} from './meta.js';

/** Params of `notifications/cancelled`. */
export const CancelledNotificationParamsSchema = z.looseObject({
  /** The id of the request to cancel. */
  requestId: RequestIdSchema,
  /** Why, for logs. */
  reason: z.string().optional(),
  /** Reserved metadata. */
  _meta: NotificationMetaObjectSchema.optional(),
});
/** Params of `notifications/cancelled`. */
export type CancelledNotificationParams = z.infer<typeof CancelledNotificationParamsSchema>;

/** `notifications/cancelled`: the client abandons an in-flight request. Never used to cancel a task. */
export const CancelledNotificationSchema = JSONRPCNotificationSchema.extend({
  /** Always `notifications/cancelled`. */
  method: z.literal('notifications/cancelled'),
  /** Which request and why. */
  params: CancelledNotificationParamsSchema,
});
/** `notifications/cancelled`. */
export type CancelledNotification = z.infer<typeof CancelledNotificationSchema>;

/** Params of `notifications/progress`. `progress` should increase; `total` may be unknown. */
export const ProgressNotificationParamsSchema = z.looseObject({
  /** The token of the request this progress is for. */
  progressToken: ProgressTokenSchema,
  /** Progress so far; increases with every notification. */
  progress: z.number(),
  /** The total the progress counts towards, when known. */
  total: z.number().optional(),
  /** A human-readable note on the progress. */
  message: z.string().optional(),
  /** Reserved metadata. */
  _meta: NotificationMetaObjectSchema.optional(),
});
/** Params of `notifications/progress`. */
export type ProgressNotificationParams = z.infer<typeof ProgressNotificationParamsSchema>;

/** `notifications/progress`, on the stream of the request that carried the `progressToken`. */
export const ProgressNotificationSchema = JSONRPCNotificationSchema.extend({
  /** Always `notifications/progress`. */
  method: z.literal('notifications/progress'),
  /** The progress update. */
  params: ProgressNotificationParamsSchema,
});
/** `notifications/progress`. */
export type ProgressNotification = z.infer<typeof ProgressNotificationSchema>;

/** Params of `notifications/message`. */
export const LoggingMessageNotificationParamsSchema = z.looseObject({
  /** The message's severity. */
  level: LoggingLevelSchema,
  /** The name of the logger that issued it. */
  logger: z.string().optional(),
  /** The message: any JSON value. */
  data: z.unknown(),
  /** Reserved metadata. */
  _meta: NotificationMetaObjectSchema.optional(),
});
/** Params of `notifications/message`. */
export type LoggingMessageNotificationParams = z.infer<typeof LoggingMessageNotificationParamsSchema>;

/** `notifications/message`: a log line at or above the request's `logLevel`. */
export const LoggingMessageNotificationSchema = JSONRPCNotificationSchema.extend({
  /** Always `notifications/message`. */
  method: z.literal('notifications/message'),
  /** The log message. */
  params: LoggingMessageNotificationParamsSchema,
});
/** `notifications/message`. */
export type LoggingMessageNotification = z.infer<typeof LoggingMessageNotificationSchema>;

/** `notifications/tools/list_changed` (on a listen stream). */
export const ToolListChangedNotificationSchema = JSONRPCNotificationSchema.extend({
  /** Always `notifications/tools/list_changed`. */
  method: z.literal('notifications/tools/list_changed'),
  /** Optional params: only `_meta`. */
  params: NotificationParamsSchema.optional(),
});
/** `notifications/tools/list_changed`. */
export type ToolListChangedNotification = z.infer<typeof ToolListChangedNotificationSchema>;

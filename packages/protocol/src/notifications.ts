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
  requestId: RequestIdSchema,
  reason: z.string().optional(),
  _meta: NotificationMetaObjectSchema.optional(),
});
/** Params of `notifications/cancelled`. */
export type CancelledNotificationParams = z.infer<typeof CancelledNotificationParamsSchema>;

/** `notifications/cancelled`: the client abandons an in-flight request. Never used to cancel a task. */
export const CancelledNotificationSchema = JSONRPCNotificationSchema.extend({
  method: z.literal('notifications/cancelled'),
  params: CancelledNotificationParamsSchema,
});
/** `notifications/cancelled`. */
export type CancelledNotification = z.infer<typeof CancelledNotificationSchema>;

/** Params of `notifications/progress`. `progress` should increase; `total` may be unknown. */
export const ProgressNotificationParamsSchema = z.looseObject({
  progressToken: ProgressTokenSchema,
  progress: z.number(),
  total: z.number().optional(),
  message: z.string().optional(),
  _meta: NotificationMetaObjectSchema.optional(),
});
/** Params of `notifications/progress`. */
export type ProgressNotificationParams = z.infer<typeof ProgressNotificationParamsSchema>;

/** `notifications/progress`, on the stream of the request that carried the `progressToken`. */
export const ProgressNotificationSchema = JSONRPCNotificationSchema.extend({
  method: z.literal('notifications/progress'),
  params: ProgressNotificationParamsSchema,
});
/** `notifications/progress`. */
export type ProgressNotification = z.infer<typeof ProgressNotificationSchema>;

/** Params of `notifications/message`. */
export const LoggingMessageNotificationParamsSchema = z.looseObject({
  level: LoggingLevelSchema,
  logger: z.string().optional(),
  data: z.unknown(),
  _meta: NotificationMetaObjectSchema.optional(),
});
/** Params of `notifications/message`. */
export type LoggingMessageNotificationParams = z.infer<typeof LoggingMessageNotificationParamsSchema>;

/** `notifications/message`: a log line at or above the request's `logLevel`. */
export const LoggingMessageNotificationSchema = JSONRPCNotificationSchema.extend({
  method: z.literal('notifications/message'),
  params: LoggingMessageNotificationParamsSchema,
});
/** `notifications/message`. */
export type LoggingMessageNotification = z.infer<typeof LoggingMessageNotificationSchema>;

/** `notifications/tools/list_changed` (on a listen stream). */
export const ToolListChangedNotificationSchema = JSONRPCNotificationSchema.extend({
  method: z.literal('notifications/tools/list_changed'),
  params: NotificationParamsSchema.optional(),
});
/** `notifications/tools/list_changed`. */
export type ToolListChangedNotification = z.infer<typeof ToolListChangedNotificationSchema>;

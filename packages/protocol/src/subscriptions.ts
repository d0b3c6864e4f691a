import { z } from 'zod';
import { ImplementationSchema } from './implementation.js';
import {
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  JSONRPCResultResponseSchema,
  RequestIdSchema,
} from './jsonrpc.js';
import { META, NotificationMetaObjectSchema, RequestParamsSchema, ResultSchema } from './meta.js';

/**
 * What a `subscriptions/listen` stream should carry. `taskIds` is the Tasks extension's addition: the tasks to
 * receive `notifications/tasks` for (requires the client to declare the extension on the request).
 */
export const SubscriptionFilterSchema = z.looseObject({
  toolsListChanged: z.boolean().optional(),
  promptsListChanged: z.boolean().optional(),
  resourcesListChanged: z.boolean().optional(),
  resourceSubscriptions: z.array(z.string()).optional(),
  taskIds: z.array(z.string()).optional(),
});
/** A listen filter. */
export type SubscriptionFilter = z.infer<typeof SubscriptionFilterSchema>;

/** Params of `subscriptions/listen`. */
export const SubscriptionsListenRequestParamsSchema = RequestParamsSchema.extend({
  notifications: SubscriptionFilterSchema,
});
/** Params of `subscriptions/listen`. */
export type SubscriptionsListenRequestParams = z.infer<typeof SubscriptionsListenRequestParamsSchema>;

/**
 * `subscriptions/listen`: opens a notification stream. The response stays pending while the stream is open; the
 * stream's notifications carry the request id as `_meta["io.modelcontextprotocol/subscriptionId"]`.
 */
export const SubscriptionsListenRequestSchema = JSONRPCRequestSchema.extend({
  method: z.literal('subscriptions/listen'),
  params: SubscriptionsListenRequestParamsSchema,
});
/** `subscriptions/listen`. */
export type SubscriptionsListenRequest = z.infer<typeof SubscriptionsListenRequestSchema>;

/** `_meta` of the final listen result: names the subscription it ends. */
export const SubscriptionsListenResultMetaObjectSchema = z.looseObject({
  [META.serverInfo]: ImplementationSchema.optional(),
  [META.subscriptionId]: RequestIdSchema,
});
/** `_meta` of the listen result. */
export type SubscriptionsListenResultMetaObject = z.infer<typeof SubscriptionsListenResultMetaObjectSchema>;

/** The result that ends a listen stream. */
export const SubscriptionsListenResultSchema = ResultSchema.extend({
  _meta: SubscriptionsListenResultMetaObjectSchema,
});
/** The listen result. */
export type SubscriptionsListenResult = z.infer<typeof SubscriptionsListenResultSchema>;

/** Response to `subscriptions/listen`. */
export const SubscriptionsListenResultResponseSchema = JSONRPCResultResponseSchema.extend({
  result: SubscriptionsListenResultSchema,
});
/** Response to `subscriptions/listen`. */
export type SubscriptionsListenResultResponse = z.infer<typeof SubscriptionsListenResultResponseSchema>;

/** Params of the listen acknowledgement: the subset of the filter the server agreed to (including `taskIds`). */
export const SubscriptionsAcknowledgedNotificationParamsSchema = z.looseObject({
  notifications: SubscriptionFilterSchema,
  _meta: NotificationMetaObjectSchema.optional(),
});
/** Params of the listen acknowledgement. */
export type SubscriptionsAcknowledgedNotificationParams = z.infer<
  typeof SubscriptionsAcknowledgedNotificationParamsSchema
>;

/** `notifications/subscriptions/acknowledged`: the first message on a listen stream. */
export const SubscriptionsAcknowledgedNotificationSchema = JSONRPCNotificationSchema.extend({
  method: z.literal('notifications/subscriptions/acknowledged'),
  params: SubscriptionsAcknowledgedNotificationParamsSchema,
});
/** `notifications/subscriptions/acknowledged`. */
export type SubscriptionsAcknowledgedNotification = z.infer<typeof SubscriptionsAcknowledgedNotificationSchema>;

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
  /** Whether to receive `notifications/tools/list_changed`. */
  toolsListChanged: z.boolean().optional(),
  /** Whether to receive `notifications/prompts/list_changed`. */
  promptsListChanged: z.boolean().optional(),
  /** Whether to receive `notifications/resources/list_changed`. */
  resourcesListChanged: z.boolean().optional(),
  /** URIs of the resources to receive `notifications/resources/updated` for. */
  resourceSubscriptions: z.array(z.string()).optional(),
  /** Task ids to receive `notifications/tasks` for (Tasks extension). */
  taskIds: z.array(z.string()).optional(),
});
/** A listen filter. */
export type SubscriptionFilter = z.infer<typeof SubscriptionFilterSchema>;

/** Params of `subscriptions/listen`. */
export const SubscriptionsListenRequestParamsSchema = RequestParamsSchema.extend({
  /** What the stream should carry. */
  notifications: SubscriptionFilterSchema,
});
/** Params of `subscriptions/listen`. */
export type SubscriptionsListenRequestParams = z.infer<typeof SubscriptionsListenRequestParamsSchema>;

/**
 * `subscriptions/listen`: opens a notification stream. The response stays pending while the stream is open; the
 * stream's notifications carry the request id as `_meta["io.modelcontextprotocol/subscriptionId"]`.
 */
export const SubscriptionsListenRequestSchema = JSONRPCRequestSchema.extend({
  /** Always `subscriptions/listen`. */
  method: z.literal('subscriptions/listen'),
  /** The filter, plus the per-request `_meta`. */
  params: SubscriptionsListenRequestParamsSchema,
});
/** `subscriptions/listen`. */
export type SubscriptionsListenRequest = z.infer<typeof SubscriptionsListenRequestSchema>;

/** `_meta` of the final listen result: names the subscription it ends. */
export const SubscriptionsListenResultMetaObjectSchema = z.looseObject({
  /** The server's name and version. */
  [META.serverInfo]: ImplementationSchema.optional(),
  /** The id of the listen request this result ends. */
  [META.subscriptionId]: RequestIdSchema,
});
/** `_meta` of the listen result. */
export type SubscriptionsListenResultMetaObject = z.infer<typeof SubscriptionsListenResultMetaObjectSchema>;

/** The result that ends a listen stream. */
export const SubscriptionsListenResultSchema = ResultSchema.extend({
  /** Names the subscription the result ends. */
  _meta: SubscriptionsListenResultMetaObjectSchema,
});
/** The listen result. */
export type SubscriptionsListenResult = z.infer<typeof SubscriptionsListenResultSchema>;

/** Response to `subscriptions/listen`. */
export const SubscriptionsListenResultResponseSchema = JSONRPCResultResponseSchema.extend({
  /** The final listen result, sent when the stream ends. */
  result: SubscriptionsListenResultSchema,
});
/** Response to `subscriptions/listen`. */
export type SubscriptionsListenResultResponse = z.infer<typeof SubscriptionsListenResultResponseSchema>;

/** Params of the listen acknowledgement: the subset of the filter the server agreed to (including `taskIds`). */
export const SubscriptionsAcknowledgedNotificationParamsSchema = z.looseObject({
  /** What the stream will carry: the filter as the server accepted it. */
  notifications: SubscriptionFilterSchema,
  /** Names the subscription. */
  _meta: NotificationMetaObjectSchema.optional(),
});
/** Params of the listen acknowledgement. */
export type SubscriptionsAcknowledgedNotificationParams = z.infer<
  typeof SubscriptionsAcknowledgedNotificationParamsSchema
>;

/** `notifications/subscriptions/acknowledged`: the first message on a listen stream. */
export const SubscriptionsAcknowledgedNotificationSchema = JSONRPCNotificationSchema.extend({
  /** Always `notifications/subscriptions/acknowledged`. */
  method: z.literal('notifications/subscriptions/acknowledged'),
  /** The accepted filter. */
  params: SubscriptionsAcknowledgedNotificationParamsSchema,
});
/** `notifications/subscriptions/acknowledged`. */
export type SubscriptionsAcknowledgedNotification = z.infer<typeof SubscriptionsAcknowledgedNotificationSchema>;

import { z } from 'zod';
import { CompleteRequestSchema } from './completion.js';
import { DiscoverRequestSchema } from './discover.js';
import {
  CancelledNotificationSchema,
  LoggingMessageNotificationSchema,
  ProgressNotificationSchema,
  ToolListChangedNotificationSchema,
} from './notifications.js';
import { GetPromptRequestSchema, ListPromptsRequestSchema, PromptListChangedNotificationSchema } from './prompts.js';
import {
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from './resources.js';
import { SubscriptionsAcknowledgedNotificationSchema, SubscriptionsListenRequestSchema } from './subscriptions.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from './tools.js';

/**
 * Every core request a client sends, discriminated by `method`. Tasks extension requests (`tasks/*`) are separate
 * (see `GetTaskRequestSchema` …) so a server can tell "unknown method" from "extension not declared".
 */
export const ClientRequestSchema = z.discriminatedUnion('method', [
  DiscoverRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
  SubscriptionsListenRequestSchema,
  ListPromptsRequestSchema,
  GetPromptRequestSchema,
  ListToolsRequestSchema,
  CallToolRequestSchema,
  CompleteRequestSchema,
]);
/** A core client request. */
export type ClientRequest = z.infer<typeof ClientRequestSchema>;

/** The only notification a client sends. */
export const ClientNotificationSchema = CancelledNotificationSchema;
/** A client notification. */
export type ClientNotification = z.infer<typeof ClientNotificationSchema>;

/** Every core notification a server sends (on a request's stream), discriminated by `method`. */
export const ServerNotificationSchema = z.discriminatedUnion('method', [
  CancelledNotificationSchema,
  ProgressNotificationSchema,
  ResourceListChangedNotificationSchema,
  SubscriptionsAcknowledgedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  PromptListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
  LoggingMessageNotificationSchema,
]);
/** A core server notification. */
export type ServerNotification = z.infer<typeof ServerNotificationSchema>;

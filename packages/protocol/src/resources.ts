import { z } from 'zod';
import {
  AnnotationsSchema,
  BlobResourceContentsSchema,
  ResourceSchema,
  TextResourceContentsSchema,
} from './content.js';
import { IconSchema } from './implementation.js';
import { MetaObjectSchema } from './json.js';
import { JSONRPCNotificationSchema, JSONRPCRequestSchema, JSONRPCResultResponseSchema } from './jsonrpc.js';
import { NotificationMetaObjectSchema, NotificationParamsSchema, RequestParamsSchema } from './meta.js';
import { InputRequiredResultSchema, InputResponseRequestParamsSchema } from './mrtr.js';
import { CacheableResultSchema, PaginatedRequestParamsSchema } from './pagination.js';

/** A parameterized resource (RFC 6570 `uriTemplate`). */
export const ResourceTemplateSchema = z.looseObject({
  uriTemplate: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  icons: z.array(IconSchema).optional(),
  annotations: AnnotationsSchema.optional(),
  _meta: MetaObjectSchema.optional(),
});
/** A resource template. */
export type ResourceTemplate = z.infer<typeof ResourceTemplateSchema>;

/** Params naming one resource. */
export const ResourceRequestParamsSchema = RequestParamsSchema.extend({ uri: z.string() });
/** Params naming one resource. */
export type ResourceRequestParams = z.infer<typeof ResourceRequestParamsSchema>;

/** `resources/list`. */
export const ListResourcesRequestSchema = JSONRPCRequestSchema.extend({
  method: z.literal('resources/list'),
  params: PaginatedRequestParamsSchema,
});
/** `resources/list`. */
export type ListResourcesRequest = z.infer<typeof ListResourcesRequestSchema>;

/** A page of resources, with caching hints. */
export const ListResourcesResultSchema = CacheableResultSchema.extend({
  resources: z.array(ResourceSchema),
  nextCursor: z.string().optional(),
});
/** A page of resources. */
export type ListResourcesResult = z.infer<typeof ListResourcesResultSchema>;

/** Response to `resources/list`. */
export const ListResourcesResultResponseSchema = JSONRPCResultResponseSchema.extend({
  result: ListResourcesResultSchema,
});
/** Response to `resources/list`. */
export type ListResourcesResultResponse = z.infer<typeof ListResourcesResultResponseSchema>;

/** `resources/templates/list`. */
export const ListResourceTemplatesRequestSchema = JSONRPCRequestSchema.extend({
  method: z.literal('resources/templates/list'),
  params: PaginatedRequestParamsSchema,
});
/** `resources/templates/list`. */
export type ListResourceTemplatesRequest = z.infer<typeof ListResourceTemplatesRequestSchema>;

/** A page of resource templates, with caching hints. */
export const ListResourceTemplatesResultSchema = CacheableResultSchema.extend({
  resourceTemplates: z.array(ResourceTemplateSchema),
  nextCursor: z.string().optional(),
});
/** A page of resource templates. */
export type ListResourceTemplatesResult = z.infer<typeof ListResourceTemplatesResultSchema>;

/** Response to `resources/templates/list`. */
export const ListResourceTemplatesResultResponseSchema = JSONRPCResultResponseSchema.extend({
  result: ListResourceTemplatesResultSchema,
});
/** Response to `resources/templates/list`. */
export type ListResourceTemplatesResultResponse = z.infer<typeof ListResourceTemplatesResultResponseSchema>;

/** Params of `resources/read`, including the MRTR retry fields. */
export const ReadResourceRequestParamsSchema = InputResponseRequestParamsSchema.extend({ uri: z.string() });
/** Params of `resources/read`. */
export type ReadResourceRequestParams = z.infer<typeof ReadResourceRequestParamsSchema>;

/** `resources/read`. */
export const ReadResourceRequestSchema = JSONRPCRequestSchema.extend({
  method: z.literal('resources/read'),
  params: ReadResourceRequestParamsSchema,
});
/** `resources/read`. */
export type ReadResourceRequest = z.infer<typeof ReadResourceRequestSchema>;

/** A resource's contents, with caching hints. */
export const ReadResourceResultSchema = CacheableResultSchema.extend({
  contents: z.array(z.union([TextResourceContentsSchema, BlobResourceContentsSchema])),
});
/** A resource's contents. */
export type ReadResourceResult = z.infer<typeof ReadResourceResultSchema>;

/** Response to `resources/read`: an MRTR interim result or the contents. */
export const ReadResourceResultResponseSchema = JSONRPCResultResponseSchema.extend({
  result: z.union([InputRequiredResultSchema, ReadResourceResultSchema]),
});
/** Response to `resources/read`. */
export type ReadResourceResultResponse = z.infer<typeof ReadResourceResultResponseSchema>;

/** `notifications/resources/list_changed` (on a listen stream). */
export const ResourceListChangedNotificationSchema = JSONRPCNotificationSchema.extend({
  method: z.literal('notifications/resources/list_changed'),
  params: NotificationParamsSchema.optional(),
});
/** `notifications/resources/list_changed`. */
export type ResourceListChangedNotification = z.infer<typeof ResourceListChangedNotificationSchema>;

/** Params of `notifications/resources/updated`. */
export const ResourceUpdatedNotificationParamsSchema = z.looseObject({
  uri: z.string(),
  _meta: NotificationMetaObjectSchema.optional(),
});
/** Params of `notifications/resources/updated`. */
export type ResourceUpdatedNotificationParams = z.infer<typeof ResourceUpdatedNotificationParamsSchema>;

/** `notifications/resources/updated`: a subscribed resource changed (on a listen stream). */
export const ResourceUpdatedNotificationSchema = JSONRPCNotificationSchema.extend({
  method: z.literal('notifications/resources/updated'),
  params: ResourceUpdatedNotificationParamsSchema,
});
/** `notifications/resources/updated`. */
export type ResourceUpdatedNotification = z.infer<typeof ResourceUpdatedNotificationSchema>;

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
  /** The RFC 6570 URI template the resources' URIs follow. */
  uriTemplate: z.string(),
  /** Programmatic name. */
  name: z.string(),
  /** Display name for UIs. */
  title: z.string().optional(),
  /** What the resources hold, for the model and users. */
  description: z.string().optional(),
  /** The MIME type of every matching resource, when they share one. */
  mimeType: z.string().optional(),
  /** Icons for UIs. */
  icons: z.array(IconSchema).optional(),
  /** Hints for the client about audience, priority and freshness. */
  annotations: AnnotationsSchema.optional(),
  /** Reserved metadata. */
  _meta: MetaObjectSchema.optional(),
});
/** A resource template. */
export type ResourceTemplate = z.infer<typeof ResourceTemplateSchema>;

/** Params naming one resource. */
export const ResourceRequestParamsSchema = RequestParamsSchema.extend({
  /** The resource's URI. */
  uri: z.string(),
});
/** Params naming one resource. */
export type ResourceRequestParams = z.infer<typeof ResourceRequestParamsSchema>;

/** `resources/list`. */
export const ListResourcesRequestSchema = JSONRPCRequestSchema.extend({
  /** Always `resources/list`. */
  method: z.literal('resources/list'),
  /** Optional cursor, plus the per-request `_meta`. */
  params: PaginatedRequestParamsSchema,
});
/** `resources/list`. */
export type ListResourcesRequest = z.infer<typeof ListResourcesRequestSchema>;

/** A page of resources, with caching hints. */
export const ListResourcesResultSchema = CacheableResultSchema.extend({
  /** The resources, one page. */
  resources: z.array(ResourceSchema),
  /** Opaque cursor for the next page; absent on the last page. */
  nextCursor: z.string().optional(),
});
/** A page of resources. */
export type ListResourcesResult = z.infer<typeof ListResourcesResultSchema>;

/** Response to `resources/list`. */
export const ListResourcesResultResponseSchema = JSONRPCResultResponseSchema.extend({
  /** The resource list. */
  result: ListResourcesResultSchema,
});
/** Response to `resources/list`. */
export type ListResourcesResultResponse = z.infer<typeof ListResourcesResultResponseSchema>;

/** `resources/templates/list`. */
export const ListResourceTemplatesRequestSchema = JSONRPCRequestSchema.extend({
  /** Always `resources/templates/list`. */
  method: z.literal('resources/templates/list'),
  /** Optional cursor, plus the per-request `_meta`. */
  params: PaginatedRequestParamsSchema,
});
/** `resources/templates/list`. */
export type ListResourceTemplatesRequest = z.infer<typeof ListResourceTemplatesRequestSchema>;

/** A page of resource templates, with caching hints. */
export const ListResourceTemplatesResultSchema = CacheableResultSchema.extend({
  /** The templates, one page. */
  resourceTemplates: z.array(ResourceTemplateSchema),
  /** Opaque cursor for the next page; absent on the last page. */
  nextCursor: z.string().optional(),
});
/** A page of resource templates. */
export type ListResourceTemplatesResult = z.infer<typeof ListResourceTemplatesResultSchema>;

/** Response to `resources/templates/list`. */
export const ListResourceTemplatesResultResponseSchema = JSONRPCResultResponseSchema.extend({
  /** The template list. */
  result: ListResourceTemplatesResultSchema,
});
/** Response to `resources/templates/list`. */
export type ListResourceTemplatesResultResponse = z.infer<typeof ListResourceTemplatesResultResponseSchema>;

/** Params of `resources/read`, including the MRTR retry fields. */
export const ReadResourceRequestParamsSchema = InputResponseRequestParamsSchema.extend({
  /** The URI of the resource to read. */
  uri: z.string(),
});
/** Params of `resources/read`. */
export type ReadResourceRequestParams = z.infer<typeof ReadResourceRequestParamsSchema>;

/** `resources/read`. */
export const ReadResourceRequestSchema = JSONRPCRequestSchema.extend({
  /** Always `resources/read`. */
  method: z.literal('resources/read'),
  /** The URI, plus the per-request `_meta` and any MRTR answers. */
  params: ReadResourceRequestParamsSchema,
});
/** `resources/read`. */
export type ReadResourceRequest = z.infer<typeof ReadResourceRequestSchema>;

/** A resource's contents, with caching hints. */
export const ReadResourceResultSchema = CacheableResultSchema.extend({
  /** The resource's contents (one or more parts), text or blob. */
  contents: z.array(z.union([TextResourceContentsSchema, BlobResourceContentsSchema])),
});
/** A resource's contents. */
export type ReadResourceResult = z.infer<typeof ReadResourceResultSchema>;

/** Response to `resources/read`: an MRTR interim result or the contents. */
export const ReadResourceResultResponseSchema = JSONRPCResultResponseSchema.extend({
  /** The contents, or a request for input. */
  result: z.union([InputRequiredResultSchema, ReadResourceResultSchema]),
});
/** Response to `resources/read`. */
export type ReadResourceResultResponse = z.infer<typeof ReadResourceResultResponseSchema>;

/** `notifications/resources/list_changed` (on a listen stream). */
export const ResourceListChangedNotificationSchema = JSONRPCNotificationSchema.extend({
  /** Always `notifications/resources/list_changed`. */
  method: z.literal('notifications/resources/list_changed'),
  /** Optional params: only `_meta`. */
  params: NotificationParamsSchema.optional(),
});
/** `notifications/resources/list_changed`. */
export type ResourceListChangedNotification = z.infer<typeof ResourceListChangedNotificationSchema>;

/** Params of `notifications/resources/updated`. */
export const ResourceUpdatedNotificationParamsSchema = z.looseObject({
  /** The URI of the resource that changed (a subscribed resource or one under it). */
  uri: z.string(),
  /** Reserved metadata; names the subscription on a listen stream. */
  _meta: NotificationMetaObjectSchema.optional(),
});
/** Params of `notifications/resources/updated`. */
export type ResourceUpdatedNotificationParams = z.infer<typeof ResourceUpdatedNotificationParamsSchema>;

/** `notifications/resources/updated`: a subscribed resource changed (on a listen stream). */
export const ResourceUpdatedNotificationSchema = JSONRPCNotificationSchema.extend({
  /** Always `notifications/resources/updated`. */
  method: z.literal('notifications/resources/updated'),
  /** Which resource changed. */
  params: ResourceUpdatedNotificationParamsSchema,
});
/** `notifications/resources/updated`. */
export type ResourceUpdatedNotification = z.infer<typeof ResourceUpdatedNotificationSchema>;

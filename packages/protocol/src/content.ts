import { z } from 'zod';
import { IconSchema } from './implementation.js';
import { MetaObjectSchema } from './json.js';

/** Who a message or annotation is for. */
export const RoleSchema = z.enum(['user', 'assistant']);
/** A conversation role. */
export type Role = z.infer<typeof RoleSchema>;

/** Hints for how a client uses or displays content. */
export const AnnotationsSchema = z.looseObject({
  audience: z.array(RoleSchema).optional(),
  priority: z.number().min(0).max(1).optional(),
  lastModified: z.string().optional(),
});
/** Content annotations. */
export type Annotations = z.infer<typeof AnnotationsSchema>;

/** Plain text. */
export const TextContentSchema = z.looseObject({
  type: z.literal('text'),
  text: z.string(),
  annotations: AnnotationsSchema.optional(),
  _meta: MetaObjectSchema.optional(),
});
/** Plain text content. */
export type TextContent = z.infer<typeof TextContentSchema>;

/** A base64-encoded image. */
export const ImageContentSchema = z.looseObject({
  type: z.literal('image'),
  data: z.string(),
  mimeType: z.string(),
  annotations: AnnotationsSchema.optional(),
  _meta: MetaObjectSchema.optional(),
});
/** Image content. */
export type ImageContent = z.infer<typeof ImageContentSchema>;

/** Base64-encoded audio. */
export const AudioContentSchema = z.looseObject({
  type: z.literal('audio'),
  data: z.string(),
  mimeType: z.string(),
  annotations: AnnotationsSchema.optional(),
  _meta: MetaObjectSchema.optional(),
});
/** Audio content. */
export type AudioContent = z.infer<typeof AudioContentSchema>;

/** The common fields of resource contents. */
export const ResourceContentsSchema = z.looseObject({
  uri: z.string(),
  mimeType: z.string().optional(),
  _meta: MetaObjectSchema.optional(),
});
/** The common fields of resource contents. */
export type ResourceContents = z.infer<typeof ResourceContentsSchema>;

/** Text resource contents. */
export const TextResourceContentsSchema = ResourceContentsSchema.extend({ text: z.string() });
/** Text resource contents. */
export type TextResourceContents = z.infer<typeof TextResourceContentsSchema>;

/** Binary resource contents (base64 `blob`). */
export const BlobResourceContentsSchema = ResourceContentsSchema.extend({ blob: z.string() });
/** Binary resource contents. */
export type BlobResourceContents = z.infer<typeof BlobResourceContentsSchema>;

/** A resource the server can read. */
export const ResourceSchema = z.looseObject({
  uri: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  size: z.int().optional(),
  icons: z.array(IconSchema).optional(),
  annotations: AnnotationsSchema.optional(),
  _meta: MetaObjectSchema.optional(),
});
/** A resource. */
export type Resource = z.infer<typeof ResourceSchema>;

/** A link to a resource the client may read: a {@link Resource} tagged as content. */
export const ResourceLinkSchema = ResourceSchema.extend({ type: z.literal('resource_link') });
/** A resource link. */
export type ResourceLink = z.infer<typeof ResourceLinkSchema>;

/** A resource's contents embedded inline. */
export const EmbeddedResourceSchema = z.looseObject({
  type: z.literal('resource'),
  resource: z.union([TextResourceContentsSchema, BlobResourceContentsSchema]),
  annotations: AnnotationsSchema.optional(),
  _meta: MetaObjectSchema.optional(),
});
/** An embedded resource. */
export type EmbeddedResource = z.infer<typeof EmbeddedResourceSchema>;

/** Any content block in a tool result or prompt message, discriminated by `type`. */
export const ContentBlockSchema = z.discriminatedUnion('type', [
  TextContentSchema,
  ImageContentSchema,
  AudioContentSchema,
  ResourceLinkSchema,
  EmbeddedResourceSchema,
]);
/** Any content block. */
export type ContentBlock = z.infer<typeof ContentBlockSchema>;

/** A model's request to call a tool, inside sampling. */
export const ToolUseContentSchema = z.looseObject({
  type: z.literal('tool_use'),
  id: z.string(),
  name: z.string(),
  input: z.record(z.string(), z.unknown()),
  _meta: MetaObjectSchema.optional(),
});
/** A tool-use block. */
export type ToolUseContent = z.infer<typeof ToolUseContentSchema>;

/** The result of a tool use, fed back into sampling. */
export const ToolResultContentSchema = z.looseObject({
  type: z.literal('tool_result'),
  toolUseId: z.string(),
  content: z.array(ContentBlockSchema),
  structuredContent: z.unknown().optional(),
  isError: z.boolean().optional(),
  _meta: MetaObjectSchema.optional(),
});
/** A tool-result block. */
export type ToolResultContent = z.infer<typeof ToolResultContentSchema>;

/** A content block allowed in sampling messages, discriminated by `type`. */
export const SamplingMessageContentBlockSchema = z.discriminatedUnion('type', [
  TextContentSchema,
  ImageContentSchema,
  AudioContentSchema,
  ToolUseContentSchema,
  ToolResultContentSchema,
]);
/** A sampling content block. */
export type SamplingMessageContentBlock = z.infer<typeof SamplingMessageContentBlockSchema>;

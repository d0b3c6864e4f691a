import { z } from 'zod';
import { IconSchema } from './implementation.js';
import { MetaObjectSchema } from './json.js';

/** Who a message or annotation is for. */
export const RoleSchema = z.enum(['user', 'assistant']);
/** A conversation role. */
export type Role = z.infer<typeof RoleSchema>;

/** Hints for how a client uses or displays content. */
export const AnnotationsSchema = z.looseObject({
  /** Who the content is for: `user`, `assistant` or both. */
  audience: z.array(RoleSchema).optional(),
  /** How important the content is, from 0 (optional) to 1 (required). */
  priority: z.number().min(0).max(1).optional(),
  /** When the content last changed (ISO 8601). */
  lastModified: z.string().optional(),
});
/** Content annotations. */
export type Annotations = z.infer<typeof AnnotationsSchema>;

/** Plain text. */
export const TextContentSchema = z.looseObject({
  /** Always `text`. */
  type: z.literal('text'),
  /** The text. */
  text: z.string(),
  /** Hints for the client about audience, priority and freshness. */
  annotations: AnnotationsSchema.optional(),
  /** Reserved metadata. */
  _meta: MetaObjectSchema.optional(),
});
/** Plain text content. */
export type TextContent = z.infer<typeof TextContentSchema>;

/** A base64-encoded image. */
export const ImageContentSchema = z.looseObject({
  /** Always `image`. */
  type: z.literal('image'),
  /** The image, base64-encoded. */
  data: z.string(),
  /** The image's MIME type. */
  mimeType: z.string(),
  /** Hints for the client about audience, priority and freshness. */
  annotations: AnnotationsSchema.optional(),
  /** Reserved metadata. */
  _meta: MetaObjectSchema.optional(),
});
/** Image content. */
export type ImageContent = z.infer<typeof ImageContentSchema>;

/** Base64-encoded audio. */
export const AudioContentSchema = z.looseObject({
  /** Always `audio`. */
  type: z.literal('audio'),
  /** The audio, base64-encoded. */
  data: z.string(),
  /** The audio's MIME type. */
  mimeType: z.string(),
  /** Hints for the client about audience, priority and freshness. */
  annotations: AnnotationsSchema.optional(),
  /** Reserved metadata. */
  _meta: MetaObjectSchema.optional(),
});
/** Audio content. */
export type AudioContent = z.infer<typeof AudioContentSchema>;

/** The common fields of resource contents. */
export const ResourceContentsSchema = z.looseObject({
  /** The resource's URI. */
  uri: z.string(),
  /** The MIME type, when known. */
  mimeType: z.string().optional(),
  /** Reserved metadata. */
  _meta: MetaObjectSchema.optional(),
});
/** The common fields of resource contents. */
export type ResourceContents = z.infer<typeof ResourceContentsSchema>;

/** Text resource contents. */
export const TextResourceContentsSchema = ResourceContentsSchema.extend({
  /** The contents as text. */
  text: z.string(),
});
/** Text resource contents. */
export type TextResourceContents = z.infer<typeof TextResourceContentsSchema>;

/** Binary resource contents (base64 `blob`). */
export const BlobResourceContentsSchema = ResourceContentsSchema.extend({
  /** The contents as base64-encoded binary data. */
  blob: z.string(),
});
/** Binary resource contents. */
export type BlobResourceContents = z.infer<typeof BlobResourceContentsSchema>;

/** A resource the server can read. */
export const ResourceSchema = z.looseObject({
  /** The resource's URI. */
  uri: z.string(),
  /** Programmatic name. */
  name: z.string(),
  /** Display name for UIs. */
  title: z.string().optional(),
  /** What the resource holds, for the model and users. */
  description: z.string().optional(),
  /** The MIME type, when known. */
  mimeType: z.string().optional(),
  /** Size in bytes (before any encoding), when known. */
  size: z.int().optional(),
  /** Icons for UIs. */
  icons: z.array(IconSchema).optional(),
  /** Hints for the client about audience, priority and freshness. */
  annotations: AnnotationsSchema.optional(),
  /** Reserved metadata. */
  _meta: MetaObjectSchema.optional(),
});
/** A resource. */
export type Resource = z.infer<typeof ResourceSchema>;

/** A link to a resource the client may read: a {@link Resource} tagged as content. */
export const ResourceLinkSchema = ResourceSchema.extend({
  /** Always `resource_link`. */
  type: z.literal('resource_link'),
});
/** A resource link. */
export type ResourceLink = z.infer<typeof ResourceLinkSchema>;

/** A resource's contents embedded inline. */
export const EmbeddedResourceSchema = z.looseObject({
  /** Always `resource`. */
  type: z.literal('resource'),
  /** The embedded contents: text or blob. */
  resource: z.union([TextResourceContentsSchema, BlobResourceContentsSchema]),
  /** Hints for the client about audience, priority and freshness. */
  annotations: AnnotationsSchema.optional(),
  /** Reserved metadata. */
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
  /** Always `tool_use`. */
  type: z.literal('tool_use'),
  /** The id of this tool use, referred to by the matching `tool_result`. */
  id: z.string(),
  /** The tool to call. */
  name: z.string(),
  /** The tool's arguments. */
  input: z.record(z.string(), z.unknown()),
  /** Reserved metadata. */
  _meta: MetaObjectSchema.optional(),
});
/** A tool-use block. */
export type ToolUseContent = z.infer<typeof ToolUseContentSchema>;

/** The result of a tool use, fed back into sampling. */
export const ToolResultContentSchema = z.looseObject({
  /** Always `tool_result`. */
  type: z.literal('tool_result'),
  /** The id of the `tool_use` this answers. */
  toolUseId: z.string(),
  /** The tool's output, as content blocks. */
  content: z.array(ContentBlockSchema),
  /** The tool's structured output, when it has any. */
  structuredContent: z.unknown().optional(),
  /** `true` when the tool failed. */
  isError: z.boolean().optional(),
  /** Reserved metadata. */
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

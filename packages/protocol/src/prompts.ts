import { z } from 'zod';
import { ContentBlockSchema, RoleSchema } from './content.js';
import { IconSchema } from './implementation.js';
import { MetaObjectSchema } from './json.js';
import { JSONRPCNotificationSchema, JSONRPCRequestSchema, JSONRPCResultResponseSchema } from './jsonrpc.js';
import { NotificationParamsSchema, ResultSchema } from './meta.js';
import { InputRequiredResultSchema, InputResponseRequestParamsSchema } from './mrtr.js';
import { CacheableResultSchema, PaginatedRequestParamsSchema } from './pagination.js';

/** An argument a prompt template accepts. */
export const PromptArgumentSchema = z.looseObject({
  /** The argument's name. */
  name: z.string(),
  /** Display name for UIs. */
  title: z.string().optional(),
  /** What the argument is for. */
  description: z.string().optional(),
  /** Whether `prompts/get` must supply it. */
  required: z.boolean().optional(),
});
/** A prompt argument. */
export type PromptArgument = z.infer<typeof PromptArgumentSchema>;

/** A prompt template the server offers. */
export const PromptSchema = z.looseObject({
  /** Programmatic name, what `prompts/get` names. */
  name: z.string(),
  /** Display name for UIs. */
  title: z.string().optional(),
  /** What the prompt does. */
  description: z.string().optional(),
  /** The arguments the prompt accepts. */
  arguments: z.array(PromptArgumentSchema).optional(),
  /** Icons for UIs. */
  icons: z.array(IconSchema).optional(),
  /** Reserved metadata. */
  _meta: MetaObjectSchema.optional(),
});
/** A prompt. */
export type Prompt = z.infer<typeof PromptSchema>;

/** One message of a rendered prompt. */
export const PromptMessageSchema = z.looseObject({
  /** Who says it: `user` or `assistant`. */
  role: RoleSchema,
  /** The message's content. */
  content: ContentBlockSchema,
});
/** A prompt message. */
export type PromptMessage = z.infer<typeof PromptMessageSchema>;

/** `prompts/list`. */
export const ListPromptsRequestSchema = JSONRPCRequestSchema.extend({
  /** Always `prompts/list`. */
  method: z.literal('prompts/list'),
  /** Optional cursor, plus the per-request `_meta`. */
  params: PaginatedRequestParamsSchema,
});
/** `prompts/list`. */
export type ListPromptsRequest = z.infer<typeof ListPromptsRequestSchema>;

/** A page of prompts, with caching hints. */
export const ListPromptsResultSchema = CacheableResultSchema.extend({
  /** The prompts, one page. */
  prompts: z.array(PromptSchema),
  /** Opaque cursor for the next page; absent on the last page. */
  nextCursor: z.string().optional(),
});
/** A page of prompts. */
export type ListPromptsResult = z.infer<typeof ListPromptsResultSchema>;

/** Response to `prompts/list`. */
export const ListPromptsResultResponseSchema = JSONRPCResultResponseSchema.extend({
  /** The prompt list. */
  result: ListPromptsResultSchema,
});
/** Response to `prompts/list`. */
export type ListPromptsResultResponse = z.infer<typeof ListPromptsResultResponseSchema>;

/** Params of `prompts/get`, including the MRTR retry fields. */
export const GetPromptRequestParamsSchema = InputResponseRequestParamsSchema.extend({
  /** The prompt's name. */
  name: z.string(),
  /** Argument values by name. */
  arguments: z.record(z.string(), z.string()).optional(),
});
/** Params of `prompts/get`. */
export type GetPromptRequestParams = z.infer<typeof GetPromptRequestParamsSchema>;

/** `prompts/get`. */
export const GetPromptRequestSchema = JSONRPCRequestSchema.extend({
  /** Always `prompts/get`. */
  method: z.literal('prompts/get'),
  /** The prompt and its arguments, plus the per-request `_meta` and any MRTR answers. */
  params: GetPromptRequestParamsSchema,
});
/** `prompts/get`. */
export type GetPromptRequest = z.infer<typeof GetPromptRequestSchema>;

/** A rendered prompt. */
export const GetPromptResultSchema = ResultSchema.extend({
  /** A description of the rendered prompt. */
  description: z.string().optional(),
  /** The prompt's messages, in order. */
  messages: z.array(PromptMessageSchema),
});
/** A rendered prompt. */
export type GetPromptResult = z.infer<typeof GetPromptResultSchema>;

/** Response to `prompts/get`: an MRTR interim result or the prompt. */
export const GetPromptResultResponseSchema = JSONRPCResultResponseSchema.extend({
  /** The rendered prompt, or a request for input. */
  result: z.union([InputRequiredResultSchema, GetPromptResultSchema]),
});
/** Response to `prompts/get`. */
export type GetPromptResultResponse = z.infer<typeof GetPromptResultResponseSchema>;

/** `notifications/prompts/list_changed` (on a listen stream). */
export const PromptListChangedNotificationSchema = JSONRPCNotificationSchema.extend({
  /** Always `notifications/prompts/list_changed`. */
  method: z.literal('notifications/prompts/list_changed'),
  /** Optional params: only `_meta`. */
  params: NotificationParamsSchema.optional(),
});
/** `notifications/prompts/list_changed`. */
export type PromptListChangedNotification = z.infer<typeof PromptListChangedNotificationSchema>;

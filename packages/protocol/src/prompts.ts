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
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  required: z.boolean().optional(),
});
/** A prompt argument. */
export type PromptArgument = z.infer<typeof PromptArgumentSchema>;

/** A prompt template the server offers. */
export const PromptSchema = z.looseObject({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  arguments: z.array(PromptArgumentSchema).optional(),
  icons: z.array(IconSchema).optional(),
  _meta: MetaObjectSchema.optional(),
});
/** A prompt. */
export type Prompt = z.infer<typeof PromptSchema>;

/** One message of a rendered prompt. */
export const PromptMessageSchema = z.looseObject({ role: RoleSchema, content: ContentBlockSchema });
/** A prompt message. */
export type PromptMessage = z.infer<typeof PromptMessageSchema>;

/** `prompts/list`. */
export const ListPromptsRequestSchema = JSONRPCRequestSchema.extend({
  method: z.literal('prompts/list'),
  params: PaginatedRequestParamsSchema,
});
/** `prompts/list`. */
export type ListPromptsRequest = z.infer<typeof ListPromptsRequestSchema>;

/** A page of prompts, with caching hints. */
export const ListPromptsResultSchema = CacheableResultSchema.extend({
  prompts: z.array(PromptSchema),
  nextCursor: z.string().optional(),
});
/** A page of prompts. */
export type ListPromptsResult = z.infer<typeof ListPromptsResultSchema>;

/** Response to `prompts/list`. */
export const ListPromptsResultResponseSchema = JSONRPCResultResponseSchema.extend({ result: ListPromptsResultSchema });
/** Response to `prompts/list`. */
export type ListPromptsResultResponse = z.infer<typeof ListPromptsResultResponseSchema>;

/** Params of `prompts/get`, including the MRTR retry fields. */
export const GetPromptRequestParamsSchema = InputResponseRequestParamsSchema.extend({
  name: z.string(),
  arguments: z.record(z.string(), z.string()).optional(),
});
/** Params of `prompts/get`. */
export type GetPromptRequestParams = z.infer<typeof GetPromptRequestParamsSchema>;

/** `prompts/get`. */
export const GetPromptRequestSchema = JSONRPCRequestSchema.extend({
  method: z.literal('prompts/get'),
  params: GetPromptRequestParamsSchema,
});
/** `prompts/get`. */
export type GetPromptRequest = z.infer<typeof GetPromptRequestSchema>;

/** A rendered prompt. */
export const GetPromptResultSchema = ResultSchema.extend({
  description: z.string().optional(),
  messages: z.array(PromptMessageSchema),
});
/** A rendered prompt. */
export type GetPromptResult = z.infer<typeof GetPromptResultSchema>;

/** Response to `prompts/get`: an MRTR interim result or the prompt. */
export const GetPromptResultResponseSchema = JSONRPCResultResponseSchema.extend({
  result: z.union([InputRequiredResultSchema, GetPromptResultSchema]),
});
/** Response to `prompts/get`. */
export type GetPromptResultResponse = z.infer<typeof GetPromptResultResponseSchema>;

/** `notifications/prompts/list_changed` (on a listen stream). */
export const PromptListChangedNotificationSchema = JSONRPCNotificationSchema.extend({
  method: z.literal('notifications/prompts/list_changed'),
  params: NotificationParamsSchema.optional(),
});
/** `notifications/prompts/list_changed`. */
export type PromptListChangedNotification = z.infer<typeof PromptListChangedNotificationSchema>;

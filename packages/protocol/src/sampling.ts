import { z } from 'zod';
import {
  AudioContentSchema,
  ImageContentSchema,
  RoleSchema,
  SamplingMessageContentBlockSchema,
  TextContentSchema,
  ToolResultContentSchema,
  ToolUseContentSchema,
} from './content.js';
import { JSONObjectSchema, MetaObjectSchema } from './json.js';
import { ToolSchema } from './tool.js';

/** One block or a list of blocks, as sampling messages and results allow. */
const SamplingContentSchema = z.union([
  TextContentSchema,
  ImageContentSchema,
  AudioContentSchema,
  ToolUseContentSchema,
  ToolResultContentSchema,
  z.array(SamplingMessageContentBlockSchema),
]);

/** One message of a sampling conversation. */
export const SamplingMessageSchema = z.looseObject({
  role: RoleSchema,
  content: SamplingContentSchema,
  _meta: MetaObjectSchema.optional(),
});
/** A sampling message. */
export type SamplingMessage = z.infer<typeof SamplingMessageSchema>;

/** A model name hint (substring match, client decides). */
export const ModelHintSchema = z.looseObject({ name: z.string().optional() });
/** A model hint. */
export type ModelHint = z.infer<typeof ModelHintSchema>;

const priority = z.number().min(0).max(1).optional();

/** The server's model preferences; advisory. */
export const ModelPreferencesSchema = z.looseObject({
  hints: z.array(ModelHintSchema).optional(),
  costPriority: priority,
  speedPriority: priority,
  intelligencePriority: priority,
});
/** Model preferences. */
export type ModelPreferences = z.infer<typeof ModelPreferencesSchema>;

/** Which tools the model may call during sampling. */
export const ToolChoiceSchema = z.looseObject({ mode: z.enum(['auto', 'required', 'none']).optional() });
/** A tool choice. */
export type ToolChoice = z.infer<typeof ToolChoiceSchema>;

/** Params of `sampling/createMessage`. */
export const CreateMessageRequestParamsSchema = z.looseObject({
  messages: z.array(SamplingMessageSchema),
  maxTokens: z.int(),
  modelPreferences: ModelPreferencesSchema.optional(),
  systemPrompt: z.string().optional(),
  includeContext: z.enum(['none', 'thisServer', 'allServers']).optional(),
  temperature: z.number().optional(),
  stopSequences: z.array(z.string()).optional(),
  metadata: JSONObjectSchema.optional(),
  tools: z.array(ToolSchema).optional(),
  toolChoice: ToolChoiceSchema.optional(),
});
/** Params of `sampling/createMessage`. */
export type CreateMessageRequestParams = z.infer<typeof CreateMessageRequestParamsSchema>;

/** `sampling/createMessage`, as an input request (servers never send standalone requests). */
export const CreateMessageRequestSchema = z.looseObject({
  method: z.literal('sampling/createMessage'),
  params: CreateMessageRequestParamsSchema,
});
/** A sampling request. */
export type CreateMessageRequest = z.infer<typeof CreateMessageRequestSchema>;

/** The client's sampled message. An input response, so it has no `resultType`. */
export const CreateMessageResultSchema = z.looseObject({
  role: RoleSchema,
  content: SamplingContentSchema,
  model: z.string(),
  stopReason: z.string().optional(),
  _meta: MetaObjectSchema.optional(),
});
/** A sampling result. */
export type CreateMessageResult = z.infer<typeof CreateMessageResultSchema>;

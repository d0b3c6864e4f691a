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
  /** Who sent the message: `user` or `assistant`. */
  role: RoleSchema,
  /** The message's content: one block or an array of blocks. */
  content: SamplingContentSchema,
  /** Reserved metadata. */
  _meta: MetaObjectSchema.optional(),
});
/** A sampling message. */
export type SamplingMessage = z.infer<typeof SamplingMessageSchema>;

/** A model name hint (substring match, client decides). */
export const ModelHintSchema = z.looseObject({
  /** A model name or family (e.g. `claude-3-5-sonnet`); the client matches it as a substring and may map it. */
  name: z.string().optional(),
});
/** A model hint. */
export type ModelHint = z.infer<typeof ModelHintSchema>;

const priority = z.number().min(0).max(1).optional();

/** The server's model preferences; advisory. */
export const ModelPreferencesSchema = z.looseObject({
  /** Model names to consider, in order of preference. */
  hints: z.array(ModelHintSchema).optional(),
  /** How much cost matters, from 0 to 1. */
  costPriority: priority,
  /** How much speed matters, from 0 to 1. */
  speedPriority: priority,
  /** How much capability matters, from 0 to 1. */
  intelligencePriority: priority,
});
/** Model preferences. */
export type ModelPreferences = z.infer<typeof ModelPreferencesSchema>;

/** Which tools the model may call during sampling. */
export const ToolChoiceSchema = z.looseObject({
  /** `auto` (the model decides), `required` (it must call a tool) or `none` (no tool calls). */
  mode: z.enum(['auto', 'required', 'none']).optional(),
});
/** A tool choice. */
export type ToolChoice = z.infer<typeof ToolChoiceSchema>;

/** Params of `sampling/createMessage`. */
export const CreateMessageRequestParamsSchema = z.looseObject({
  /** The conversation so far. */
  messages: z.array(SamplingMessageSchema),
  /** Most tokens to generate; the client may generate fewer. */
  maxTokens: z.int(),
  /** The server's model preferences; advisory. */
  modelPreferences: ModelPreferencesSchema.optional(),
  /** A system prompt the server asks for; the client may change or omit it. */
  systemPrompt: z.string().optional(),
  /** Which MCP context to include: `none`, `thisServer` or `allServers` (needs the `context` capability). */
  includeContext: z.enum(['none', 'thisServer', 'allServers']).optional(),
  /** Sampling temperature. */
  temperature: z.number().optional(),
  /** Sequences that stop generation. */
  stopSequences: z.array(z.string()).optional(),
  /** Provider-specific metadata, passed through. */
  metadata: JSONObjectSchema.optional(),
  /** Tools the model may call (needs the `tools` capability). */
  tools: z.array(ToolSchema).optional(),
  /** Whether and how the model must use `tools`. */
  toolChoice: ToolChoiceSchema.optional(),
});
/** Params of `sampling/createMessage`. */
export type CreateMessageRequestParams = z.infer<typeof CreateMessageRequestParamsSchema>;

/** `sampling/createMessage`, as an input request (servers never send standalone requests). */
export const CreateMessageRequestSchema = z.looseObject({
  /** Always `sampling/createMessage`. */
  method: z.literal('sampling/createMessage'),
  /** The sampling request. */
  params: CreateMessageRequestParamsSchema,
});
/** A sampling request. */
export type CreateMessageRequest = z.infer<typeof CreateMessageRequestSchema>;

/** The client's sampled message. An input response, so it has no `resultType`. */
export const CreateMessageResultSchema = z.looseObject({
  /** The role of the generated message (normally `assistant`). */
  role: RoleSchema,
  /** The generated content. */
  content: SamplingContentSchema,
  /** The model that produced it. */
  model: z.string(),
  /** Why generation stopped (`endTurn`, `stopSequence`, `maxTokens`, `toolUse`, or another string). */
  stopReason: z.string().optional(),
  /** Reserved metadata. */
  _meta: MetaObjectSchema.optional(),
});
/** A sampling result. */
export type CreateMessageResult = z.infer<typeof CreateMessageResultSchema>;

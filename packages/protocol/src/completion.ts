import { z } from 'zod';
import { JSONRPCRequestSchema, JSONRPCResultResponseSchema } from './jsonrpc.js';
import { RequestParamsSchema, ResultSchema } from './meta.js';

/** Completes an argument of a prompt. */
export const PromptReferenceSchema = z.looseObject({
  /** Always `ref/prompt`. */
  type: z.literal('ref/prompt'),
  /** The prompt's name. */
  name: z.string(),
  /** Display name for UIs. */
  title: z.string().optional(),
});
/** A prompt reference. */
export type PromptReference = z.infer<typeof PromptReferenceSchema>;

/** Completes a variable of a resource template. */
export const ResourceTemplateReferenceSchema = z.looseObject({
  /** Always `ref/resource`. */
  type: z.literal('ref/resource'),
  /** The resource template's URI template. */
  uri: z.string(),
});
/** A resource template reference. */
export type ResourceTemplateReference = z.infer<typeof ResourceTemplateReferenceSchema>;

/** Params of `completion/complete`. */
export const CompleteRequestParamsSchema = RequestParamsSchema.extend({
  /** What is being completed: a prompt or a resource template. */
  ref: z.discriminatedUnion('type', [PromptReferenceSchema, ResourceTemplateReferenceSchema]),
  /** The argument being completed. */
  argument: z.looseObject({
    /** The argument's (or template variable's) name. */
    name: z.string(),
    /** What the user has typed so far. */
    value: z.string(),
  }),
  /** Context for the completion. */
  context: z
    .looseObject({
      /** Values of the arguments already filled in, by name. */
      arguments: z.record(z.string(), z.string()).optional(),
    })
    .optional(),
});
/** Params of `completion/complete`. */
export type CompleteRequestParams = z.infer<typeof CompleteRequestParamsSchema>;

/** `completion/complete`. */
export const CompleteRequestSchema = JSONRPCRequestSchema.extend({
  /** Always `completion/complete`. */
  method: z.literal('completion/complete'),
  /** The reference and the argument to complete. */
  params: CompleteRequestParamsSchema,
});
/** `completion/complete`. */
export type CompleteRequest = z.infer<typeof CompleteRequestSchema>;

/** Completion values (at most 100). */
export const CompleteResultSchema = ResultSchema.extend({
  /** The completion values. */
  completion: z.looseObject({
    /** Suggested values, best first; at most 100. */
    values: z.array(z.string()).max(100),
    /** How many values exist in total, when known (may exceed those returned). */
    total: z.int().optional(),
    /** Whether more values exist than those returned. */
    hasMore: z.boolean().optional(),
  }),
});
/** Completion values. */
export type CompleteResult = z.infer<typeof CompleteResultSchema>;

/** Response to `completion/complete`. */
export const CompleteResultResponseSchema = JSONRPCResultResponseSchema.extend({
  /** The completion result. */
  result: CompleteResultSchema,
});
/** Response to `completion/complete`. */
export type CompleteResultResponse = z.infer<typeof CompleteResultResponseSchema>;

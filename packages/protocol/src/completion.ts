import { z } from 'zod';
import { JSONRPCRequestSchema, JSONRPCResultResponseSchema } from './jsonrpc.js';
import { RequestParamsSchema, ResultSchema } from './meta.js';

/** Completes an argument of a prompt. */
export const PromptReferenceSchema = z.looseObject({
  type: z.literal('ref/prompt'),
  name: z.string(),
  title: z.string().optional(),
});
/** A prompt reference. */
export type PromptReference = z.infer<typeof PromptReferenceSchema>;

/** Completes a variable of a resource template. */
export const ResourceTemplateReferenceSchema = z.looseObject({ type: z.literal('ref/resource'), uri: z.string() });
/** A resource template reference. */
export type ResourceTemplateReference = z.infer<typeof ResourceTemplateReferenceSchema>;

/** Params of `completion/complete`. */
export const CompleteRequestParamsSchema = RequestParamsSchema.extend({
  ref: z.discriminatedUnion('type', [PromptReferenceSchema, ResourceTemplateReferenceSchema]),
  argument: z.looseObject({ name: z.string(), value: z.string() }),
  context: z.looseObject({ arguments: z.record(z.string(), z.string()).optional() }).optional(),
});
/** Params of `completion/complete`. */
export type CompleteRequestParams = z.infer<typeof CompleteRequestParamsSchema>;

/** `completion/complete`. */
export const CompleteRequestSchema = JSONRPCRequestSchema.extend({
  method: z.literal('completion/complete'),
  params: CompleteRequestParamsSchema,
});
/** `completion/complete`. */
export type CompleteRequest = z.infer<typeof CompleteRequestSchema>;

/** Completion values (at most 100). */
export const CompleteResultSchema = ResultSchema.extend({
  completion: z.looseObject({
    values: z.array(z.string()).max(100),
    total: z.int().optional(),
    hasMore: z.boolean().optional(),
  }),
});
/** Completion values. */
export type CompleteResult = z.infer<typeof CompleteResultSchema>;

/** Response to `completion/complete`. */
export const CompleteResultResponseSchema = JSONRPCResultResponseSchema.extend({ result: CompleteResultSchema });
/** Response to `completion/complete`. */
export type CompleteResultResponse = z.infer<typeof CompleteResultResponseSchema>;

import { z } from 'zod';
import { ElicitRequestSchema, ElicitResultSchema } from './elicitation.js';
import { RequestParamsSchema, ResultSchema } from './meta.js';
import { ListRootsRequestSchema, ListRootsResultSchema } from './roots.js';
import { CreateMessageRequestSchema, CreateMessageResultSchema } from './sampling.js';

/** A server-to-client request embedded in a result (MRTR) or an input_required task, discriminated by `method`. */
export const InputRequestSchema = z.discriminatedUnion('method', [
  ElicitRequestSchema,
  CreateMessageRequestSchema,
  ListRootsRequestSchema,
]);
/** An embedded server-to-client request. */
export type InputRequest = z.infer<typeof InputRequestSchema>;

/** Outstanding input requests by key; the client answers each key in `inputResponses`. */
export const InputRequestsSchema = z.record(z.string(), InputRequestSchema);
/** Outstanding input requests by key. */
export type InputRequests = z.infer<typeof InputRequestsSchema>;

/** The client's answer to one input request. Which kind is implied by the request with the same key. */
export const InputResponseSchema = z.union([ElicitResultSchema, ListRootsResultSchema, CreateMessageResultSchema]);
/** An answer to one input request. */
export type InputResponse = z.infer<typeof InputResponseSchema>;

/** Answers by input-request key. */
export const InputResponsesSchema = z.record(z.string(), InputResponseSchema);
/** Answers by input-request key. */
export type InputResponses = z.infer<typeof InputResponsesSchema>;

/**
 * `resultType: "input_required"`: the server needs client input before it can answer. The client retries the same
 * request with `inputResponses` and echoes `requestState` verbatim (it is opaque to the client).
 */
export const InputRequiredResultSchema = ResultSchema.extend({
  /** Always `input_required`. */
  resultType: z.literal('input_required'),
  /** The requests the client must fulfil before retrying, by key. */
  inputRequests: InputRequestsSchema.optional(),
  /** Opaque state to echo back unchanged on the retry. */
  requestState: z.string().optional(),
});
/** An MRTR interim result. */
export type InputRequiredResult = z.infer<typeof InputRequiredResultSchema>;

/** The MRTR fields a retried request adds to its params. */
export const InputResponseRequestParamsSchema = RequestParamsSchema.extend({
  /** Answers to the previous round's `inputRequests`, under the same keys. */
  inputResponses: InputResponsesSchema.optional(),
  /** The previous round's `requestState`, echoed unchanged. */
  requestState: z.string().optional(),
});
/** Request params with MRTR fields. */
export type InputResponseRequestParams = z.infer<typeof InputResponseRequestParamsSchema>;

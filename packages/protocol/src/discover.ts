import { z } from 'zod';
import { ServerCapabilitiesSchema } from './capabilities.js';
import { JSONRPCRequestSchema, JSONRPCResultResponseSchema } from './jsonrpc.js';
import { RequestParamsSchema } from './meta.js';
import { CacheableResultSchema } from './pagination.js';

/** `server/discover`: what the server supports. Optional for clients; replaces `initialize`. */
export const DiscoverRequestSchema = JSONRPCRequestSchema.extend({
  /** Always `server/discover`. */
  method: z.literal('server/discover'),
  /** Params: the per-request `_meta`. */
  params: RequestParamsSchema,
});
/** `server/discover`. */
export type DiscoverRequest = z.infer<typeof DiscoverRequestSchema>;

/** The server's versions, capabilities (with `extensions`) and instructions, with caching hints. */
export const DiscoverResultSchema = CacheableResultSchema.extend({
  /** The protocol versions the server supports. */
  supportedVersions: z.array(z.string()),
  /** What the server supports. */
  capabilities: ServerCapabilitiesSchema,
  /** How to use the server, for the client to pass on to the model. */
  instructions: z.string().optional(),
});
/** The `server/discover` result. */
export type DiscoverResult = z.infer<typeof DiscoverResultSchema>;

/** Response to `server/discover`. */
export const DiscoverResultResponseSchema = JSONRPCResultResponseSchema.extend({
  /** The discover result. */
  result: DiscoverResultSchema,
});
/** Response to `server/discover`. */
export type DiscoverResultResponse = z.infer<typeof DiscoverResultResponseSchema>;

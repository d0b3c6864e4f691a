import { z } from 'zod';
import { ServerCapabilitiesSchema } from './capabilities.js';
import { JSONRPCRequestSchema, JSONRPCResultResponseSchema } from './jsonrpc.js';
import { RequestParamsSchema } from './meta.js';
import { CacheableResultSchema } from './pagination.js';

/** `server/discover`: what the server supports. Optional for clients; replaces `initialize`. */
export const DiscoverRequestSchema = JSONRPCRequestSchema.extend({
  method: z.literal('server/discover'),
  params: RequestParamsSchema,
});
/** `server/discover`. */
export type DiscoverRequest = z.infer<typeof DiscoverRequestSchema>;

/** The server's versions, capabilities (with `extensions`) and instructions, with caching hints. */
export const DiscoverResultSchema = CacheableResultSchema.extend({
  supportedVersions: z.array(z.string()),
  capabilities: ServerCapabilitiesSchema,
  instructions: z.string().optional(),
});
/** The `server/discover` result. */
export type DiscoverResult = z.infer<typeof DiscoverResultSchema>;

/** Response to `server/discover`. */
export const DiscoverResultResponseSchema = JSONRPCResultResponseSchema.extend({ result: DiscoverResultSchema });
/** Response to `server/discover`. */
export type DiscoverResultResponse = z.infer<typeof DiscoverResultResponseSchema>;

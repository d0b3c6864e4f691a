import { z } from 'zod';
import { ContentBlockSchema } from './content.js';
import { JSONRPCRequestSchema, JSONRPCResultResponseSchema } from './jsonrpc.js';
import { ResultSchema } from './meta.js';
import { InputRequiredResultSchema, InputResponseRequestParamsSchema } from './mrtr.js';
import { CacheableResultSchema, PaginatedRequestParamsSchema } from './pagination.js';
import { ToolSchema } from './tool.js';

/** `tools/list`. */
export const ListToolsRequestSchema = JSONRPCRequestSchema.extend({
  method: z.literal('tools/list'),
  params: PaginatedRequestParamsSchema,
});
/** `tools/list`. */
export type ListToolsRequest = z.infer<typeof ListToolsRequestSchema>;

/** The tools a server offers, one page at a time; carries caching hints. */
export const ListToolsResultSchema = CacheableResultSchema.extend({
  tools: z.array(ToolSchema),
  nextCursor: z.string().optional(),
});
/** A page of tools. */
export type ListToolsResult = z.infer<typeof ListToolsResultSchema>;

/** Response to `tools/list`. */
export const ListToolsResultResponseSchema = JSONRPCResultResponseSchema.extend({ result: ListToolsResultSchema });
/** Response to `tools/list`. */
export type ListToolsResultResponse = z.infer<typeof ListToolsResultResponseSchema>;

/** Params of `tools/call`, including the MRTR retry fields. */
export const CallToolRequestParamsSchema = InputResponseRequestParamsSchema.extend({
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()).optional(),
});
/** Params of `tools/call`. */
export type CallToolRequestParams = z.infer<typeof CallToolRequestParamsSchema>;

/** `tools/call`. */
export const CallToolRequestSchema = JSONRPCRequestSchema.extend({
  method: z.literal('tools/call'),
  params: CallToolRequestParamsSchema,
});
/** `tools/call`. */
export type CallToolRequest = z.infer<typeof CallToolRequestSchema>;

/** A tool's result. Tool failures are reported here with `isError: true`, not as JSON-RPC errors. */
export const CallToolResultSchema = ResultSchema.extend({
  content: z.array(ContentBlockSchema),
  structuredContent: z.unknown().optional(),
  isError: z.boolean().optional(),
});
/** A tool's result. */
export type CallToolResult = z.infer<typeof CallToolResultSchema>;

/** Response to `tools/call` in the core protocol: an MRTR interim result or the tool's result. */
export const CallToolResultResponseSchema = JSONRPCResultResponseSchema.extend({
  result: z.union([InputRequiredResultSchema, CallToolResultSchema]),
});
/** Response to `tools/call`. */
export type CallToolResultResponse = z.infer<typeof CallToolResultResponseSchema>;
